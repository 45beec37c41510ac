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

/** The oldest events not fanned out yet, held until the transaction ends. */
export function eventsToFanOut(tx: Tx, limit: number) {
  return tx
    .selectFrom('event_outbox')
    .selectAll()
    .where('fanned_out', '=', false)
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export type OutboxRow = Awaited<ReturnType<typeof eventsToFanOut>>[number];

export async function markFannedOut(tx: Tx, ids: string[]) {
  if (ids.length === 0) return;
  await tx.updateTable('event_outbox').set({ fanned_out: true }).where('id', 'in', ids).execute();
}

export interface NewDelivery {
  deliveryId: string;
  subscriptionKey: string;
  eventId: string | null;
  domain: string;
  eventType: string;
  payload: Record<string, unknown>;
}

export async function insertDeliveries(tx: Tx | Database, deliveries: NewDelivery[]) {
  if (deliveries.length === 0) return;
  await tx
    .insertInto('webhook_deliveries')
    .values(
      deliveries.map((delivery) => ({
        delivery_id: delivery.deliveryId,
        subscription_key: delivery.subscriptionKey,
        event_id: delivery.eventId,
        domain: delivery.domain,
        event_type: delivery.eventType,
        payload: JSON.stringify(delivery.payload),
      })),
    )
    .execute();
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
