import { sql, type Kysely } from 'kysely';

/**
 * Issue 28, item 4. A support bundle holds the logs and diagnostic report of every live node
 * of a cluster: the node making it asks each other node for its part with a row here, and the
 * node asked answers by writing its files under the shared filestore's `_support/<bundle>/`
 * and marking the row ready. Writes notify every node (migration 0008's trigger function), so
 * a node hears of a request, and the maker of an answer, at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('support_bundle_parts')
    .addColumn('bundle_id', 'text', (c) =>
      c.notNull().references('support_bundles.id').onDelete('cascade'),
    )
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('log_from', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('entries', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('error', 'text')
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('support_bundle_parts_pk', ['bundle_id', 'node_id'])
    .execute();
  await sql`
    create trigger support_bundle_parts_changed
    after insert or update or delete or truncate on support_bundle_parts
    for each statement execute function depot_notify_table_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('support_bundle_parts').execute();
}
