import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/** The advisory lock a backup holds shared and each garbage-collection step tries exclusively. */
const LOCK_NAMESPACE = 0x44505431; // "DPT1", as the job locks
const BLOB_HOLD_KEY = 0x626b7570; // "bkup"

/**
 * Keeps blobs on disk while a backup copies them: a backup reads its metadata from one
 * snapshot and copies the blobs that snapshot names afterwards, so nothing may delete a blob
 * in between. Garbage collection and retention runs are what delete blobs (docs/backup.md,
 * "Consistency"); they ask `collectionAllowed` before each blob and leave it while a hold is on.
 * In this process a counter says so (the embedded database has one process); across the
 * processes sharing a PostgreSQL database, the backup holds an advisory lock shared and the
 * collector's transaction must take it exclusively.
 */
export function createBlobHold() {
  let holders = 0;
  return {
    /** Runs `work` with blob deletion held off in this process. */
    async during<T>(work: () => Promise<T>): Promise<T> {
      holders += 1;
      try {
        return await work();
      } finally {
        holders -= 1;
      }
    },

    /** Holds deletion off for other processes too, on the given (pinned) connection. */
    async lockShared(connection: Database): Promise<() => Promise<void>> {
      await sql`select pg_advisory_lock_shared(${LOCK_NAMESPACE}::int, ${BLOB_HOLD_KEY}::int)`.execute(
        connection,
      );
      return async () => {
        await sql`select pg_advisory_unlock_shared(${LOCK_NAMESPACE}::int, ${BLOB_HOLD_KEY}::int)`.execute(
          connection,
        );
      };
    },

    /**
     * Whether a collector's transaction may delete a blob now: no hold here, and (it takes the
     * lock until its transaction ends) none in another process.
     */
    async collectionAllowed(tx: Database): Promise<boolean> {
      if (holders > 0) return false;
      const { rows } = await sql<{ free: boolean }>`
        select pg_try_advisory_xact_lock(${LOCK_NAMESPACE}::int, ${BLOB_HOLD_KEY}::int) as free`.execute(
        tx,
      );
      return Boolean(rows[0]?.free);
    },
  };
}

export type BlobHold = ReturnType<typeof createBlobHold>;
