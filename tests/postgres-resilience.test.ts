import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * PostgreSQL only (npm run test:pg, which CI runs): the embedded database has no server
 * that could drop a connection. A database restart or failover must not end Depot.
 */
const serverUrl = process.env.DEPOT_TEST_DATABASE_URL;

describe.runIf(serverUrl)('on PostgreSQL, when the server drops connections', () => {
  let depot: TestDepot;
  beforeAll(async () => {
    depot = await startTestDepot();
  });
  afterAll(() => depot?.close());

  it('keeps answering: dropped idle connections are replaced', async () => {
    expect((await depot.app.inject({ url: '/artifactory/api/system/ping' })).body).toBe('OK');
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const { rows } = await admin.query(`select current_database() as name`);
    expect(rows[0].name).toBe('postgres');
    // Only this test's own database: other test files run on the same server at once.
    const ownDatabase = new URL(depot.config.databaseUrl!).pathname.slice(1);
    const terminated = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`,
      [ownDatabase],
    );
    await admin.end();
    expect(terminated.rowCount).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await depot.app.inject({ url: '/artifactory/api/system/ping' })).body).toBe('OK');
  });
});
