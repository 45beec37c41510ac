import type { ClaimedDelivery } from './claim-queries.ts';
import { errorOf, outcomeOf, retryDelayMs, type RetryPolicy } from './delivery-outcome.ts';
import type { OutboundProxy } from '../proxies/service.ts';
import type { AttemptRecord, SendingRecord } from './record-queries.ts';
import { sendWebhook } from './send-webhook.ts';
import { deliveryHeaders } from './signature.ts';
import type { Subscription } from './subscription.ts';
import { at, trace, tracing } from './trace.ts';

export interface RunContext {
  /** The subscription as it stands now (cached; undefined once deleted). */
  subscription: (key: string) => Promise<Subscription | undefined>;
  allowList: () => Promise<string[]>;
  proxyOf: (key: string) => Promise<OutboundProxy | undefined>;
  policy: RetryPolicy & { timeoutMs: number };
  /** No new attempt starts after this time (the run's lease must outlast its last attempt). */
  startBefore: number;
  /** The dispatcher is stopping: the attempt under way ends the run. */
  stopping: () => boolean;
}

const emptyRecord = (): SendingRecord => ({
  attempts: [],
  released: [],
  cancelled: [],
  paused: [],
});

/** One attempt to send a delivery to its subscription's URL. */
async function attempt(
  claimed: ClaimedDelivery,
  subscription: Subscription,
  allowList: string[],
  proxy: () => Promise<OutboundProxy | undefined>,
  context: RunContext,
): Promise<AttemptRecord> {
  const body = claimed.payload;
  const attemptedAt = new Date();
  const s0 = tracing ? at() : 0;
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
    allowList,
    timeoutMs: context.policy.timeoutMs,
    proxy,
  });
  if (tracing) trace({ k: 's', id: claimed.delivery_id, t0: s0, t1: at() });
  const outcome = outcomeOf(result);
  return {
    claimed,
    outcome,
    status: result.kind === 'answered' ? result.status : null,
    durationMs: result.durationMs,
    error: errorOf(result),
    excerpt: result.kind === 'answered' ? result.excerpt : null,
    attemptedAt,
    ...(outcome === 'retry'
      ? { retryAt: new Date(Date.now() + retryDelayMs(context.policy, claimed.attempts)) }
      : {}),
  };
}

/** The pause a retry brings when the subscription has failed without a success for too long. */
function pauseAfter(record: AttemptRecord, key: string, pauseAfterMs: number) {
  const failingSince = record.claimed.first_failed_at ?? record.attemptedAt;
  if (Date.now() - failingSince.getTime() < pauseAfterMs) return [];
  return [
    { key, reason: `Paused after failing since ${failingSince.toISOString()}: ${record.error}` },
  ];
}

/**
 * Sends one subscription's claimed run (its oldest pending deliveries, in order), one after
 * another (docs/webhooks.md, "Delivery"). A delivery that is to be retried ends the run:
 * the ones after it are let go unsent and wait for it, so the order holds. One that failed
 * for good (a 4xx) does not: it is finished, and the next may go. The run also ends when
 * the subscription changes under it (the next claim sees the new one), when the dispatcher
 * stops, or when its time is up; a deleted or disabled subscription's run is cancelled.
 */
export async function sendRun(
  run: ClaimedDelivery[],
  subscription: Subscription | undefined,
  context: RunContext,
): Promise<SendingRecord> {
  const record = emptyRecord();
  if (!subscription || !subscription.enabled) {
    const reason = subscription ? 'The subscription was disabled' : 'The subscription was deleted';
    record.cancelled = run.map((claimed) => ({ claimed, reason }));
    return record;
  }
  const allowList = await context.allowList();
  let proxy: Promise<OutboundProxy | undefined> | undefined;
  const proxyOnce = () => (proxy ??= context.proxyOf(subscription.proxy));
  for (const [index, claimed] of run.entries()) {
    const goOn =
      index === 0 ||
      (!context.stopping() &&
        Date.now() < context.startBefore &&
        (await context.subscription(subscription.key)) === subscription);
    if (!goOn) {
      record.released = run.slice(index);
      break;
    }
    const sent = await attempt(claimed, subscription, allowList, proxyOnce, context);
    record.attempts.push(sent);
    if (sent.outcome === 'retry') {
      record.paused = pauseAfter(sent, subscription.key, context.policy.pauseAfterMs);
      record.released = run.slice(index + 1);
      break;
    }
  }
  return record;
}
