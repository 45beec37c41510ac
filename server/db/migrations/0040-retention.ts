import { sql, type Kysely } from 'kysely';

/**
 * Retention (docs/retention.md). `retention_executions` is one run of a policy (archive or
 * delete), one restore, or one undo, with its state as the spec names them.
 * `retention_items` is the searchable record of every item a run took out of its repository:
 * where it was, its checksums, size and properties, and where its bytes sit in the cold store,
 * until it is restored (or, for a delete run, until the undo window passes and it is purged).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('retention_executions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('policy_key', 'text')
    .addColumn('action', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addColumn('started_by', 'text', (c) => c.notNull())
    .addColumn('items', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('freed_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('undone_at', 'timestamptz')
    .execute();
  await sql`create index retention_executions_by_time on retention_executions (kind, started_at)`.execute(
    db,
  );
  await sql`create index retention_executions_by_policy on retention_executions (policy_key, id desc)`.execute(
    db,
  );

  await db.schema
    .createTable('retention_items')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('execution_id', 'bigint', (c) =>
      c.notNull().references('retention_executions.id').onDelete('cascade'),
    )
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('repo_key', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('sha1', 'text', (c) => c.notNull())
    .addColumn('md5', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime_type', 'text')
    .addColumn('properties', 'jsonb', (c) => c.notNull())
    .addColumn('item_created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('item_created_by', 'text', (c) => c.notNull())
    .addColumn('archived_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('restored_at', 'timestamptz')
    // Set once no record needs the content and the cold store let it go.
    .addColumn('cold_released', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create index retention_items_by_execution on retention_items (execution_id)`.execute(
    db,
  );
  await sql`create index retention_items_by_sha256 on retention_items (sha256)`.execute(db);
  await sql`create index retention_items_present on retention_items (repo_key, path, name) where restored_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('retention_items').execute();
  await db.schema.dropTable('retention_executions').execute();
}
