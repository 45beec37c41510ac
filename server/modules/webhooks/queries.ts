import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';

type Tx = Transaction<DepotDatabase>;

/** The advisory lock one fan-out at a time holds: deliveries get ids in the events' order. */
const FAN_OUT_LOCK = 0x77656268; // 'wehb'

/** Takes the fan-out lock for this transaction, or answers false when another node has it. */
export async function tryFanOutLock(tx: Tx): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_xact_lock(${FAN_OUT_LOCK}) as locked`.execute(tx);
  return rows[0]?.locked === true;
}

/**
 * The oldest events not fanned out yet, held until the transaction ends: what filters look
 * at, without the payload's data (the fan-out's insert copies that inside the database).
 */
export function eventsToFanOut(tx: Tx, limit: number) {
  return tx
    .selectFrom('event_outbox')
    .select(['id', 'domain', 'event_type', 'repo_key', 'target_repo_key', 'path'])
    .where('fanned_out', '=', false)
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export type OutboxRow = Awaited<ReturnType<typeof eventsToFanOut>>[number];

/** One delivery to make: an event for a subscription. */
export interface NewDelivery {
  eventId: string;
  subscriptionKey: string;
}

/**
 * Marks `eventIds` fanned out and makes `deliveries`, in their order (a subscription's
 * deliveries are numbered in event order), in one statement however many subscriptions a
 * batch of events reaches. Each body is JFrog's documented payload (dispatcher.ts,
 * `payloadOf`), built by the database from the event's row: the event's data is neither read
 * into Depot nor written back once per subscription.
 */
export async function fanOutEvents(
  tx: Tx,
  eventIds: string[],
  deliveries: NewDelivery[],
  origin: string,
) {
  if (eventIds.length === 0) return;
  await sql`
    with marked as (
      update event_outbox set fanned_out = true where id = any(${eventIds}::bigint[]))
    insert into webhook_deliveries
      (delivery_id, subscription_key, event_id, domain, event_type, payload)
    select gen_random_uuid()::text, g.subscription_key, e.id, e.domain, e.event_type,
      jsonb_build_object('domain', e.domain, 'event_type', e.event_type, 'data', e.data,
        'subscription_key', g.subscription_key, 'jpd_origin', ${origin}::text,
        'source', 'jfrog/' || e.source)
    from unnest(${deliveries.map((d) => d.eventId)}::bigint[],
      ${deliveries.map((d) => d.subscriptionKey)}::text[])
      with ordinality as g(event_id, subscription_key, n)
    join event_outbox e on e.id = g.event_id
    order by g.n`.execute(tx);
}

/** Lifts a pause; the subscription's waiting deliveries go out now, their failing time reset. */
export async function resumeSubscription(db: Database, key: string) {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('webhook_pauses').where('subscription_key', '=', key).execute();
    await tx
      .updateTable('webhook_deliveries')
      .set({ first_failed_at: null, next_attempt_at: new Date() })
      .where('subscription_key', '=', key)
      .where('state', '=', 'pending')
      .execute();
  });
}

export function findPause(db: Database, key: string) {
  return db
    .selectFrom('webhook_pauses')
    .select(['paused_at', 'reason'])
    .where('subscription_key', '=', key)
    .executeTakeFirst();
}

/** A subscription's deliveries, newest first, each with its attempts (oldest first). */
export async function deliveryHistory(db: Database, key: string, limit: number) {
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select([
      'id',
      'delivery_id',
      'domain',
      'event_type',
      'state',
      'attempts',
      'next_attempt_at',
      'last_status',
      'last_error',
      'created_at',
      'finished_at',
    ])
    .where('subscription_key', '=', key)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const ids = deliveries.map((delivery) => delivery.id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .select([
            'delivery',
            'attempted_at',
            'outcome',
            'status',
            'duration_ms',
            'error',
            'response_excerpt',
          ])
          .where('delivery', 'in', ids)
          .orderBy('id')
          .execute();
  return { deliveries, attempts };
}

/**
 * Sends a finished delivery again, under its own delivery id: pending now, ahead of the
 * subscription's later ones. Answers whether it was found.
 */
export async function requeueDelivery(db: Database, key: string, deliveryId: string) {
  const updated = await db
    .updateTable('webhook_deliveries')
    .set({
      state: 'pending',
      next_attempt_at: new Date(),
      first_failed_at: null,
      finished_at: null,
    })
    .where('subscription_key', '=', key)
    .where('delivery_id', '=', deliveryId)
    .where('state', '!=', 'pending')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

export async function deliveryExists(db: Database, key: string, deliveryId: string) {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('subscription_key', '=', key)
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The class of each repository named (`local`, `remote`, `virtual`), by lower-cased key. */
export async function repositoryClasses(db: Database, keys: string[]) {
  if (keys.length === 0) return new Map<string, string>();
  const rows = await db
    .selectFrom('repositories')
    .select(['key', 'rclass'])
    .where(
      sql`lower(key)`,
      'in',
      keys.map((key) => key.toLowerCase()),
    )
    .execute();
  return new Map(rows.map((row) => [row.key.toLowerCase(), row.rclass]));
}
