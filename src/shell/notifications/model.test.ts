import { afterEach, describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import {
  $notifications,
  AUTO_DISMISS_MS,
  dismissLaterFx,
  notificationDismissed,
  notificationShown,
} from './model';

afterEach(() => vi.useRealTimers());

describe('notifications model', () => {
  it('shows a notification and dismisses it after its time', async () => {
    vi.useFakeTimers();
    const scope = fork();
    const settled = allSettled(notificationShown, {
      scope,
      params: { kind: 'success', text: "User 'jo' created" },
    });
    expect(scope.getState($notifications).map((n) => n.text)).toEqual(["User 'jo' created"]);
    await vi.advanceTimersByTimeAsync(AUTO_DISMISS_MS.success - 1);
    expect(scope.getState($notifications)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settled;
    expect(scope.getState($notifications)).toEqual([]);
  });

  it('keeps errors longer than successes', () => {
    expect(AUTO_DISMISS_MS.error).toBeGreaterThan(AUTO_DISMISS_MS.success);
  });

  it('does not stack the same message twice, and can be dismissed by hand', async () => {
    const scope = fork({ handlers: [[dismissLaterFx, async () => -1]] });
    await allSettled(notificationShown, {
      scope,
      params: { kind: 'error', text: 'Bad credentials' },
    });
    await allSettled(notificationShown, {
      scope,
      params: { kind: 'error', text: 'Bad credentials' },
    });
    await allSettled(notificationShown, { scope, params: { kind: 'success', text: 'Saved' } });
    const list = scope.getState($notifications);
    expect(list.map((n) => n.text)).toEqual(['Bad credentials', 'Saved']);
    expect(new Set(list.map((n) => n.id)).size).toBe(2);
    await allSettled(notificationDismissed, { scope, params: list[0].id });
    expect(scope.getState($notifications).map((n) => n.text)).toEqual(['Saved']);
  });
});
