import type { SendResult } from './send-webhook.ts';

/** Delays between attempts and when a subscription that keeps failing is paused. */
export interface RetryPolicy {
  /** The first retry's delay; each later one doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A subscription failing without a success for this long is paused. */
  pauseAfterMs: number;
}

/**
 * What an attempt's result means: delivered (2xx), failed for good (a 4xx, or an address
 * or redirect the rules refuse: sending again would get the same), or worth a retry (5xx, a
 * timeout, a connection that failed).
 */
export function outcomeOf(result: SendResult): 'delivered' | 'failed' | 'retry' {
  if (result.kind === 'answered') {
    if (result.status >= 200 && result.status < 300) return 'delivered';
    return result.status >= 500 ? 'retry' : 'failed';
  }
  return result.kind === 'timeout' || result.kind === 'unreachable' ? 'retry' : 'failed';
}

/**
 * The delay before retry number `attempts` (1 for the first): exponential, capped, with
 * "equal jitter" (half fixed, half random), so that many deliveries failing together do not
 * come back together.
 */
export function retryDelayMs(policy: RetryPolicy, attempts: number, random = Math.random): number {
  const exponential = Math.min(
    policy.maxDelayMs,
    policy.baseDelayMs * 2 ** Math.min(30, Math.max(0, attempts - 1)),
  );
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/** The history's words for an attempt that got no answer. */
export const errorOf = (result: SendResult) =>
  result.kind === 'answered'
    ? result.status >= 300
      ? `HTTP ${result.status}`
      : null
    : result.error;
