import { sql, type Kysely } from 'kysely';

/**
 * Each build name's latest build (docs/builds.md, "Scale"): the builds list shows one row a
 * name, newest first, and reading it from `builds` meant sorting every build. `latest_builds`
 * holds, for each build-info repository and name, the columns of its newest build, kept by a
 * trigger on `builds`, so that it follows every way a build comes and goes: an upload, a
 * replacement, and the cascade from a deleted file, folder or repository.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table latest_builds (
      repository_key text not null,
      name text not null,
      id bigint not null,
      node_id bigint not null,
      project_key text,
      number text not null,
      started text not null,
      started_at timestamptz not null,
      path text not null,
      primary key (repository_key, name)
    )`.execute(db);
  await sql`create index latest_builds_by_time on latest_builds (started_at desc)`.execute(db);
  await sql`create index builds_by_repository_name on builds (repository_key, name, started_at desc, id desc)`.execute(
    db,
  );

  // The newest build of one name in one repository, or no row when it has none left.
  await sql`
    create function depot_latest_build_refresh(repo text, build_name text) returns void
    language plpgsql as $$
    begin
      delete from latest_builds where repository_key = repo and name = build_name;
      insert into latest_builds
        (repository_key, name, id, node_id, project_key, number, started, started_at, path)
      select repository_key, name, id, node_id, project_key, number, started, started_at, path
      from builds where repository_key = repo and name = build_name
      order by started_at desc, id desc limit 1;
    end $$`.execute(db);
  await sql`
    create function depot_builds_latest() returns trigger language plpgsql as $$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        perform depot_latest_build_refresh(old.repository_key, old.name);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform depot_latest_build_refresh(new.repository_key, new.name);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger builds_latest after insert or update or delete on builds
    for each row execute function depot_builds_latest()`.execute(db);

  await sql`
    insert into latest_builds
      (repository_key, name, id, node_id, project_key, number, started, started_at, path)
    select distinct on (repository_key, name)
           repository_key, name, id, node_id, project_key, number, started, started_at, path
    from builds order by repository_key, name, started_at desc, id desc`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists builds_latest on builds`.execute(db);
  await sql`drop function if exists depot_builds_latest()`.execute(db);
  await sql`drop function if exists depot_latest_build_refresh(text, text)`.execute(db);
  await sql`drop index if exists builds_by_repository_name`.execute(db);
  await sql`drop table if exists latest_builds`.execute(db);
}
