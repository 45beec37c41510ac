import { afterEach, describe, expect, it, vi } from 'vitest';
import { TableChanges } from '../db/table-changes.ts';
import { KnownCallers } from './known-callers.ts';
import type { Principal } from './permissions.ts';

const kim: Principal = { userId: 7, name: 'kim', admin: false, anonymous: false, via: 'basic' };
const KIM_HEADER = `Basic ${Buffer.from('kim:kim-pass-1').toString('base64')}`;

afterEach(() => vi.useRealTimers());

describe('known callers', () => {
  it('recalls a proved header for a few seconds, and nothing it was not given', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const callers = new KnownCallers(new TableChanges());
    callers.remember(KIM_HEADER, kim);
    expect(callers.recall(KIM_HEADER)).toBe(kim);
    expect(callers.recall(`${KIM_HEADER}x`)).toBeUndefined();
    expect(callers.recall(`Basic ${Buffer.from('kim:other').toString('base64')}`)).toBeUndefined();
    vi.advanceTimersByTime(4999);
    expect(callers.recall(KIM_HEADER)).toBe(kim);
    vi.advanceTimersByTime(1);
    expect(callers.recall(KIM_HEADER)).toBeUndefined();
  });

  it('never recalls a token past its expiry', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const callers = new KnownCallers(new TableChanges());
    callers.remember('Bearer t', { ...kim, via: 'token', expiresAt: 1_000_000 + 1000 });
    vi.advanceTimersByTime(999);
    expect(callers.recall('Bearer t')).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(callers.recall('Bearer t')).toBeUndefined();
  });

  it('forgets everyone when users, groups, tokens, keys or the security settings change', () => {
    const changes = new TableChanges();
    const callers = new KnownCallers(changes);
    for (const table of [
      'users',
      'groups',
      'user_groups',
      'access_tokens',
      'api_keys',
      'settings',
    ]) {
      callers.remember(KIM_HEADER, kim);
      changes.changed([table]);
      expect([table, callers.recall(KIM_HEADER)]).toEqual([table, undefined]);
    }
    callers.remember(KIM_HEADER, kim);
    changes.changed(['nodes']);
    expect(callers.recall(KIM_HEADER)).toBe(kim);
  });
});
