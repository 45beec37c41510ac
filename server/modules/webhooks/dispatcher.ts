import type { Database } from '../../db/database.ts';
import type { Logger } from 'pino';
import { claimRuns, type ClaimedDelivery } from './claim-queries.ts';
import type { RetryPolicy } from './delivery-outcome.ts';
import { subscriptionWants, eventRepositories } from './matching.ts';
import {
  eventsToFanOut,
  fanOutEvents,
  repositoryClasses,
  tryFanOutLock,
  type NewDelivery,
} from './queries.ts';
import type { OutboundProxy } from '../proxies/service.ts';
import { createRecordBatcher } from './record-batcher.ts';
import { recordSending } from './record-queries.ts';
import { sendRun } from './send-run.ts';
import type { Subscription } from './subscription.ts';
import { sql } from 'kysely';
import { at, trace, tracing } from './trace.ts';
import { priorityTransaction } from '../../db/priority-work.ts';

export interface DispatcherSettings extends RetryPolicy {
  /** How often the outbox is looked at when nothing woke the dispatcher (ms). */
  pollMs: number;
  /** One attempt's limit, connection to the end of the answer's first bytes (ms). */
  timeoutMs: number;
}

export interface DispatcherOptions {
  db: Database;
  /** Every subscription, secrets opened (a cached list: the same objects until one changes). */
  subscriptions: () => Promise<Subscription[]>;
  allowList: () => Promise<string[]>;
  /** The proxy a subscription names (its "Use Proxy"); undefined for none. */
  proxyOf: (key: string) => Promise<OutboundProxy | undefined>;
  settings: DispatcherSettings;
  /** The payloads' `jpd_origin`, the address Depot is reached at: read once per fan-out. */
  origin: () => Promise<string>;
  logger: Logger;
}

/** Events fanned out per transaction. */
const FAN_OUT_BATCH = 200;
/**
 * Per node: subscriptions sent to at once (each its own run, so a slow receiver holds up
 * only its own subscription), and deliveries a run claims at most, sent one after another.
 */
const RUNS_AT_ONCE = 32;
const RUN_LENGTH = 100;
/** A run starts no attempt after this long: its lease covers this and one attempt more. */
const RUN_WINDOW_MS = 5000;

/**
 * The body a receiver gets for an event: JFrog's documented webhook payload (the fan-out
 * builds the same in SQL, queries.ts `fanOutEvents`).
 */
export function payloadOf(
  event: { domain: string; event_type: string; data: unknown; source: string },
  subscriptionKey: string,
  origin: string,
) {
  return {
    domain: event.domain,
    event_type: event.event_type,
    data: event.data,
    subscription_key: subscriptionKey,
    jpd_origin: origin,
    // Receivers written for JFrog read `jfrog/<user>`; the shape is kept so they work unchanged.
    source: `jfrog/${event.source}`,
  };
}

/**
 * Delivers the outbox's events (docs/webhooks.md, "Delivery"): turns each event into one
 * delivery per subscription that wants it (one node at a time, in event order), then sends
 * each subscription's queue in order: a run of its oldest pending deliveries, one after
 * another, up to RUNS_AT_ONCE subscriptions at once, each independent of the others;
 * retrying with backoff, pausing a subscription that keeps failing. Any number of nodes may
 * run one on the same database: a subscription's run is claimed by one of them at a time.
 */
