/**
 * The temporary lock of an account at one client address (docs/security.md, "Lockout"):
 * after `loginAttempts` failures in a row the pair is locked for a minute; every failure
 * after a lock has ended locks it again for twice as long, up to an hour. A day without a
 * failure forgets it all. Pure, so the growth is tested without waiting.
 */
export const FIRST_LOCK_MS = 60_000;
export const LONGEST_LOCK_MS = 3_600_000;
export const FORGET_AFTER_MS = 24 * 3_600_000;

export interface LockState {
  failures: number;
  /** Locks in a row so far: the next lasts FIRST_LOCK_MS * 2^locks, at most LONGEST_LOCK_MS. */
  locks: number;
  lockedUntil: Date | null;
  lastFailureAt: Date;
}

/** A state too old to count is no state. */
export function current(state: LockState | undefined, now: number): LockState | undefined {
  return state && now - state.lastFailureAt.getTime() <= FORGET_AFTER_MS ? state : undefined;
}

/** How long the pair stays locked from `now`, in ms; 0 when it is not locked. */
export function lockedFor(state: LockState | undefined, now: number): number {
  const until = current(state, now)?.lockedUntil?.getTime() ?? 0;
  return Math.max(0, until - now);
}

/** The state after one more failure at `now`, with the policy's attempts before a lock. */
export function afterFailure(
  state: LockState | undefined,
  now: number,
  loginAttempts: number,
): LockState {
  const before = current(state, now) ?? {
    failures: 0,
    locks: 0,
    lockedUntil: null,
    lastFailureAt: new Date(now),
  };
  const failures = before.failures + 1;
  if (failures < loginAttempts) return { ...before, failures, lastFailureAt: new Date(now) };
  const lockMs = Math.min(FIRST_LOCK_MS * 2 ** before.locks, LONGEST_LOCK_MS);
  return {
    failures,
    locks: before.locks + 1,
    lockedUntil: new Date(now + lockMs),
    lastFailureAt: new Date(now),
  };
}
