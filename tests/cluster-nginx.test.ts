import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobLockKey, LOCK_NAMESPACE } from '../server/jobs/job-lock.ts';
import { startNginx, type NginxBalancer } from './helpers/nginx.ts';
import { freePort, spawnDepot, waitForPing } from './helpers/server-process.ts';
import { basic, createScratchDatabase } from './helpers/test-app.ts';

/**
 * Two Depot processes on one PostgreSQL database and one filestore, behind Debian's nginx
 * with the configuration docs/cluster.md gives (tests/helpers/nginx.ts): they serve as one.
 */
const serverUrl = process.env.DEPOT_TEST_DATABASE_URL;
const PASSWORD = 'cluster-admin-1';
const admin = { authorization: basic('admin', PASSWORD) };

interface Node {
  id: string;
  base: string;
  process: ChildProcess;
  home: string;
}

/** Polls until `check` holds, failing after `ms`; answers how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not so within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

describe.runIf(serverUrl)('two nodes behind nginx', () => {
  const nodes: Node[] = [];
  let balancer: NginxBalancer | undefined;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  const filestore = mkdtempSync(join(tmpdir(), 'depot-cluster-filestore-'));
  const [first, second] = [() => nodes[0]!, () => nodes[1]!];
  const via = (base: string, path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { ...admin, ...init.headers } });

  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl!);
    // One master key for the cluster: what one node seals, signs or encrypts, all can read.
    const masterKey = randomBytes(32).toString('hex');
    for (const id of ['node-a', 'node-b']) {
      const home = mkdtempSync(join(tmpdir(), `depot-cluster-${id}-`));
      const port = await freePort();
      const child = spawnDepot(home, port, {
        DEPOT_DATABASE_URL: scratch.url,
        DEPOT_FILESTORE_DIR: filestore,
        DEPOT_MASTER_KEY: masterKey,
        DEPOT_NODE_ID: id,
        DEPOT_ADMIN_PASSWORD: PASSWORD,
      });
      const node = { id, base: `http://127.0.0.1:${port}`, process: child, home };
      nodes.push(node);
      // One after the other: the first applies the migrations.
      await waitForPing(node.base, child, 120000);
    }
    balancer = await startNginx(nodes.map((node) => Number(new URL(node.base).port)));
    const created = await via(balancer.baseUrl, '/artifactory/api/repositories/shared', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
    });
    expect(created.status).toBe(200);
  }, 300000);

  afterAll(async () => {
    await balancer?.stop();
    await Promise.all(
      nodes.map(async (node) => {
        const exited = new Promise((resolve) => node.process.once('exit', resolve));
        if (node.process.exitCode === null) node.process.kill('SIGTERM');
        await exited;
        rmSync(node.home, { recursive: true, force: true });
      }),
    );
    await scratch?.drop();
    rmSync(filestore, { recursive: true, force: true });
  }, 60000);

  it('serves what was deployed through either node from both, at once', async () => {
    // nginx takes turns: of four deploys, each node receives some.
    for (let i = 0; i < 4; i++) {
      const put = await via(balancer!.baseUrl, `/artifactory/shared/file-${i}.txt`, {
        method: 'PUT',
        body: `content ${i}`,
      });
      expect(put.status).toBe(201);
    }
    for (const node of nodes)
      for (let i = 0; i < 4; i++) {
        const got = await via(node.base, `/artifactory/shared/file-${i}.txt`);
        expect([node.id, got.status, await got.text()]).toEqual([node.id, 200, `content ${i}`]);
      }
  });

  it('applies a permission given on one node on the other without waiting out its caches', async () => {
    const user = await via(first().base, '/artifactory/api/security/users/dev', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dev@example.com', password: 'dev-pass-12' }),
    });
    expect(user.status).toBe(201);
    // Every user may read (the default permission); deploying needs a grant.
    let attempt = 0;
    const deployOnSecond = () =>
      fetch(`${second().base}/artifactory/shared/by-dev-${attempt++}.txt`, {
        method: 'PUT',
        headers: { authorization: basic('dev', 'dev-pass-12') },
        body: 'from dev',
      }).then((response) => response.status);
    expect(await deployOnSecond()).toBe(403);
    const target = await via(first().base, '/artifactory/api/v2/security/permissions/dev-deploys', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        repo: {
          repositories: ['shared'],
          actions: { users: { dev: ['read', 'write'] }, groups: {} },
        },
      }),
    });
    expect(target.status).toBe(201);
    // The read caches keep rows up to 5 s: half of that shows the database's notification
    // did the work, not the caches' lifetime.
    await within(2500, async () => (await deployOnSecond()) === 201);
  });

  it('keeps a session signed in through nginx, and a token made on one node, good on both', async () => {
    const login = await fetch(`${balancer!.baseUrl}/ui/api/v1/ui/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'admin', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    for (const node of nodes) {
      const current = await fetch(`${node.base}/ui/api/v1/ui/auth/current`, {
        headers: { cookie },
      });
      expect([node.id, ((await current.json()) as { name: string }).name]).toEqual([
        node.id,
        'admin',
      ]);
    }
    const made = await via(second().base, '/access/api/v1/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(made.status).toBe(200);
    const { access_token: token } = (await made.json()) as { access_token: string };
    const used = await fetch(`${first().base}/artifactory/api/repositories`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(used.status).toBe(200);
  });

  it('runs a job on one node at a time, and on another once the holder is gone', async () => {
    // A third holder of garbage collection's lock: what a node running it holds. Its
    // connection then drops as a killed node's does, and PostgreSQL lets the lock go.
    const holder = new pg.Client({ connectionString: scratch!.url });
    await holder.connect();
    holder.on('error', () => undefined);
    await holder.query('select pg_advisory_lock($1::int, $2::int)', [
      LOCK_NAMESPACE,
      jobLockKey('garbageCollection'),
    ]);
    const runOn = (node: Node) =>
      via(node.base, '/ui/api/v1/ui/maintenance/garbageCollection', { method: 'POST' }).then(
        (response) => response.status,
      );
    try {
      expect(await runOn(first())).toBe(409);
      expect(await runOn(second())).toBe(409);
    } finally {
      (
        holder as unknown as { connection: { stream: { destroy(): void } } }
      ).connection.stream.destroy();
    }
    await within(10000, async () => (await runOn(second())) === 200);
  });
});
