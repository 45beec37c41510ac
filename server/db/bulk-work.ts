import { AsyncLocalStorage } from 'node:async_hooks';

const bulk = new AsyncLocalStorage<true>();

/**
 * Runs `work` as bulk work: its statements (a search's batches of rows, say) may each take a
 * while, and there may be many. The embedded database sends them one at a time, so that
 * other requests' statements never queue behind several of them (pglite-dialect.ts); on
 * PostgreSQL, where every request has a connection of its own, it changes nothing.
 */
export function asBulkWork<T>(work: () => Promise<T>): Promise<T> {
  return bulk.run(true, work);
}

/** Whether the statement about to be sent belongs to bulk work. */
export const isBulkWork = (): boolean => bulk.getStore() === true;
