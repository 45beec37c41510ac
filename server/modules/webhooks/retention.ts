import type { Database } from '../../db/database.ts';
import {
  pruneFannedOutEvents,
  pruneFinishedDeliveries,
  pruneOldAttempts,
} from './retention-queries.ts';

/** What one run of the webhook history purge removed. */
export interface WebhookPurgeReport {
  info: string;
  deliveries: number;
  attempts: number;
  events: number;
}

/**
 * The webhook history purge (docs/webhooks.md, "Retention"): finished deliveries, attempts
 * and fanned-out outbox events older than the retention go; anything still to be sent stays,
 * whatever its age, so the purge never loses an event.
 */
export async function purgeWebhookHistory(
  db: Database,
  retentionMs: number,
  now = new Date(),
): Promise<WebhookPurgeReport> {
  const cutoff = new Date(now.getTime() - retentionMs);
  const deliveries = await pruneFinishedDeliveries(db, cutoff);
  const attempts = await pruneOldAttempts(db, cutoff);
  const events = await pruneFannedOutEvents(db, cutoff);
  return {
    info: `Removed ${deliveries} webhook deliveries, ${attempts} attempts and ${events} events`,
    deliveries,
    attempts,
    events,
  };
}
