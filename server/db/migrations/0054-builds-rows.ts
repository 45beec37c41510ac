import { sql, type Kysely } from 'kysely';

/**
 * Builds read as rows (docs/builds.md, "Scale"):
 * - An item's Builds tab finds the module files listing its content by checksum. The
 *   checksum indexes now carry the columns the tab reads (`build_id`, `kind`, `module_id`,
 *   `scopes`), so the lookup is one index range scan per checksum, the build's own columns
 *   then read by its primary key.
 * - A diff compared the two builds' properties out of their documents, which detoasts
 *   megabytes for a build of thousands of files. `build_properties` holds each build's
 *   properties flattened, one row a key, in the document's order (`position`), kept by a
 *   trigger on `builds` so that every way a build is written (upload, rename, restore) fills
 *   it, and going with the build (on delete cascade).
 * - Readers of `build_files` took the rows' order in the table (ctid) as the document's, which
 *   it is not once deletes have left free space for a new build's rows to land in. Each row
 *   now says where the document lists it: `module_position`, its module's index in
 *   `modules`, and `position`, its index in that module's `artifacts` or `dependencies`.
 *   Rows written before this migration get the order they were read in until now, the
 *   table's, the best there is without reading every document again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table build_files add column module_position integer,
            add column position integer`.execute(db);
  await sql`
    update build_files f set module_position = o.module_position, position = o.position
    from (select at, dense_rank() over (partition by build_id order by module_at) - 1 as module_position,
                 row_number() over (partition by build_id, module_id, kind order by at) - 1 as position
          from (select ctid as at, build_id, module_id, kind,
                       min(ctid) over (partition by build_id, module_id) as module_at
                from build_files) listed) o
    where f.ctid = o.at`.execute(db);
  await sql`alter table build_files alter column module_position set not null,
            alter column position set not null`.execute(db);
  await sql`drop index if exists build_files_by_sha256`.execute(db);
  await sql`drop index if exists build_files_by_sha1`.execute(db);
  await sql`create index build_files_by_sha256 on build_files (sha256)
            include (build_id, kind, module_id, scopes) where sha256 is not null`.execute(db);
  await sql`create index build_files_by_sha1 on build_files (sha1)
            include (build_id, kind, module_id, scopes) where sha1 is not null`.execute(db);

  await sql`
    create table build_properties (
      build_id bigint not null references builds (id) on delete cascade,
      position integer not null,
      key text not null,
      value text not null,
      primary key (build_id, key)
    )`.execute(db);
  await sql`
    create function depot_build_properties() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        delete from build_properties where build_id = old.id;
      end if;
      insert into build_properties (build_id, position, key, value)
      select new.id, p.position, p.key, p.value
      from jsonb_each_text(case jsonb_typeof(new.document->'properties')
                             when 'object' then new.document->'properties' else '{}' end)
           with ordinality as p (key, value, position);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger builds_properties after insert or update of document on builds
    for each row execute function depot_build_properties()`.execute(db);
  await sql`
    insert into build_properties (build_id, position, key, value)
    select b.id, p.position, p.key, p.value
    from builds b,
         jsonb_each_text(case jsonb_typeof(b.document->'properties')
                           when 'object' then b.document->'properties' else '{}' end)
         with ordinality as p (key, value, position)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists builds_properties on builds`.execute(db);
  await sql`drop function if exists depot_build_properties()`.execute(db);
  await sql`drop table if exists build_properties`.execute(db);
  await sql`alter table build_files drop column module_position, drop column position`.execute(db);
  await sql`drop index if exists build_files_by_sha256`.execute(db);
  await sql`drop index if exists build_files_by_sha1`.execute(db);
  await sql`create index build_files_by_sha256 on build_files (sha256) where sha256 is not null`.execute(
    db,
  );
  await sql`create index build_files_by_sha1 on build_files (sha1) where sha1 is not null`.execute(
    db,
  );
}
