import type { Delivery } from './api';

/** The delivery history's words (the spec names the columns only: docs/webhooks.md). */
export const DELIVERY_LABELS = {
  title: 'Delivery History',
  refresh: 'Refresh',
  empty: 'No event has been sent to this webhook yet.',
  loading: 'Loading…',
  time: 'Time',
  event: 'Event',
  status: 'Status',
  responseCode: 'Response Code',
  responseTime: 'Response Time',
  response: 'Response',
  attempts: 'Attempts',
  redeliver: 'Redeliver',
  redeliverRow: (event: string, time: string) => `Redeliver ${event} of ${time}`,
  resume: 'Resume',
  paused: 'Paused',
  pausedSince: (time: string) => `Deliveries are paused since ${time}.`,
  resumed: 'Deliveries resumed',
  milliseconds: (ms: number) => `${ms} ms`,
};

const STATES: Record<Delivery['state'], string> = {
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
  pending: 'Waiting',
};

/** A delivery's status in words: a pending one that was tried is being retried. */
export function deliveryStatus(delivery: Delivery): string {
  if (delivery.state === 'pending' && delivery.attempts > 0) {
    const next = delivery.nextAttempt ? new Date(delivery.nextAttempt).toLocaleTimeString() : '';
    return next ? `Retrying at ${next}` : 'Retrying';
  }
  return STATES[delivery.state];
}
