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

/**
 * Claims up to `limit` deliveries to send now, each the oldest pending one of its
 * subscription (so a subscription's events go out in order, one at a time), none of a paused
 * subscription and none another node holds: rows being claimed elsewhere are skipped
 * (`SKIP LOCKED`), and a claimed row carries a lease until `leaseMs` from now. A node that
 * dies mid-send leaves a lease that ends, and the row is sent again (at least once).
 */
export async function claimDeliveries(db: Database, limit: number, leaseMs: number) {
  const { rows } = await sql<ClaimedDelivery>`
    update webhook_deliveries d
    set lease_until = now() + ${leaseMs} * interval '1 millisecond', attempts = d.attempts + 1
    where d.id in (
      select h.id from webhook_deliveries h
      where h.state = 'pending'
        and h.next_attempt_at <= now()
        and (h.lease_until is null or h.lease_until < now())
        and not exists (
          select 1 from webhook_deliveries e
          where e.subscription_key = h.subscription_key and e.state = 'pending' and e.id < h.id)
        and not exists (
          select 1 from webhook_pauses p where p.subscription_key = h.subscription_key)
      order by h.id
      limit ${limit}
      for update skip locked)
    returning d.id, d.delivery_id, d.subscription_key, d.domain, d.event_type, d.payload,
      d.attempts, d.first_failed_at`.execute(db);
  return rows;
}

export interface ClaimedDelivery {
  id: string;
  delivery_id: string;
  subscription_key: string;
  domain: string;
  event_type: string;
  payload: Record<string, unknown>;
  attempts: number;
  first_failed_at: Date | null;
}

export interface AttemptRecord {
  outcome: 'delivered' | 'failed' | 'retry';
  status: number | null;
  durationMs: number;
  error: string | null;
  excerpt: string | null;
}

/**
 * Records an attempt and what it leaves the delivery as: delivered or failed for good
 * (finished), or pending again at `retryAt`. Only while this node's claim holds (`attempts`
 * as claimed): a lease that ended meanwhile made the row another node's.
 */
export async function recordAttempt(
  db: Database,
  claimed: ClaimedDelivery,
  attempt: AttemptRecord,
  retryAt?: Date,
) {
  await db.transaction().execute(async (tx) => {
    const updated = await tx
      .updateTable('webhook_deliveries')
      .set({
        state: attempt.outcome === 'retry' ? 'pending' : attempt.outcome,
        lease_until: null,
        last_status: attempt.status,
        last_error: attempt.error,
        ...(attempt.outcome === 'retry'
          ? { next_attempt_at: retryAt, first_failed_at: claimed.first_failed_at ?? new Date() }
          : { finished_at: new Date() }),
      })
      .where('id', '=', claimed.id)
      .where('attempts', '=', claimed.attempts)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return;
    await tx
      .insertInto('webhook_attempts')
      .values({
        delivery: claimed.id,
        outcome: attempt.outcome,
        status: attempt.status,
        duration_ms: attempt.durationMs,
        error: attempt.error,
        response_excerpt: attempt.excerpt,
      })
      .execute();
  });
}

/** Ends a delivery unsent (its subscription is gone or disabled). */
export async function cancelDelivery(db: Database, id: string, reason: string) {
  await db
    .updateTable('webhook_deliveries')
    .set({ state: 'cancelled', lease_until: null, last_error: reason, finished_at: new Date() })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .execute();
}

export async function pauseSubscription(db: Database, key: string, reason: string) {
  await db
    .insertInto('webhook_pauses')
    .values({ subscription_key: key, reason })
    .onConflict((c) => c.column('subscription_key').doNothing())
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
