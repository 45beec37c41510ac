import { sql, type Kysely } from 'kysely';

/**
 * Projects (docs/projects.md): a project, its custom roles (the predefined ones live in code)
 * and its members, users or groups, each with roles. A repository's project and the projects
 * it is shared with are kept in the repository's own configuration (`projectKey`,
 * `sharedWithProjects`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('storage_quota_bytes', 'bigint')
    .addColumn('manage_members', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('manage_resources', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('index_resources', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index projects_display_name on projects (lower(display_name))`.execute(
    db,
  );

  await db.schema
    .createTable('project_roles')
    .addColumn('project_key', 'text', (c) =>
      c.notNull().references('projects.key').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('actions', 'jsonb', (c) => c.notNull())
    .addColumn('environments', 'jsonb', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_roles_pk', ['project_key', 'name'])
    .execute();

  await db.schema
    .createTable('project_members')
    .addColumn('project_key', 'text', (c) =>
      c.notNull().references('projects.key').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('roles', 'jsonb', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_members_pk', ['project_key', 'kind', 'name'])
    .execute();
  await db.schema
    .createIndex('project_members_by_name')
    .on('project_members')
    .columns(['kind', 'name'])
    .execute();
  // Other cluster nodes drop their cached access decisions when these change (migration 0008).
  for (const table of ['projects', 'project_roles', 'project_members']) {
    await sql`
      create trigger ${sql.id(`${table}_changed`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function depot_notify_table_change()`.execute(db);
  }
}
