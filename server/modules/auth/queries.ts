import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import type { LockState } from './lock-policy.ts';

type Executor = Database | Transaction<DepotDatabase>;

const toState = (row: {
  failures: number;
  locks: number;
  locked_until: Date | null;
  last_failure_at: Date;
}): LockState => ({
  failures: row.failures,
  locks: row.locks,
  lockedUntil: row.locked_until,
  lastFailureAt: row.last_failure_at,
});

/** The lock state of an account at an address, if any failure was recorded. */
export async function findLockState(db: Executor, account: string, address: string) {
  const row = await db
    .selectFrom('sign_in_locks')
    .select(['failures', 'locks', 'locked_until', 'last_failure_at'])
    .where('account', '=', account)
    .where('address', '=', address)
    .executeTakeFirst();
  return row && toState(row);
}

/**
 * Applies `next` to the pair's state under a row lock, so that parallel failures each count:
 * a blank row is inserted first when there is none, for the lock to be taken on.
 */
export async function updateLockState(
  db: Database,
  account: string,
  address: string,
  next: (state: LockState | undefined) => LockState,
): Promise<LockState> {
  return db.transaction().execute(async (tx) => {
    await tx
      .insertInto('sign_in_locks')
      .values({ account, address, failures: 0, locks: 0, last_failure_at: new Date() })
      .onConflict((c) => c.columns(['account', 'address']).doNothing())
      .execute();
    const existing = await tx
      .selectFrom('sign_in_locks')
      .select(['failures', 'locks', 'locked_until', 'last_failure_at'])
      .where('account', '=', account)
      .where('address', '=', address)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const state = next(existing.failures === 0 ? undefined : toState(existing));
    await tx
      .updateTable('sign_in_locks')
      .set({
        failures: state.failures,
        locks: state.locks,
        locked_until: state.lockedUntil,
        last_failure_at: state.lastFailureAt,
      })
      .where('account', '=', account)
      .where('address', '=', address)
      .execute();
    return state;
  });
}

export async function deleteLockState(db: Executor, account: string, address: string) {
  await db
    .deleteFrom('sign_in_locks')
    .where('account', '=', account)
    .where('address', '=', address)
    .execute();
}

/** Lifts every lock of these accounts (lower-cased names), from every address. */
export async function deleteLocksOf(db: Executor, accounts: string[]): Promise<number> {
  if (accounts.length === 0) return 0;
  const result = await db
    .deleteFrom('sign_in_locks')
    .where('account', 'in', accounts)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Forgets states whose last failure is older than `before`. */
export async function deleteLockStatesBefore(db: Executor, before: Date) {
  await db.deleteFrom('sign_in_locks').where('last_failure_at', '<', before).execute();
}
