import { describe, expect, it } from 'vitest';
import { TooManyRequests } from '../../errors.ts';
import { SignInThrottle } from './sign-in-throttle.ts';

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const waitOf = (throttle: SignInThrottle, address: string) => {
  try {
    throttle.check(address);
    return 0;
  } catch (error) {
    return (error as TooManyRequests).retryAfterSeconds;
  }
};

describe('sign-in throttle', () => {
  it('lets the free attempts through, then doubles the wait with each failure up to the cap', () => {
    const time = clock();
    const throttle = new SignInThrottle(
      { freeAttempts: 3, baseDelayMs: 1000, maxDelayMs: 8000 },
      time.now,
    );
    const waits = [];
    for (let i = 0; i < 8; i++) {
      throttle.failed('10.0.0.1', 'someone');
      waits.push(waitOf(throttle, '10.0.0.1'));
    }
    expect(waits).toEqual([0, 0, 0, 1, 2, 4, 8, 8]);
    expect(waitOf(throttle, '10.0.0.2')).toBe(0);
  });

  it('lets the address in again once the wait is over, and forgets it after a success', () => {
    const time = clock();
    const throttle = new SignInThrottle({ freeAttempts: 1 }, time.now);
    throttle.failed('a', 'someone');
    throttle.failed('a', 'someone');
    expect(waitOf(throttle, 'a')).toBe(1);
    time.advance(1000);
    expect(waitOf(throttle, 'a')).toBe(0);
    throttle.succeeded('a', 'someone');
    throttle.failed('a', 'someone');
    expect(waitOf(throttle, 'a')).toBe(0);
  });

  it('forgives after a success only the failures against the account that signed in', () => {
    const time = clock();
    const throttle = new SignInThrottle({ freeAttempts: 2 }, time.now);
    throttle.failed('a', 'victim');
    throttle.failed('a', 'victim');
    throttle.failed('a', 'Guesser');
    time.advance(1000);
    throttle.succeeded('a', 'guesser');
    expect(waitOf(throttle, 'a')).toBe(0);
    throttle.failed('a', 'victim');
    expect(waitOf(throttle, 'a')).toBe(1);
    throttle.succeeded('a', 'nobody');
    expect(waitOf(throttle, 'a')).toBe(1);
  });

  it('forgets quiet addresses, and never tracks more than it may', () => {
    const time = clock();
    const throttle = new SignInThrottle({ freeAttempts: 0, maxAddresses: 2 }, time.now);
    throttle.failed('a', 'someone');
    throttle.failed('b', 'someone');
    throttle.failed('c', 'someone');
    expect(waitOf(throttle, 'a')).toBe(0);
    expect(waitOf(throttle, 'c')).toBe(1);
    time.advance(16 * 60_000);
    expect(waitOf(throttle, 'c')).toBe(0);
  });
});
