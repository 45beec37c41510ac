import { createReadCache } from '../../cache/read-cache.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Database } from '../../db/database.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import type { CollectionStore } from '../entities/collection-store.ts';
import { deepMerge, documentDefaults, type EntityDocument } from '../entities/documents.ts';
import { listDocuments } from '../entities/queries.ts';
import { openSecrets } from '../entities/secrets.ts';
import { payloadOf } from './dispatcher.ts';
import { WEBHOOK_MESSAGES as M } from './messages.ts';
import {
  deliveryExists,
  deliveryHistory,
  findPause,
  requeueDelivery,
  resumeSubscription,
} from './queries.ts';
import type { OutboundProxy } from '../proxies/service.ts';
import { sendWebhook } from './send-webhook.ts';
import { deliveryHeaders } from './signature.ts';
import type { Subscription } from './subscription.ts';
import { randomUUID } from 'node:crypto';

/** The entity id the schema engine keeps subscriptions under. */
export const WEBHOOK_ENTITY = 'webhook';

/** Deliveries the history shows at most. */
const HISTORY_LIMIT = 200;
/**
 * How long the dispatcher's list of subscriptions lives at most. A write clears it at once
 * (on every node: migration 0047 announces the documents' writes); this bounds staleness
 * only while those announcements are out of reach.
 */
const SUBSCRIPTIONS_CACHE_MS = 5000;

/** The `data` of a test event, per domain: what a real one carries, with sample values. */
const SAMPLE_DATA: Record<string, Record<string, unknown>> = {
  artifact: {
    repo_key: 'sample_repo',
    path: 'sample_dir/sample.txt',
    name: 'sample.txt',
    sha256: 'sample_checksum',
    size: 0,
  },
  artifact_property: {
    repo_key: 'sample_repo',
    path: 'sample_dir/sample.txt',
    name: 'sample.txt',
    sha256: 'sample_checksum',
    size: 0,
    property_key: 'sample_key',
    property_values: ['sample_value'],
  },
  build: {
    build_name: 'sample_build_name',
    event_type: 'uploaded',
    build_number: '1',
    build_started: '2020-06-18T14:40:49.869+0300',
  },
  docker: {
    repo_key: 'sample_repo',
    path: 'sample_image/sample_tag/manifest.json',
    name: 'manifest.json',
    sha256: 'sample_checksum',
    size: 0,
    image_name: 'sample_image',
    tag: 'sample_tag',
    platforms: [{ architecture: 'amd64', os: 'linux' }],
  },
};

export interface WebhooksServiceOptions {
  db: Database;
  box: SecretBox;
  store: () => CollectionStore;
  allowList: () => Promise<string[]>;
  /** The proxy a subscription names (its "Use Proxy"); undefined for none. */
  proxyOf: (key: string) => Promise<OutboundProxy | undefined>;
  timeoutMs: number;
  /** The payloads' `jpd_origin`, read when a payload is made: the base URL can change. */
  origin: () => Promise<string>;
  /** Announces writes to the documents (other nodes' too), which clear the cached list. */
  changes?: TableChanges;
}

/**
 * Webhooks beyond keeping subscriptions (the engine does that): reading them with their
 * secrets for delivery, the test call, the delivery history, redelivery and resuming.
 */
