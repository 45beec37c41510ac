import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely, Transaction } from 'kysely';

const priority = new AsyncLocalStorage<true>();

/**
 * Runs `work` in the priority lane: a transaction it begins on the embedded database, when it
 * has to wait for the session, begins before the transactions that were waiting already
 * (pglite-dialect.ts), up to a few turns in a row, so that it never starves them. Meant for
 * short transactions whose delay holds up other work, such as the webhook dispatcher's
 * (docs/webhooks.md, "Cost"). On PostgreSQL, where every caller has a connection of its
 * own, it changes nothing.
 */
export function asPriorityWork<T>(work: () => Promise<T>): Promise<T> {
  return priority.run(true, work);
}

/** Whether the transaction about to begin belongs to priority work. */
export const isPriorityWork = (): boolean => priority.getStore() === true;

/** `db.transaction().execute(work)`, taken in the priority lane (asPriorityWork). */
export function priorityTransaction<DB, T>(
  db: Kysely<DB>,
  work: (tx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  return asPriorityWork(() => db.transaction().execute(work));
}
