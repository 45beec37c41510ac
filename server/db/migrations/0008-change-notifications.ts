import { sql, type Kysely } from 'kysely';

/**
 * The tables whose rows the in-process read caches keep (credentials, repositories, the
 * download path's nodes and blobs). A write to any of them sends a notification on
 * 'depot_table_changes' naming the table; PostgreSQL delivers it when the transaction
 * commits, to every node of a cluster (server/db/change-listener.ts), and not at all when
 * it rolls back.
 */
export const WATCHED_TABLES = ['users', 'groups', 'user_groups', 'repositories', 'nodes', 'blobs'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function depot_notify_table_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('depot_table_changes', tg_table_name);
      return null;
    end $$`.execute(db);
  for (const table of WATCHED_TABLES) {
    await sql`
      create trigger ${sql.id(`${table}_changed`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function depot_notify_table_change()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of WATCHED_TABLES) {
    await sql`drop trigger if exists ${sql.id(`${table}_changed`)} on ${sql.table(table)}`.execute(
      db,
    );
  }
  await sql`drop function if exists depot_notify_table_change()`.execute(db);
}
