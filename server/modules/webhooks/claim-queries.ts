import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { priorityTransaction } from '../../db/priority-work.ts';

/** A delivery claimed for sending: this node holds its lease until it records the attempt. */
export interface ClaimedDelivery {
  id: string;
  delivery_id: string;
  subscription_key: string;
  domain: string;
  event_type: string;
  /**
   * The body as stored, sent as it is: read as text, it is neither parsed into objects by
   * the database driver nor serialised again for each attempt.
   */
  payload: string;
  /** As claimed, this claim counted: the token that proves the claim is still this node's. */
  attempts: number;
  first_failed_at: Date | null;
  event_id?: string;
}

interface QueuedRow {
  id: string | number;
  subscription_key: string;
  /** Its time has come (a retry waits for its time). */
  due: boolean;
  /** A node holds it: its run is under way there. */
  leased: boolean;
}

export interface ClaimOptions {
  /** Deliveries claimed at most per subscription, its oldest pending ones in order. */
  perSubscription: number;
  /** Subscriptions claimed at most. */
  subscriptions: number;
  /** Subscriptions this node is sending already: their queues are left alone. */
  busy: ReadonlySet<string>;
  leaseMs: number;
}

/**
 * The first `perSubscription` pending deliveries of each subscription that has any and is
 * not paused, in id order: a loose index scan over the pending queue's index finds the
 * subscriptions (one probe each, however long the history or the backlog), and one short
 * index range per subscription its oldest rows.
 */
function queueHeads(db: Database, perSubscription: number) {
  return sql<QueuedRow>`
    with recursive queues(k) as (
      (select subscription_key from webhook_deliveries where state = 'pending'
        order by subscription_key limit 1)
      union all
      select (select d.subscription_key from webhook_deliveries d
               where d.state = 'pending' and d.subscription_key > q.k
               order by d.subscription_key limit 1)
      from queues q where q.k is not null)
    select h.id, q.k as subscription_key, h.due, h.leased
    from queues q cross join lateral (
      select d.id, d.next_attempt_at <= now() as due,
        coalesce(d.lease_until >= now(), false) as leased
      from webhook_deliveries d
      where d.subscription_key = q.k and d.state = 'pending'
      order by d.id limit ${perSubscription}) h
    where q.k is not null
      and not exists (select 1 from webhook_pauses p where p.subscription_key = q.k)
    order by q.k, h.id`.execute(db);
}

/**
 * Per subscription, the run of deliveries from its oldest pending one that may be sent now,
 * as far as they are due: none when the oldest waits for a retry, or when a node holds any
 * of them (its run is under way there; a redelivered one waits for that run to end).
 * Subscriptions whose oldest delivery waited longest come first.
 */
function runsToClaim(rows: QueuedRow[], options: ClaimOptions): string[][] {
  const runs = new Map<string, string[]>();
  const ended = new Set<string>();
  const held = new Set(rows.filter((row) => row.leased).map((row) => row.subscription_key));
  for (const row of rows) {
    const key = row.subscription_key;
    if (options.busy.has(key) || held.has(key) || ended.has(key)) continue;
    if (!row.due) {
      ended.add(key);
      continue;
    }
    const run = runs.get(key) ?? [];
    run.push(String(row.id));
    runs.set(key, run);
  }
  return [...runs.values()]
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .slice(0, options.subscriptions);
}

/**
 * Claims, per subscription, its oldest pending deliveries in order (docs/webhooks.md,
 * "Delivery"): each run starts at the subscription's oldest pending delivery, so a
 * subscription's events go out in order, and one node at a time holds a subscription's run.
 * Rows another node is claiming are skipped (`SKIP LOCKED`), and a run is kept only as far
 * as this node locked every row of it from the start: another node's claim in between
 * leaves this node nothing of that subscription rather than a later part of its queue.
 * Claimed rows carry a lease until `leaseMs` from now; a node that dies mid-send leaves
 * leases that end, and the rows are sent again (at least once).
 */
export async function claimRuns(db: Database, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  return priorityTransaction(db, async (tx) => {
    const { rows } = await queueHeads(tx, options.perSubscription);
    const runs = runsToClaim(rows, options);
    if (runs.length === 0) return [];
    const { rows: locked } = await sql<{ id: string | number }>`
      select id from webhook_deliveries
      where id = any(${runs.flat()}::bigint[]) and state = 'pending' and next_attempt_at <= now()
        and (lease_until is null or lease_until < now())
      for update skip locked`.execute(tx);
    const mine = new Set(locked.map((row) => String(row.id)));
    const claimable = runs.flatMap((run) => {
      const end = run.findIndex((id) => !mine.has(id));
      return end === -1 ? run : run.slice(0, end);
    });
    if (claimable.length === 0) return [];
    const { rows: claimed } = await sql<ClaimedDelivery>`
      update webhook_deliveries
      set lease_until = now() + ${options.leaseMs} * interval '1 millisecond',
        attempts = attempts + 1
      where id = any(${claimable}::bigint[])
      returning id, event_id, delivery_id, subscription_key, domain, event_type, payload::text as payload, attempts,
        first_failed_at`.execute(tx);
    return claimed
      .map((row) => ({ ...row, id: String(row.id) }))
      .sort((a, b) => Number(a.id) - Number(b.id));
  });
}
