import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

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
 * Claims, per subscription, its oldest pending deliveries in order (docs/webhooks.md,
 * "Delivery"), in one statement (one message to the embedded database's worker, no
 * transaction around it):
 *
 * - `queues`: a loose index scan over the history's index finds the subscriptions (one
 *   probe each, however long the history or the backlog); `starts` leaves out those this
 *   node is sending already and the paused ones (their queues are not read at all), and
 *   `pending` takes each other one's first `perSubscription` pending deliveries in id order,
 *   from its head (migration 0059: every delivery of it below the head is finished), so no
 *   index depends on `state` and a delivery's record stays a heap-only update.
 * - `advanced`: each head read moves up to the subscription's first pending delivery, or
 *   past its last one when none is pending, so the next claim starts there. Only forward,
 *   and not after a redelivery moved it back since this statement read it (`lowered`
 *   changed): that delivery is pending again below where this statement would move it.
 * - `runs`: per subscription, the run that may be sent now: its deliveries from the oldest,
 *   as far as they are due (none when the oldest waits for a retry), and none at all when a
 *   node holds any of them (its run is under way there; a redelivered one waits for that run
 *   to end). `chosen`: the `subscriptions` whose oldest delivery waited longest.
 * - `locked`: their rows, locked; rows another node is claiming are skipped (`SKIP LOCKED`),
 *   and `kept` keeps a run only as far as every row of it was locked from the start: another
 *   node's claim in between leaves this node nothing of that subscription rather than a
 *   later part of its queue.
 * - the update: the kept rows carry a lease until `leaseMs` from now, and their claim is
 *   counted; a node that dies mid-send leaves leases that end, and the rows are sent again
 *   (at least once).
 */
export async function claimRuns(db: Database, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const { rows } = await sql<ClaimedDelivery>`
    with recursive queues(k) as (
      (select subscription_key from webhook_deliveries order by subscription_key limit 1)
      union all
      select (select d.subscription_key from webhook_deliveries d
               where d.subscription_key > q.k order by d.subscription_key limit 1)
      from queues q where q.k is not null),
    starts as (
      select q.k, coalesce(qh.head_id, 0) as head_id, coalesce(qh.lowered, 0) as lowered
      from queues q left join webhook_queue_heads qh on qh.subscription_key = q.k
      where q.k is not null and q.k <> all(${[...options.busy]}::text[])
        and not exists (select 1 from webhook_pauses w where w.subscription_key = q.k)),
    pending as (
      select s.k, h.id, h.due, h.leased
      from starts s cross join lateral (
        select d.id, d.next_attempt_at <= now() as due,
          coalesce(d.lease_until >= now(), false) as leased
        from webhook_deliveries d
        where d.subscription_key = s.k and d.id >= s.head_id and d.state = 'pending'
        order by d.id limit ${options.perSubscription}) h),
    moved as (
      select s.k, s.lowered, s.head_id as old_head,
        coalesce(f.first_pending,
          (select max(d.id) + 1 from webhook_deliveries d
            where d.subscription_key = s.k and d.id >= s.head_id)) as head_id
      from starts s left join (select k, min(id) as first_pending from pending group by k) f
        on f.k = s.k),
    advanced as (
      insert into webhook_queue_heads as qh (subscription_key, head_id, lowered)
      select k, head_id, lowered from moved where head_id > old_head
      on conflict (subscription_key) do update set head_id = excluded.head_id
      where qh.head_id < excluded.head_id and qh.lowered = excluded.lowered),
    runs as (
      select id, k from (
        select id, k,
          bool_or(leased) over (partition by k) as held,
          bool_and(due) over (partition by k order by id) as due_so_far
        from pending) h
      where not held and due_so_far),
    chosen as (
      select r.id, r.k from runs r
      join (select k, min(id) as first from runs group by k
            order by first limit ${options.subscriptions}) s on s.k = r.k),
    locked as (
      select d.id from webhook_deliveries d
      where d.id in (select id from chosen) and d.state = 'pending'
        and d.next_attempt_at <= now() and (d.lease_until is null or d.lease_until < now())
      for update of d skip locked),
    kept as (
      select id from (
        select c.id,
          count(*) filter (where l.id is null) over (partition by c.k order by c.id) as gaps
        from chosen c left join locked l on l.id = c.id) g
      where gaps = 0)
    update webhook_deliveries d
    set lease_until = now() + ${options.leaseMs} * interval '1 millisecond',
      attempts = d.attempts + 1
    where d.id in (select id from kept)
    returning d.id, d.delivery_id, d.subscription_key, d.domain, d.event_type,
      d.payload::text as payload, d.attempts, d.first_failed_at`.execute(db);
  return rows
    .map((row) => ({ ...row, id: String(row.id) }))
    .sort((a, b) => Number(a.id) - Number(b.id));
}
