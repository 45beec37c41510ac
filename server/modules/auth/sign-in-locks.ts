import { createReadCache } from '../../cache/read-cache.ts';
import type { Database } from '../../db/database.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import type { SecurityConfigService } from '../security-config/service.ts';
import { afterFailure, FORGET_AFTER_MS, lockedFor, type LockState } from './lock-policy.ts';
import * as q from './queries.ts';

/** User names are at most 64 characters: a longer one is kept cut, still never a user's. */
const accountOf = (name: string) => name.toLowerCase().slice(0, 128);
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Temporary sign-in locks per account and client address (docs/security.md, "Lockout"), kept
 * in the database so that every node of a cluster and the admin's Unlock see them. Names no
 * user has are locked exactly as users' names are, so a lock tells nothing of who exists.
 * Every password check reads the pair's state, through a cache any write to the table clears.
 */
export function createSignInLocks(deps: {
  db: Database;
  securityConfig: SecurityConfigService;
  changes?: TableChanges;
}) {
  const { db, securityConfig } = deps;
  const states = createReadCache<string, LockState | undefined>({
    ttlMs: 5000,
    maxEntries: 10_000,
  });
  deps.changes?.onChange(['sign_in_locks'], states.clear);
  let prunedAt = 0;

  const stateOf = (account: string, address: string) =>
    states.get(`${account}\n${address}`, () => q.findLockState(db, account, address));

  /** Forgets, now and then, states no failure has renewed for a day. */
  async function prune(now: number) {
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now;
    await q.deleteLockStatesBefore(db, new Date(now - FORGET_AFTER_MS));
  }

  return {
    /**
     * Whether sign-ins as `name` from `address` are refused for now. Turning the policy off
     * stops new locks; one already set ends by itself or by an admin's Unlock.
     */
    async isLocked(name: string, address: string): Promise<boolean> {
      return lockedFor(await stateOf(accountOf(name), address), Date.now()) > 0;
    },

    /** Counts a failed password or code; true when this failure locks the pair. */
    async failed(name: string, address: string): Promise<boolean> {
      const { enabled, loginAttempts } = (await securityConfig.get()).userLockPolicy;
      if (!enabled) return false;
      const now = Date.now();
      const state = await q.updateLockState(db, accountOf(name), address, (before) =>
        afterFailure(before, now, loginAttempts),
      );
      await prune(now);
      return lockedFor(state, now) > 0;
    },

    /** A right password or code: the pair starts afresh (other addresses keep theirs). */
    async succeeded(name: string, address: string): Promise<void> {
      const account = accountOf(name);
      if (await stateOf(account, address)) await q.deleteLockState(db, account, address);
    },

    /** Lifts every lock of these users, from every address: the admin's Unlock. */
    async unlock(names: string[]): Promise<number> {
      return q.deleteLocksOf(db, [...new Set(names.map(accountOf))]);
    },
  };
}

export type SignInLocks = ReturnType<typeof createSignInLocks>;
