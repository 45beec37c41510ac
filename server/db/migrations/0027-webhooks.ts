import { sql, type Kysely } from 'kysely';

/**
 * Webhooks (docs/webhooks.md).
 * - `event_outbox`: one row per event, written in the transaction of the change it reports,
 *   so an event exists exactly when its change committed. `fanned_out` turns true once the
 *   dispatcher made the deliveries of its matching subscriptions.
 * - `webhook_deliveries`: one row per (event, subscription), the body frozen as it is sent;
 *   a subscription's pending rows are sent in `id` order, one at a time. `lease_until` is a
 *   node's claim on a row while it sends it; a node gone mid-send leaves a lease that ends.
 * - `webhook_attempts`: each try of a delivery, for the history.
 * - `webhook_pauses`: subscriptions paused after failing for too long, and why.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('repo_key', 'text')
    .addColumn('target_repo_key', 'text')
    .addColumn('path', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('fanned_out', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create index event_outbox_waiting on event_outbox (id) where not fanned_out`.execute(
    db,
  );
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().unique())
    .addColumn('subscription_key', 'text', (c) => c.notNull())
    .addColumn('event_id', 'bigint', (c) => c.references('event_outbox.id').onDelete('set null'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('lease_until', 'timestamptz')
    .addColumn('first_failed_at', 'timestamptz')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`create index webhook_deliveries_queue on webhook_deliveries (subscription_key, id)
    where state = 'pending'`.execute(db);
  await db.schema
    .createIndex('webhook_deliveries_history')
    .on('webhook_deliveries')
    .columns(['subscription_key', 'id'])
    .execute();
  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('delivery', 'bigint', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_by_delivery')
    .on('webhook_attempts')
    .columns(['delivery', 'id'])
    .execute();
  await db.schema
    .createTable('webhook_pauses')
    .addColumn('subscription_key', 'text', (c) => c.primaryKey())
    .addColumn('paused_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_pauses').execute();
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('event_outbox').execute();
}
