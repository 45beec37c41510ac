import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import type { Logger } from 'pino';
import { errorOf, outcomeOf, retryDelayMs, type RetryPolicy } from './delivery-outcome.ts';
import { subscriptionWants, eventRepositories } from './matching.ts';
import {
  cancelDelivery,
  claimDeliveries,
  eventsToFanOut,
  insertDeliveries,
  markFannedOut,
  pauseSubscription,
  recordAttempt,
  repositoryClasses,
  tryFanOutLock,
  type ClaimedDelivery,
  type NewDelivery,
  type OutboxRow,
} from './queries.ts';
import type { OutboundProxy } from '../proxies/service.ts';
import { sendWebhook } from './send-webhook.ts';
import { deliveryHeaders } from './signature.ts';
import type { Subscription } from './subscription.ts';

export interface DispatcherSettings extends RetryPolicy {
  /** How often the outbox is looked at when nothing woke the dispatcher (ms). */
  pollMs: number;
  /** One attempt's limit, connection to the end of the answer's first bytes (ms). */
  timeoutMs: number;
}

export interface DispatcherOptions {
  db: Database;
  /** Every subscription, secrets opened. */
  subscriptions: () => Promise<Subscription[]>;
  allowList: () => Promise<string[]>;
  /** The proxy a subscription names (its "Use Proxy"); undefined for none. */
  proxyOf: (key: string) => Promise<OutboundProxy | undefined>;
  settings: DispatcherSettings;
  /** The payloads' `jpd_origin`, the address Depot is reached at: read once per fan-out. */
  origin: () => Promise<string>;
  logger: Logger;
}

/** Events fanned out per transaction, and deliveries sent at once (each another subscription's). */
const FAN_OUT_BATCH = 200;
const CONCURRENT_SENDS = 8;

/** The body a receiver gets for an event: JFrog's documented webhook payload. */
export function payloadOf(
  event: Pick<OutboxRow, 'domain' | 'event_type' | 'data' | 'source'>,
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
 * each subscription's oldest pending delivery, retrying with backoff, pausing a subscription
 * that keeps failing. Any number of nodes may run one on the same database: a delivery is
 * claimed by one of them at a time.
 */
export function createDispatcher(options: DispatcherOptions) {
  const { db, settings, logger } = options;
  const leaseMs = settings.timeoutMs * 2 + 5000;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> | undefined;
  let stopped = true;
  let wokenDuringRound = false;

  async function fanOut(subscriptions: Subscription[]): Promise<number> {
    const origin = await options.origin();
    return db.transaction().execute(async (tx) => {
      if (!(await tryFanOutLock(tx))) return 0;
      const events = await eventsToFanOut(tx, FAN_OUT_BATCH);
      if (events.length === 0) return 0;
      const classes = await repositoryClasses(tx, [...new Set(events.flatMap(eventRepositories))]);
      const classOf = (key: string) => classes.get(key.toLowerCase());
      const deliveries: NewDelivery[] = events.flatMap((event) =>
        subscriptions
          .filter((subscription) => subscriptionWants(subscription, event, classOf))
          .map((subscription) => ({
            deliveryId: randomUUID(),
            subscriptionKey: subscription.key,
            eventId: event.id,
            domain: event.domain,
            eventType: event.event_type,
            payload: payloadOf(event, subscription.key, origin),
          })),
      );
      await insertDeliveries(tx, deliveries);
      await markFannedOut(
        tx,
        events.map((event) => event.id),
      );
      return events.length;
    });
  }

  async function deliver(claimed: ClaimedDelivery, subscription: Subscription | undefined) {
    if (!subscription) return cancelDelivery(db, claimed.id, 'The subscription was deleted');
    if (!subscription.enabled)
      return cancelDelivery(db, claimed.id, 'The subscription was disabled');
    const body = JSON.stringify(claimed.payload);
    const result = await sendWebhook(subscription.url, {
      body,
      headers: deliveryHeaders({
        body,
        secret: subscription.secret,
        useSecretForSigning: subscription.useSecretForSigning,
        customHeaders: subscription.customHeaders,
        deliveryId: claimed.delivery_id,
        event: `${claimed.domain}.${claimed.event_type}`,
      }),
      allowList: await options.allowList(),
      timeoutMs: settings.timeoutMs,
      proxy: () => options.proxyOf(subscription.proxy),
    });
    const outcome = outcomeOf(result);
    const attempt = {
      outcome,
      status: result.kind === 'answered' ? result.status : null,
      durationMs: result.durationMs,
      error: errorOf(result),
      excerpt: result.kind === 'answered' ? result.excerpt : null,
    };
    if (outcome !== 'retry') return recordAttempt(db, claimed, attempt);
    const retryAt = new Date(Date.now() + retryDelayMs(settings, claimed.attempts));
    await recordAttempt(db, claimed, attempt, retryAt);
    const failingSince = claimed.first_failed_at ?? new Date();
    if (Date.now() - failingSince.getTime() >= settings.pauseAfterMs) {
      const reason = `Paused after failing since ${failingSince.toISOString()}: ${attempt.error}`;
      await pauseSubscription(db, subscription.key, reason);
      logger.warn({ webhook: subscription.key, reason }, 'webhook paused');
    }
  }

  async function sendDue(subscriptions: Subscription[]): Promise<number> {
    const claimed = await claimDeliveries(db, CONCURRENT_SENDS, leaseMs);
    const byKey = new Map(subscriptions.map((subscription) => [subscription.key, subscription]));
    await Promise.all(claimed.map((row) => deliver(row, byKey.get(row.subscription_key))));
    return claimed.length;
  }

  /** One round: fan out what is new, send what is due. Answers whether there was work. */
  async function runOnce(): Promise<boolean> {
    const subscriptions = await options.subscriptions();
    const fanned = await fanOut(subscriptions);
    const sent = await sendDue(subscriptions);
    return fanned > 0 || sent > 0;
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      wokenDuringRound = false;
      round ??= runOnce()
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'webhook delivery round failed; trying again');
          return false;
        })
        .then((busy) => {
          round = undefined;
          schedule(busy ? 0 : wokenDuringRound ? 25 : settings.pollMs);
        });
    }, delayMs);
  }

  return {
    runOnce,
    start() {
      stopped = false;
      schedule(0);
    },
    /** Something was written to the outbox: look soon (it may not have committed yet). */
    wake() {
      if (round) wokenDuringRound = true;
      else schedule(25);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
