import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type DepotApp } from '../server/app.ts';
import { createLogger } from '../server/logger.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * Two Depot nodes on one PostgreSQL and one filestore, as a cluster runs. Each keeps rows
 * in memory for up to 5 s; a write committed on one node must reach the other's caches
 * through the database's change notifications well before that.
 */
const CACHE_LIFETIME_MS = 5000;

/** Polls until `check` holds; answers how long it took, or fails after half a cache lifetime. */
async function within(check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > CACHE_LIFETIME_MS / 2) throw new Error('still stale');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

describe.runIf(process.env.DEPOT_TEST_DATABASE_URL)('read caches on a cluster', () => {
  let first: TestDepot;
  let second: DepotApp;
  beforeAll(async () => {
    first = await startTestDepot();
    second = await buildApp(first.config, createLogger(first.config));
    await first.services.repositories.create({
      key: 'shared',
      rclass: 'local',
      packageType: 'generic',
    });
  });
  afterAll(async () => {
    await second?.app.close();
    await first?.close();
  });

  const url = '/artifactory/shared/maven-metadata.xml';
  const deployOnFirst = (payload: string) =>
    first.app.inject({ method: 'PUT', url, headers: adminAuth(), payload });
  const readOnSecond = async () => (await second.app.inject({ url, headers: adminAuth() })).body;

  it("serves a file another node overwrote, without waiting out the cache's lifetime", async () => {
    expect((await deployOnFirst('<v1/>')).statusCode).toBe(201);
    expect(await readOnSecond()).toBe('<v1/>'); // now cached on the second node
    expect((await deployOnFirst('<v2/>')).statusCode).toBe(201);
    await within(async () => (await readOnSecond()) === '<v2/>');
  });

  it('refuses an old password on another node soon after it changed', async () => {
    await first.services.users.create({
      name: 'lee',
      email: 'lee@example.com',
      password: 'old-pass-1',
    });
    const asLee = { authorization: basic('lee', 'old-pass-1') };
    const asLeeOnSecond = () => second.app.inject({ url, headers: asLee });
    expect((await asLeeOnSecond()).statusCode).toBe(200);
    await first.services.users.update('lee', { password: 'new-pass-2' }, { name: 'admin' });
    await within(async () => (await asLeeOnSecond()).statusCode === 401);
  });
});
