import { sql } from 'kysely';
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

  /** Ends every connection to this test's own database (other files share the server). */
  async function terminateOwnConnections(): Promise<number> {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const { rows } = await admin.query(`select current_database() as name`);
    expect(rows[0].name).toBe('postgres');
    const ownDatabase = new URL(depot.config.databaseUrl!).pathname.slice(1);
    const terminated = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`,
      [ownDatabase],
    );
    await admin.end();
    return terminated.rowCount ?? 0;
  }

  it('keeps answering: dropped idle connections are replaced', async () => {
    expect((await depot.app.inject({ url: '/artifactory/api/system/ping' })).body).toBe('OK');
    expect(await terminateOwnConnections()).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await depot.app.inject({ url: '/artifactory/api/system/ping' })).body).toBe('OK');
  });

  it('keeps answering when a connection in use is dropped between two statements', async () => {
    // A background job's transaction (the webhook dispatcher's, say) holds a connection
    // between statements when the server goes; the next statement fails, nothing is uncaught.
    const failed = await depot.db
      .transaction()
      .execute(async (tx) => {
        await sql`select 1`.execute(tx);
        expect(await terminateOwnConnections()).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await sql`select 1`.execute(tx);
        return false;
      })
      .catch(() => true);
    expect(failed).toBe(true);
    expect((await depot.app.inject({ url: '/artifactory/api/system/ping' })).body).toBe('OK');
  });
});