export function createDispatcher(options: DispatcherOptions) {
  const { db, settings, logger } = options;
  // A run's last attempt starts within its window and ends within two timeouts (a redirect
  // followed) and some slack: the lease outlasts it, so no other node sends the run meanwhile.
  const leaseMs = RUN_WINDOW_MS + settings.timeoutMs * 2 + 5000;
  const recorder = createRecordBatcher((record) => recordSending(db, record));
  /** Runs under way, by subscription key. */
  const running = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  /** When the timer set fires (performance.now()). */
  let timerDueAt = Infinity;
  let round: Promise<boolean> | undefined;
  let stopped = true;
  let wokenDuringRound = false;
  /**
   * Outbox writes this node saw, and how many of them the last look at the outbox that found
   * nothing had seen: a round whose only news is a run that ended skips the outbox. Other
   * nodes' events are looked for at every poll.
   */
  let outboxWrites = 0;
  let fannedDeliveries = 0;
  let finishedDeliveries = 0;
  let outboxReadAt = -1;

  /** By key, made once per list the cache answers (every attempt of a run looks). */
  const indexes = new WeakMap<Subscription[], Map<string, Subscription>>();
  async function subscriptionsByKey() {
    const subscriptions = await options.subscriptions();
    let index = indexes.get(subscriptions);
    if (!index) {
      index = new Map(subscriptions.map((subscription) => [subscription.key, subscription]));
      indexes.set(subscriptions, index);
    }
    return index;
  }

  async function fanOut(subscriptions: Subscription[]): Promise<number> {
    const origin = await options.origin();
    const t0 = at();
    let traced: { ids: string[]; n: number } | undefined;
    const count = await priorityTransaction(db, async (tx) => {
      if (!(await tryFanOutLock(tx))) return 0;
      const events = await eventsToFanOut(tx, FAN_OUT_BATCH);
      if (events.length === 0) return 0;
      const classes = await repositoryClasses(tx, [...new Set(events.flatMap(eventRepositories))]);
      const classOf = (key: string) => classes.get(key.toLowerCase());
      const deliveries: NewDelivery[] = events.flatMap((event) =>
        subscriptions
          .filter((subscription) => subscriptionWants(subscription, event, classOf))
          .map((subscription) => ({ eventId: event.id, subscriptionKey: subscription.key })),
      );
      await fanOutEvents(
        tx,
        events.map((event) => event.id),
        deliveries,
        origin,
      );
      traced = { ids: events.map((event) => event.id), n: deliveries.length };
      return events.length;
    });
    if (traced) {
      fannedDeliveries += traced.n;
      trace({ k: 'fan', t: at(), ms: at() - t0, ids: traced.ids, n: traced.n });
    }
    return count;
  }

  /** Sends a subscription's run, then records it; the subscription is free again after. */
  async function runOf(key: string, run: ClaimedDelivery[], subscription?: Subscription) {
    try {
      const record = await sendRun(run, subscription, {
        subscription: async (wanted) => (await subscriptionsByKey()).get(wanted),
        allowList: options.allowList,
        proxyOf: options.proxyOf,
        policy: settings,
        startBefore: Date.now() + RUN_WINDOW_MS,
        stopping: () => stopped,
      });
      const w0 = at();
      await recorder.add(record);
      if (tracing) {
        finishedDeliveries += record.attempts.filter((a) => a.outcome !== 'retry').length;
        trace({
          k: 'w',
          t: at(),
          wait: at() - w0,
          ids: record.attempts.map((a) => a.claimed.delivery_id),
        });
      }
      for (const { key: paused, reason } of record.paused)
        logger.warn({ webhook: paused, reason }, 'webhook paused');
    } catch (error) {
      // The claims stay leased until their lease ends; then the run is sent again.
      logger.warn({ err: error, webhook: key }, 'webhook delivery run failed; trying again');
    } finally {
      running.delete(key);
      if (!stopped) soon();
    }
  }

  /** Claims the runs of subscriptions this node is not sending to yet, and starts them. */
  async function startRuns(byKey: Map<string, Subscription>): Promise<number> {
    if (running.size >= RUNS_AT_ONCE) return 0;
    const c0 = at();
    const claimed = await claimRuns(db, {
      perSubscription: RUN_LENGTH,
      subscriptions: RUNS_AT_ONCE - running.size,
      busy: new Set(running.keys()),
      leaseMs,
    });
    if (tracing) {
      const t = at();
      trace({ k: 'claim', t, ms: t - c0, n: claimed.length, busy: running.size });
      for (const row of claimed)
        trace({ k: 'c', t, id: row.delivery_id, ev: String(row.event_id) });
    }
    const runs = new Map<string, ClaimedDelivery[]>();
    for (const row of claimed)
      runs.set(row.subscription_key, [...(runs.get(row.subscription_key) ?? []), row]);
    for (const [key, run] of runs) running.set(key, runOf(key, run, byKey.get(key)));
    return claimed.length;
  }

  /** One round: fan out what is new, start sending what is due. Answers whether there was work. */
  async function runOnce(): Promise<boolean> {
    const byKey = await subscriptionsByKey();
    let fanned = 0;
    if (outboxReadAt !== outboxWrites) {
      const seen = outboxWrites;
      fanned = await fanOut([...byKey.values()]);
      if (fanned === 0) outboxReadAt = seen;
    }
    const started = stopped ? 0 : await startRuns(byKey);
    return fanned > 0 || started > 0;
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    const dueAt = performance.now() + delayMs;
    // A round set to start sooner stays set: were each wake to put it off again, a steady
    // stream of writes (a deploy every few ms) would start no round until the stream paused.
    if (timer !== undefined && dueAt >= timerDueAt) return;
    clearTimeout(timer);
    // An idle poll looks at the outbox whatever this node saw: other nodes write to it too.
    if (delayMs >= settings.pollMs) outboxReadAt = -1;
    timerDueAt = dueAt;
    const scheduledAt = tracing ? at() : 0;
    timer = setTimeout(() => {
      timer = undefined;
      timerDueAt = Infinity;
      if (tracing) trace({ k: 'round', t: at(), delay: delayMs, waited: at() - scheduledAt });
      wokenDuringRound = false;
      round ??= runOnce()
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'webhook delivery round failed; trying again');
          return false;
        })
        .then((busy) => {
          round = undefined;
          schedule(busy ? 0 : wokenDuringRound ? 25 : settings.pollMs);
          return busy;
        });
    }, delayMs);
  }

  /** A run ended (or something was written): a round soon, after others that end with it. */
  function soon() {
    if (round) wokenDuringRound = true;
    else schedule(25);
  }

  /** Something was written to the outbox: look soon (it may not have committed yet). */
  function wake() {
    outboxWrites++;
    soon();
  }

  return {
    runOnce,
    start() {
      if (tracing)
        setInterval(() => {
          void sql<{ n: number }>`select count(*)::int as n from event_outbox where not fanned_out`
            .execute(db)
            .then(({ rows }) =>
              trace({
                k: 'q',
                t: at(),
                outbox: rows[0]?.n,
                pending: fannedDeliveries - finishedDeliveries,
                running: running.size,
              }),
            );
        }, 250).unref();
      stopped = false;
      schedule(0);
    },
    wake,
    /** Stops looking; runs under way end after their current attempt and are recorded. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await round;
      await Promise.all(running.values());
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
