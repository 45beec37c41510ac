import { sql, type Kysely } from 'kysely';

/**
 * Permission targets (spec 01 §3): one row per target, each resource section (repo, build,
 * releaseBundle) a jsonb document in Artifactory's v2 shape, because a target is always read
 * and written whole and every request's access decision reads all of them (cached in memory).
 *
 * Until now every signed-in user could read everything. To keep that after the upgrade, as
 * Artifactory ships it: an auto-join group `readers` holding every existing non-admin user;
 * a target `Anything` granting `readers` (and the anonymous user, when anonymous access is
 * on) read on every repository; and `Any Remote` letting them cache from remote repositories
 * (Deploy/Cache), which fetching an artifact not cached yet needs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('permission_targets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('repo', 'jsonb')
    .addColumn('build', 'jsonb')
    .addColumn('release_bundle', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Who each target names, so that a request reads only the targets of its user and groups:
  // with 50,000 targets, reading them all took seconds after every change.
  await db.schema
    .createTable('permission_target_principals')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('users', 'groups')`))
    .addColumn('principal', 'text', (c) => c.notNull())
    .addColumn('target_name', 'text', (c) =>
      c.notNull().references('permission_targets.name').onDelete('cascade').onUpdate('cascade'),
    )
    .addPrimaryKeyConstraint('permission_target_principals_pk', [
      'kind',
      'principal',
      'target_name',
    ])
    .execute();
  await db.schema
    .createIndex('permission_target_principals_target')
    .on('permission_target_principals')
    .column('target_name')
    .execute();
  // Other cluster nodes drop their cached targets when this table changes (migration 0008).
  await sql`
    create trigger permission_targets_changed
    after insert or update or delete or truncate on permission_targets
    for each statement execute function depot_notify_table_change()`.execute(db);

  await sql`
    insert into groups (name, description, auto_join, admin_privileges, realm)
    values ('readers', 'A group for read-only users', true, false, 'internal')
    on conflict do nothing`.execute(db);
  await sql`
    insert into user_groups (user_id, group_id)
    select u.id, g.id from users u, groups g
    where g.name = 'readers' and not u.admin
    on conflict do nothing`.execute(db);
  const anything = {
    'include-patterns': ['**'],
    'exclude-patterns': [],
    repositories: ['ANY'],
    actions: { users: { anonymous: ['read'] }, groups: { readers: ['read'] } },
  };
  const anyRemote = {
    'include-patterns': ['**'],
    'exclude-patterns': [],
    repositories: ['ANY REMOTE'],
    actions: {
      users: { anonymous: ['read', 'annotate', 'write'] },
      groups: { readers: ['read', 'annotate', 'write'] },
    },
  };
  await sql`
    insert into permission_targets (name, repo)
    values ('Anything', ${JSON.stringify(anything)}::jsonb),
           ('Any Remote', ${JSON.stringify(anyRemote)}::jsonb)`.execute(db);
  await sql`
    insert into permission_target_principals (kind, principal, target_name)
    values ('users', 'anonymous', 'Anything'), ('groups', 'readers', 'Anything'),
           ('users', 'anonymous', 'Any Remote'), ('groups', 'readers', 'Any Remote')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('permission_target_principals').execute();
  await db.schema.dropTable('permission_targets').execute();
}
