import { describe, expect, it } from 'vitest';
import {
  afterFailure,
  FIRST_LOCK_MS,
  FORGET_AFTER_MS,
  LONGEST_LOCK_MS,
  lockedFor,
  type LockState,
} from './lock-policy.ts';

describe('lock policy', () => {
  it('locks at the policy’s attempt, then doubles each lock up to an hour', () => {
    let now = 1_000_000;
    let state: LockState | undefined;
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      state = afterFailure(state, now, 3);
      waits.push(lockedFor(state, now));
    }
    expect(waits).toEqual([0, 0, FIRST_LOCK_MS]);
    const locks: number[] = [];
    for (let i = 0; i < 8; i++) {
      now += lockedFor(state, now); // the lock runs out, and the next failure locks again
      state = afterFailure(state, now, 3);
      locks.push(lockedFor(state, now) / 60_000);
    }
    expect(locks).toEqual([2, 4, 8, 16, 32, 60, 60, 60]);
    expect(LONGEST_LOCK_MS).toBe(60 * 60_000);
  });

  it('ends a lock by itself, and forgets a pair after a quiet day', () => {
    let state: LockState | undefined;
    for (let i = 0; i < 5; i++) state = afterFailure(state, 0, 5);
    expect(lockedFor(state, FIRST_LOCK_MS - 1)).toBe(1);
    expect(lockedFor(state, FIRST_LOCK_MS)).toBe(0);
    const later = FORGET_AFTER_MS + 1;
    expect(afterFailure(state, later, 5)).toMatchObject({
      failures: 1,
      locks: 0,
      lockedUntil: null,
    });
  });
});
