import type { Kysely } from 'kysely';

/**
 * What remote repositories remember about their upstream: when a cached file was last checked
 * there and the validators it came with (for conditional revalidation of metadata), and until
 * when an upstream that failed to connect is assumed offline.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('remote_cache_entries')
    .addColumn('node_id', 'bigint', (c) =>
      c.primaryKey().references('nodes.id').onDelete('cascade'),
    )
    .addColumn('checked_at', 'timestamptz', (c) => c.notNull())
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    .execute();
  await db.schema
    .createTable('remote_upstream_state')
    .addColumn('repository_id', 'integer', (c) =>
      c.primaryKey().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('offline_until', 'timestamptz', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .execute();
}
