import { sql, type Kysely } from 'kysely';

/**
 * What a stored build lists by SHA-1 alone, resolved to the content it names (docs/retention.md,
 * "What a policy never takes"). A build-info file may give a file's SHA-1 and MD5 only (the
 * Gradle and Maven extractors' dependencies do); retention keeps the content with that SHA-1,
 * and found it by joining every such row to `blobs` on `sha1` each time it looked: a merge over
 * the whole `blobs (sha1)` index, about a second of a preview over a million items with a
 * thousand builds stored. `content_by_sha1` holds the SHA-256 of the stored content with the
 * row's SHA-1 once it is stored:
 * - a row written (an upload, a restore) looks its content up as it goes in;
 * - a row written before its content was stored gets it when the content's blob row is
 *   inserted (only unresolved rows are looked at, through an index of them alone).
 * A blob row that goes again later (no item holds it) leaves the value: no item has that
 * content then, and the same content stored again has the same SHA-256.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table build_files add column content_by_sha1 text`.execute(db);
  await sql`
    update build_files f set content_by_sha1 = b.sha256
    from blobs b where f.sha1 is not null and b.sha1 = f.sha1`.execute(db);
  await sql`create index build_files_unresolved_sha1 on build_files (sha1)
            where content_by_sha1 is null and sha1 is not null`.execute(db);
  await sql`
    create function depot_build_file_content() returns trigger language plpgsql as $$
    begin
      new.content_by_sha1 := case when new.sha1 is null then null
        else (select sha256 from blobs where sha1 = new.sha1 limit 1) end;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger build_files_content before insert or update of sha1 on build_files
    for each row execute function depot_build_file_content()`.execute(db);
  await sql`
    create function depot_blob_resolves_build_files() returns trigger language plpgsql as $$
    begin
      update build_files set content_by_sha1 = new.sha256
      where sha1 = new.sha1 and content_by_sha1 is null;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger blobs_resolve_build_files after insert on blobs
    for each row execute function depot_blob_resolves_build_files()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists blobs_resolve_build_files on blobs`.execute(db);
  await sql`drop function if exists depot_blob_resolves_build_files()`.execute(db);
  await sql`drop trigger if exists build_files_content on build_files`.execute(db);
  await sql`drop function if exists depot_build_file_content()`.execute(db);
  await sql`drop index if exists build_files_unresolved_sha1`.execute(db);
  await sql`alter table build_files drop column content_by_sha1`.execute(db);
}
