import { sql, type Kysely } from 'kysely';

/**
 * A delivery's record (delivered, failed, retried) changes its `state`, and the pending
 * queue's index was partial on `state`: every record then wrote a new entry in each of the
 * table's indexes instead of staying on the row's page as a heap-only tuple. The queue is
 * found without it now (docs/webhooks.md, "Cost"): the history's index (`subscription_key`,
 * `id`) from each subscription's head, the id below which every delivery of it is finished.
 *
 * `webhook_queue_heads`: per subscription, `head_id` (its deliveries below it are finished;
 * a missing row means from the start) and `lowered`, counted up by each redelivery that
 * moves the head back, so a claim that read the head before the redelivery does not move it
 * forward past the delivery made pending again (claim-queries.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_queue_heads')
    .addColumn('subscription_key', 'text', (c) => c.primaryKey())
    .addColumn('head_id', 'bigint', (c) => c.notNull())
    .addColumn('lowered', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // Each subscription's head where its queue starts now, read once here rather than found
  // by the first claim walking every delivery the history keeps.
  await sql`insert into webhook_queue_heads (subscription_key, head_id)
    select subscription_key,
      coalesce(min(id) filter (where state = 'pending'), max(id) + 1)
    from webhook_deliveries group by subscription_key`.execute(db);
  await sql`drop index webhook_deliveries_queue`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index webhook_deliveries_queue on webhook_deliveries (subscription_key, id)
    where state = 'pending'`.execute(db);
  await db.schema.dropTable('webhook_queue_heads').execute();
}
