import { sql, type Kysely } from 'kysely';

/**
 * Builds (docs/builds.md). A build is a build-info JSON file in a build-info repository
 * (`artifactory-build-info`, or a project's `<project>-build-info`); `builds` indexes it, one
 * row per file, and goes with the file (on delete cascade). `build_files` holds every module's
 * artifacts and dependencies by checksum, which is how a stored item finds the builds that
 * produced or used it. `build_promotions` is the release history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('builds')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('node_id', 'bigint', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
    .addColumn('repository_key', 'text', (c) => c.notNull())
    .addColumn('project_key', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull())
    // As the document gives it (clients echo it back in URLs), and as a time for ordering.
    .addColumn('started', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('document', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addUniqueConstraint('builds_identity', ['repository_key', 'name', 'number', 'started'])
    .execute();
  await sql`create index builds_by_name on builds (name, started_at desc)`.execute(db);
  await sql`create index builds_by_node on builds (node_id)`.execute(db);

  await db.schema
    .createTable('build_files')
    .addColumn('build_id', 'bigint', (c) => c.notNull().references('builds.id').onDelete('cascade'))
    .addColumn('module_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text')
    .addColumn('scopes', 'text')
    .addColumn('sha1', 'text')
    .addColumn('sha256', 'text')
    .addColumn('md5', 'text')
    .execute();
  await sql`create index build_files_by_build on build_files (build_id)`.execute(db);
  await sql`create index build_files_by_sha1 on build_files (sha1) where sha1 is not null`.execute(
    db,
  );
  await sql`create index build_files_by_sha256 on build_files (sha256) where sha256 is not null`.execute(
    db,
  );

  await db.schema
    .createTable('build_promotions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('build_id', 'bigint', (c) => c.notNull().references('builds.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('repository', 'text')
    .addColumn('ci_user', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index build_promotions_by_build on build_promotions (build_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('build_promotions').execute();
  await db.schema.dropTable('build_files').execute();
  await db.schema.dropTable('builds').execute();
}