export function createWebhooksService(options: WebhooksServiceOptions) {
  const { db, box } = options;
  const opened = (stored: EntityDocument) => {
    const defaults = documentDefaults(options.store().entity);
    return openSecrets(['secret'], deepMerge(defaults, stored), box) as unknown as Subscription;
  };

  const cache = createReadCache<'all', Subscription[]>({
    ttlMs: SUBSCRIPTIONS_CACHE_MS,
    maxEntries: 1,
  });
  /**
   * `<domain>.<event type>` of every enabled subscription, as last read; undefined from a
   * write to the documents until the next read, which the dispatcher's next round makes
   * (at most a poll later): meanwhile every event is wanted.
   */
  let wanted: Set<string> | undefined;
  /** The list `wanted` was made from. */
  let wantedFrom: Subscription[] | undefined;
  let reads = 0;
  options.changes?.onChange(['entity_documents'], () => {
    cache.clear();
    wanted = undefined;
    wantedFrom = undefined;
    reads++;
  });
  const wantedOf = (subscriptions: Subscription[]) =>
    new Set(
      subscriptions
        .filter((subscription) => subscription.enabled)
        .flatMap((subscription) =>
          subscription.eventTypes.map((eventType) => `${subscription.domain}.${eventType}`),
        ),
    );
  async function readSubscriptions() {
    const { rows } = await listDocuments(db, WEBHOOK_ENTITY, {
      offset: 0,
      descending: false,
      equals: {},
    });
    return rows.map((row) => opened(row.document));
  }

  async function requireSubscription(key: string) {
    if (!(await options.store().exists(key)))
      throw new NotFound(`Webhook '${key}' could not be found.`);
  }

  return {
    /**
     * Every subscription, secrets opened: the dispatcher reads them each round and before
     * each attempt, so they are cached, the same objects until a subscription changes.
     */
    async subscriptions(): Promise<Subscription[]> {
      if (!options.changes) return readSubscriptions();
      const readsBefore = reads;
      const subscriptions = await cache.get('all', readSubscriptions);
      // A write since the read began may have changed them: the next read says. The set is
      // made once per list read (the dispatcher asks before every attempt).
      if (readsBefore === reads && wantedFrom !== subscriptions) {
        wanted = wantedOf(subscriptions);
        wantedFrom = subscriptions;
      }
      return subscriptions;
    },

    /**
     * Whether an enabled subscription may want events of this type (docs/webhooks.md,
     * "Events"): when none does, a change writes no event for it. True until the
     * subscriptions are read, and from any change to them until they are read again.
     */
    wantsEvent(domain: string, eventType: string): boolean {
      return wanted === undefined || wanted.has(`${domain}.${eventType}`);
    },

    /**
     * Sends a dummy event of the subscription's domain to its URL once, as a delivery would
     * be sent. An empty secret uses the stored one (a form being edited keeps it), only to the
     * stored URL.
     */
    async test(document: Subscription, user: string): Promise<string> {
      let secret = document.secret;
      if (!secret && (await options.store().exists(document.key))) {
        const stored = opened(await options.store().stored(document.key));
        // The stored secret is sent only where it was saved to go.
        if (stored.secret && stored.url !== document.url)
          throw new BadRequest(M.secretForNewUrl, 'secret');
        secret = stored.secret;
      }
      const eventType = document.eventTypes[0] ?? 'deployed';
      const event = {
        domain: document.domain,
        event_type: eventType,
        data: SAMPLE_DATA[document.domain] ?? {},
        source: user,
      };
      const body = JSON.stringify(payloadOf(event, document.key, await options.origin()));
      const result = await sendWebhook(document.url, {
        body,
        headers: deliveryHeaders({
          body,
          secret,
          useSecretForSigning: document.useSecretForSigning,
          customHeaders: document.customHeaders,
          deliveryId: randomUUID(),
          event: `${document.domain}.${eventType}`,
        }),
        allowList: await options.allowList(),
        timeoutMs: options.timeoutMs,
        proxy: () => options.proxyOf(document.proxy ?? ''),
      });
      if (result.kind === 'answered' && result.status >= 200 && result.status < 300)
        return M.testSucceeded;
      const why = result.kind === 'answered' ? `the URL answered ${result.status}` : result.error;
      throw new BadRequest(`${M.testFailed}: ${why}`, 'url');
    },

    /** A subscription's deliveries, newest first, with their attempts; and its pause. */
    async history(key: string) {
      await requireSubscription(key);
      const { deliveries, attempts } = await deliveryHistory(db, key, HISTORY_LIMIT);
      const pause = await findPause(db, key);
      return {
        paused: pause ? { at: pause.paused_at, reason: pause.reason } : null,
        deliveries: deliveries.map((delivery) => ({
          id: delivery.delivery_id,
          event: `${delivery.domain}.${delivery.event_type}`,
          state: delivery.state,
          attempts: delivery.attempts,
          created: delivery.created_at,
          finished: delivery.finished_at,
          nextAttempt: delivery.state === 'pending' ? delivery.next_attempt_at : null,
          lastStatus: delivery.last_status,
          lastError: delivery.last_error,
          tries: attempts
            .filter((attempt) => attempt.delivery === delivery.id)
            .map((attempt) => ({
              at: attempt.attempted_at,
              outcome: attempt.outcome,
              status: attempt.status,
              durationMs: attempt.duration_ms,
              error: attempt.error,
              response: attempt.response_excerpt,
            })),
        })),
      };
    },

    /** Sends a finished delivery again (same delivery id); resumes a paused subscription. */
    async redeliver(key: string, deliveryId: string): Promise<string> {
      await requireSubscription(key);
      if (!(await deliveryExists(db, key, deliveryId)))
        throw new NotFound(M.deliveryNotFound(deliveryId));
      if (!(await requeueDelivery(db, key, deliveryId)))
        throw new Conflict(M.stillPending(deliveryId));
      await resumeSubscription(db, key);
      return M.redelivered(deliveryId);
    },

    /** Lifts a pause: the waiting deliveries go out now. */
    resume: (key: string) => resumeSubscription(db, key),
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
