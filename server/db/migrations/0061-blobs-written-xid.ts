import { sql, type Kysely } from 'kysely';

/**
 * Which transaction last wrote each blob row, indexed, so that an incremental backup finds the
 * blob rows written since its base through the index instead of reading every row's `xmin`
 * (docs/backup.md, "Twelfth round"). `written_xid` is the writing transaction's full id
 * (`pg_current_xact_id()`, 64 bits, never wrapping), set by a trigger on every insert and
 * update, whatever statement writes the row. Rows written before this migration keep null:
 * a backup continues only a base taken with the same migrations, so every row written since
 * any base has its id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table blobs add column written_xid xid8`.execute(db);
  await sql`create index blobs_written_xid on blobs (written_xid)`.execute(db);
  await sql`
    create function depot_blob_written() returns trigger language plpgsql as $$
    begin
      new.written_xid := pg_current_xact_id();
      return new;
    end $$`.execute(db);
  await sql`
    create trigger blobs_written before insert or update on blobs
    for each row execute function depot_blob_written()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists blobs_written on blobs`.execute(db);
  await sql`drop function if exists depot_blob_written()`.execute(db);
  await sql`alter table blobs drop column written_xid`.execute(db);
}
