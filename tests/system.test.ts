import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateToLatest } from '../server/db/database.ts';
import { MIGRATIONS } from '../server/db/migrations/index.ts';
import { adminAuth, startTestDepot, type TestDepot } from './helpers/test-app.ts';

let depot: TestDepot;
let uiDir: string;
beforeAll(async () => {
  uiDir = join(process.env.TMPDIR ?? '/tmp', `depot-ui-${process.pid}-${Date.now()}`);
  mkdirSync(join(uiDir, 'assets'), { recursive: true });
  writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Depot console</title>');
  writeFileSync(join(uiDir, 'assets', 'app-1234.js'), 'console.log(1)');
  mkdirSync(join(uiDir, '.vite'));
  writeFileSync(join(uiDir, '.vite', 'manifest.json'), '{"secret":"build details"}');
  depot = await startTestDepot({ DEPOT_UI_DIR: uiDir, DEPOT_SERVER_NAME: 'build-farm' });
});
afterAll(async () => {
  await depot.close();
  rmSync(uiDir, { recursive: true, force: true });
});

describe('system calls', () => {
  it('answers ping with OK to anyone', async () => {
    const response = await depot.app.inject({ url: '/artifactory/api/system/ping' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('OK');
  });

  it('answers version and revision', async () => {
    const response = await depot.app.inject({
      url: '/artifactory/api/system/version',
      headers: adminAuth(),
    });
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(response.json()).toMatchObject({ version: pkg.version });
    expect(response.json().revision).toMatch(/\S/);
  });

  it('uses the configured server name in the footer', async () => {
    const footer = await depot.app.inject({ url: '/ui/api/v1/ui/auth/screen/footer' });
    expect(footer.json().serverName).toBe('build-farm');
  });

  it('writes its log as JSON lines to a file under DEPOT_HOME/logs', async () => {
    const log = join(depot.config.home, 'logs', 'depot-service.log');
    await vi.waitFor(() =>
      expect(readFileSync(log, 'utf8')).toContain('"msg":"created the initial administrator"'),
    );
    const first = JSON.parse(readFileSync(log, 'utf8').split('\n')[0]);
    expect(first).toMatchObject({ level: 30, service: 'depot' });
  });
});

describe('the console under /ui/', () => {
  it('answers deep links with index.html (history routing)', async () => {
    for (const url of ['/ui/', '/ui/admin/management/users', '/ui/login/change-password/admin']) {
      const response = await depot.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('Depot console');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    const response = await depot.app.inject({ url: '/ui/assets/app-1234.js' });
    expect(response.body).toBe('console.log(1)');
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('never serves a file outside the console folder', async () => {
    for (const url of [
      '/ui/../package.json',
      '/ui/%2e%2e/package.json',
      '/ui/assets/..%2f..%2fpackage.json',
    ]) {
      const response = await depot.app.inject({ url });
      expect(response.body, url).not.toContain('"name": "depot"');
    }
  });

  it('does not serve hidden build files', async () => {
    const response = await depot.app.inject({ url: '/ui/.vite/manifest.json' });
    expect(response.body).not.toContain('build details');
  });

  it('answers an unknown API path with a JSON 404, not the console', async () => {
    const response = await depot.app.inject({ url: '/ui/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json().errors[0].message).toContain('could not be found.');
  });

  it('redirects the root to the console', async () => {
    const response = await depot.app.inject({ url: '/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/ui/');
  });
});

describe("the schema's check at every start", () => {
  const applied = async () =>
    (
      await sql<{ name: string }>`select name from kysely_migration order by name`.execute(depot.db)
    ).rows.map(({ name }) => name);

  it('finds every migration applied and leaves the database as it is', async () => {
    const before = await applied();
    expect(before).toEqual(Object.keys(MIGRATIONS).sort());
    await migrateToLatest(depot.db, pino({ level: 'silent' }));
    expect(await applied()).toEqual(before);
  });

  it('refuses a database a newer build migrated, as the migrator says', async () => {
    // The quick check that all is applied must not pass over a migration it does not know.
    const newer = '9999-from-a-newer-build';
    await sql`insert into kysely_migration (name, timestamp) values (${newer}, ${new Date().toISOString()})`.execute(
      depot.db,
    );
    try {
      await expect(migrateToLatest(depot.db, pino({ level: 'silent' }))).rejects.toThrow(
        `previously executed migration ${newer} is missing`,
      );
    } finally {
      await sql`delete from kysely_migration where name = ${newer}`.execute(depot.db);
    }
  });
});
