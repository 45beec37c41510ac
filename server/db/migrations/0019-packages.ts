import { sql, type Kysely } from 'kysely';

/**
 * The package index (docs/package-formats.md): one row per package of a repository and one
 * per version, written in the same transaction as the file the version was indexed from.
 * A version row goes with its file (on delete cascade), so deleting, moving to the trash or
 * unpublishing a file never leaves a version behind that points at nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('packages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('repository_id', 'integer', (c) =>
      c.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('package_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // npm's dist-tags; other formats may keep their named pointers here too.
    .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('packages_repository_name', ['repository_id', 'name'])
    .execute();
  await sql`create index packages_by_name on packages (package_type, lower(name))`.execute(db);

  await db.schema
    .createTable('package_versions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('package_id', 'integer', (c) =>
      c.notNull().references('packages.id').onDelete('cascade'),
    )
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('node_id', 'bigint', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
    // The format's own document of the version (npm: the version's package.json as
    // published), JSON text kept verbatim so a packument is joined, never re-serialized.
    .addColumn('manifest', 'text', (c) => c.notNull())
    // npm's abbreviated form of the same document (the install-v1 packument).
    .addColumn('abbreviated', 'text')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('readme', 'text')
    .addColumn('readme_filename', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addUniqueConstraint('package_versions_package_version', ['package_id', 'version'])
    .execute();
  await db.schema
    .createIndex('package_versions_node')
    .on('package_versions')
    .column('node_id')
    .execute();

  // Other cluster nodes drop their cached packuments when these change (migration 0008).
  for (const table of ['packages', 'package_versions']) {
    await sql`
      create trigger ${sql.id(`${table}_changed`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function depot_notify_table_change()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('package_versions').ifExists().execute();
  await db.schema.dropTable('packages').ifExists().execute();
}
