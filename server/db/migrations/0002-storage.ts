import { sql, type Kysely } from 'kysely';

/** Repositories, content-addressed blobs, the tree of files and folders, and properties. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('repositories')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('rclass', 'text', (c) =>
      c.notNull().check(sql`rclass in ('local', 'remote', 'virtual')`),
    )
    .addColumn('package_type', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('includes_pattern', 'text', (c) => c.notNull().defaultTo('**/*'))
    .addColumn('excludes_pattern', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('repo_layout_ref', 'text', (c) => c.notNull().defaultTo('simple-default'))
    // What only some kinds have (url for remote, repositories for virtual, ...).
    .addColumn('config', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index repositories_key_lower on repositories (lower(key))`.execute(db);

  await db.schema
    .createTable('blobs')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('sha1', 'text', (c) => c.notNull())
    .addColumn('md5', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('blobs_sha1').on('blobs').column('sha1').execute();
  await db.schema.createIndex('blobs_md5').on('blobs').column('md5').execute();

  await db.schema
    .createTable('nodes')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('repository_id', 'integer', (c) =>
      c.notNull().references('repositories.id').onDelete('cascade'),
    )
    // Full path inside the repository without a leading slash; '' never names a node.
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('parent_path', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('folder', 'boolean', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.references('blobs.sha256'))
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('mime_type', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_by', 'text', (c) => c.notNull())
    .addUniqueConstraint('nodes_repository_path', ['repository_id', 'path'])
    .execute();
  // Children of a folder, in name order, page by page: never a scan of the repository.
  await db.schema
    .createIndex('nodes_children')
    .on('nodes')
    .columns(['repository_id', 'parent_path', 'name'])
    .execute();
  await db.schema.createIndex('nodes_sha256').on('nodes').column('sha256').execute();

  await db.schema
    .createTable('node_properties')
    .addColumn('node_id', 'bigint', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('node_properties_pk', ['node_id', 'key', 'value'])
    .execute();
  await db.schema
    .createIndex('node_properties_key_value')
    .on('node_properties')
    .columns(['key', 'value'])
    .execute();
}
