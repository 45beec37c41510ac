import { sql } from 'kysely';
import type { Database } from '../db/database.ts';

/** The first half of every job lock's key, so Depot's locks never meet another program's. */
export const LOCK_NAMESPACE = 0x44505431; // "DPT1"

/** A stable 31-bit key for a job name (FNV-1a). */
export function jobLockKey(name: string): number {
  let hash = 0x811c9dc5;
  for (const char of name) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash & 0x7fffffff;
}

export type LockedRun<T> = { acquired: true; value: T } | { acquired: false };

/**
 * Runs `work` while holding a PostgreSQL advisory lock named after the job, so that of
 * several Depot processes sharing one database only one runs a job at a time; the others
 * are told the lock is taken. A session lock belongs to a connection: on a PostgreSQL pool
 * the lock and unlock go through one pinned connection (the work itself uses others). The
 * embedded database is one connection that only one process can open, so it runs both on
 * `db` and pinning it would starve the work.
 */
export function createJobLock(db: Database, options: { pinConnection: boolean }) {
  return async function withJobLock<T>(
    name: string,
    work: () => Promise<T>,
  ): Promise<LockedRun<T>> {
    const key = jobLockKey(name);
    const locked = async (executor: Database): Promise<LockedRun<T>> => {
      const { rows } = await sql<{ locked: boolean }>`
        select pg_try_advisory_lock(${LOCK_NAMESPACE}::int, ${key}::int) as locked`.execute(
        executor,
      );
      if (!rows[0]?.locked) return { acquired: false };
      try {
        return { acquired: true, value: await work() };
      } finally {
        await sql`select pg_advisory_unlock(${LOCK_NAMESPACE}::int, ${key}::int)`.execute(executor);
      }
    };
    return options.pinConnection ? db.connection().execute(locked) : locked(db);
  };
}

export type JobLock = ReturnType<typeof createJobLock>;
