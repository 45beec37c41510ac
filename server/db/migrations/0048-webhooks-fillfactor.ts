import { sql, type Kysely } from 'kysely';

/**
 * Webhook deliveries are updated twice after they are written (claimed, then recorded):
 * with room left on each page, the claim's update (lease and claim count, no indexed
 * column) stays on the row's page as a heap-only tuple instead of adding an entry to each
 * of the table's four indexes. That halves the claim's cost in the database
 * (docs/webhooks.md, "Cost"). Pages written from now on keep the room.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries set (fillfactor = 50)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries reset (fillfactor)`.execute(db);
}
