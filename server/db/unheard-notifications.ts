import { sql } from 'kysely';
import type { Database } from './database.ts';

/**
 * Switches off, on the embedded database, the triggers that announce every write to a
 * watched table (migration 0008 and the tables that joined it since). They exist for other
 * nodes sharing a PostgreSQL server (change-listener.ts); the embedded database has one
 * process (its data directory is locked) whose own writes clear its caches through
 * TableChanges, and nobody there listens. Each watched write still paid for a PL/pgSQL
 * call and a queued notification: some 0.3 ms of the database thread's CPU per small-file
 * deploy, of about 3 (docs/webhooks.md, "Deploy rate"). Run after every start's migrations,
 * since a later migration may add such a trigger; the triggers stay defined, so the schema
 * is the same on both databases.
 */
export async function disableUnheardNotifications(db: Database): Promise<void> {
  await sql`do $$
    declare announcing record;
    begin
      for announcing in
        select tgrelid::regclass as relation, tgname as name from pg_trigger
        where tgfoid = 'depot_notify_table_change'::regproc and tgenabled <> 'D'
      loop
        execute format('alter table %s disable trigger %I', announcing.relation, announcing.name);
      end loop;
    end $$`.execute(db);
}
