import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import type { ClaimedDelivery } from './claim-queries.ts';
import { priorityTransaction } from '../../db/priority-work.ts';

type Tx = Transaction<DepotDatabase>;

/** One attempt and what it leaves its delivery as. */
export interface AttemptRecord {
  claimed: ClaimedDelivery;
  outcome: 'delivered' | 'failed' | 'retry';
  status: number | null;
  durationMs: number;
  error: string | null;
  excerpt: string | null;
  attemptedAt: Date;
  /** When to try again, for a retry. */
  retryAt?: Date;
}

/** What sending claimed deliveries came to: written together, in one transaction. */
export interface SendingRecord {
  attempts: AttemptRecord[];
  /** Claimed but not sent (an earlier one of the run is to be retried first): let go. */
  released: ClaimedDelivery[];
  /** Not to be sent: their subscription is gone or disabled. */
  cancelled: { claimed: ClaimedDelivery; reason: string }[];
  /** Subscriptions to pause, and why. */
  paused: { key: string; reason: string }[];
}

const ids = (rows: ClaimedDelivery[]) => rows.map((row) => row.id);
const claims = (rows: ClaimedDelivery[]) => rows.map((row) => row.attempts);

/**
 * Each attempt, and what it leaves its delivery as: delivered or failed for good (finished),
 * or pending again at its retry time; all in one statement. Only while this node's claim
 * holds (`attempts` as claimed): a lease that ended meanwhile made the row another node's,
 * and then neither the row nor the attempt is written.
 */
async function recordAttempts(tx: Tx, attempts: AttemptRecord[]) {
  if (attempts.length === 0) return;
  const column = <T>(pick: (attempt: AttemptRecord) => T) => attempts.map(pick);
  await sql`
    with given as (
      select * from unnest(
        ${column((a) => a.claimed.id)}::bigint[], ${column((a) => a.claimed.attempts)}::int[],
        ${column((a) => a.outcome)}::text[], ${column((a) => a.status)}::int[],
        ${column((a) => a.durationMs)}::int[], ${column((a) => a.error)}::text[],
        ${column((a) => a.excerpt)}::text[], ${column((a) => a.attemptedAt.toISOString())}::timestamptz[],
        ${column((a) => a.retryAt?.toISOString() ?? null)}::timestamptz[])
        as g(id, attempts, outcome, status, duration_ms, error, excerpt, attempted_at, retry_at)),
    updated as (
      update webhook_deliveries d
      set state = case when g.outcome = 'retry' then 'pending' else g.outcome end,
        lease_until = null, last_status = g.status, last_error = g.error,
        next_attempt_at = coalesce(g.retry_at, d.next_attempt_at),
        first_failed_at = case when g.outcome = 'retry'
          then coalesce(d.first_failed_at, g.attempted_at) else d.first_failed_at end,
        finished_at = case when g.outcome = 'retry' then null else g.attempted_at end
      from given g
      where d.id = g.id and d.attempts = g.attempts and d.state = 'pending'
      returning d.id)
    insert into webhook_attempts
      (delivery, attempted_at, outcome, status, duration_ms, error, response_excerpt)
    select g.id, g.attempted_at, g.outcome, g.status, g.duration_ms, g.error, g.excerpt
    from given g join updated u on u.id = g.id
    order by g.id`.execute(tx);
}

/** Lets claimed rows go unsent: no lease, and the claim they never used not counted. */
async function releaseClaims(tx: Tx, rows: ClaimedDelivery[]) {
  if (rows.length === 0) return;
  await sql`
    update webhook_deliveries d
    set lease_until = null, attempts = d.attempts - 1
    from unnest(${ids(rows)}::bigint[], ${claims(rows)}::int[]) as g(id, attempts)
    where d.id = g.id and d.attempts = g.attempts and d.state = 'pending'`.execute(tx);
}

/** Ends deliveries unsent (their subscription is gone or disabled). */
async function cancelClaims(tx: Tx, cancelled: SendingRecord['cancelled']) {
  if (cancelled.length === 0) return;
  const rows = cancelled.map((entry) => entry.claimed);
  await sql`
    update webhook_deliveries d
    set state = 'cancelled', lease_until = null, last_error = g.reason, finished_at = now()
    from unnest(${ids(rows)}::bigint[], ${claims(rows)}::int[],
      ${cancelled.map((entry) => entry.reason)}::text[]) as g(id, attempts, reason)
    where d.id = g.id and d.attempts = g.attempts and d.state = 'pending'`.execute(tx);
}

/**
 * Writes what sending came to, for any number of subscriptions at once: a round's outcomes
 * cost one transaction of at most four statements, however many deliveries they cover.
 */
export async function recordSending(db: Database, record: SendingRecord) {
  await priorityTransaction(db, async (tx) => {
    await recordAttempts(tx, record.attempts);
    await releaseClaims(tx, record.released);
    await cancelClaims(tx, record.cancelled);
    for (const { key, reason } of record.paused)
      await tx
        .insertInto('webhook_pauses')
        .values({ subscription_key: key, reason })
        .onConflict((c) => c.column('subscription_key').doNothing())
        .execute();
  });
}
