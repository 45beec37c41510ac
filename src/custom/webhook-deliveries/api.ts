import { call } from '../../api/client';

/** One attempt at sending a delivery, as `GET ui/webhooks/{key}/deliveries` answers it. */
export interface DeliveryTry {
  at: string;
  outcome: 'delivered' | 'failed' | 'retry';
  status: number | null;
  durationMs: number;
  error: string | null;
  /** The first 512 characters of the receiver's answer. */
  response: string | null;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface Delivery {
  /** The delivery id receivers deduplicate on (`X-Depot-Delivery`). */
  id: string;
  /** `<domain>.<event_type>` */
  event: string;
  state: DeliveryState;
  attempts: number;
  created: string;
  finished: string | null;
  nextAttempt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  tries: DeliveryTry[];
}

export interface DeliveryHistory {
  paused: { at: string; reason: string } | null;
  deliveries: Delivery[];
}

const base = (key: string) => `/ui/webhooks/${encodeURIComponent(key)}`;

/** The delivery history's calls (docs/webhooks.md, "Delivery history"). */
export const deliveriesApi = {
  history: (key: string) => call<DeliveryHistory>('GET', `${base(key)}/deliveries`),
  redeliver: ({ key, deliveryId }: { key: string; deliveryId: string }) =>
    call<{ info: string }>(
      'POST',
      `${base(key)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
    ),
  resume: (key: string) => call<{ info: string }>('POST', `${base(key)}/resume`),
};
