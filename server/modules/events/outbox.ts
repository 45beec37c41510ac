import type { Kysely, Transaction } from 'kysely';
import type { DepotDatabase } from '../../db/tables.ts';
import type { EventDomain } from './domains.ts';

type Tx = Transaction<DepotDatabase>;

/** One event, as a change reports it (docs/webhooks.md, "Emitting events"). */
export interface OutboxEvent {
  domain: EventDomain;
  eventType: string;
  /** The payload's `data`, in the documented shape of its domain and type. */
  data: Record<string, unknown>;
  /** Who made the change (a user's name, or `system`). */
  user: string;
  /** What subscriptions filter on: the repository, the item's path in it, and for a */
  /** move or copy the repository it went to. */
  repoKey?: string;
  path?: string;
  targetRepoKey?: string;
}

/** Rows one insert carries at most: a folder of many files emits one event per file. */
const ROWS_PER_INSERT = 500;

type Interest = (domain: string, eventType: string) => boolean;

/**
 * Per database (its Kysely instance and the transactions it opens share one adapter): which
 * events any subscriber may want. Several Depots may live in one process (tests).
 */
const interests = new WeakMap<object, Interest>();

/**
 * Tells `emitEvents` on `db` which events any subscriber may want (the webhooks service's
 * `wantsEvent`): the others are not written, so a change nobody subscribed to costs no
 * outbox row and no fan-out. Without it, every event is written.
 */
export function setEventInterest(db: Kysely<DepotDatabase>, interest: Interest) {
  interests.set(db.getExecutor().adapter, interest);
}

/**
 * Writes events into the outbox, inside the transaction of the change they report: they
 * exist exactly when the change commits, and the dispatcher delivers them afterwards (at
 * least once, in order per subscription). This one call is all a feature adds to emit.
 * Events of a type no enabled subscription selects are left out (`setEventInterest`).
 */
export async function emitEvents(tx: Tx, emitted: OutboxEvent[]): Promise<void> {
  const events = wantedEvents(tx, emitted);
  for (let start = 0; start < events.length; start += ROWS_PER_INSERT) {
    await tx
      .insertInto('event_outbox')
      .values(events.slice(start, start + ROWS_PER_INSERT).map(outboxRow))
      .execute();
  }
}

/**
 * The events some subscriber may want (`setEventInterest`), for a statement that writes its
 * outbox rows itself, as part of the change (a deploy's one statement, deploy-statement.ts).
 */
export function wantedEvents(executor: Kysely<DepotDatabase>, emitted: OutboxEvent[]) {
  const wanted = interests.get(executor.getExecutor().adapter);
  return wanted ? emitted.filter((event) => wanted(event.domain, event.eventType)) : emitted;
}

/** An event's outbox row. */
export const outboxRow = (event: OutboxEvent) => ({
  domain: event.domain,
  event_type: event.eventType,
  repo_key: event.repoKey ?? null,
  target_repo_key: event.targetRepoKey ?? null,
  path: event.path ?? null,
  data: JSON.stringify(event.data),
  source: event.user,
});
