import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'effector-react';
import { allSettled, fork, type Scope } from 'effector';
import {
  $notifications,
  AUTO_DISMISS_MS,
  notificationShown,
  type NotificationInput,
} from './model';
import { DISMISS_LABEL } from '../messages';
import { Notifications } from './Notifications';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderToasts() {
  const scope = fork();
  render(
    <Provider value={scope}>
      <Notifications />
    </Provider>,
  );
  return scope;
}

/** Shows a toast without waiting for its timer (the model's effect settles only when it goes). */
async function show(scope: Scope, params: NotificationInput) {
  await act(async () => {
    void allSettled(notificationShown, { scope, params });
    await Promise.resolve();
  });
}

describe('the toasts (React Aria toast region)', () => {
  it('announces an error as an alert in a named region, with a named dismiss button', async () => {
    const scope = renderToasts();
    expect(screen.queryByRole('region', { name: /notification/i })).toBeNull();
    await show(scope, { kind: 'error', text: 'Bad credentials' });

    const region = await screen.findByRole('region', { name: '1 notification.' });
    const toast = screen.getByRole('alertdialog', { name: 'Bad credentials' });
    expect(region.contains(toast)).toBe(true);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Bad credentials'));
    expect(toast.className).toContain('notification-error');

    await userEvent.click(screen.getByRole('button', { name: DISMISS_LABEL }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(scope.getState($notifications)).toEqual([]);
  });

  it('says a success politely (a status, not an alert), newest last on screen', async () => {
    const scope = renderToasts();
    await show(scope, { kind: 'success', text: "User 'jo' created" });
    await show(scope, { kind: 'info', text: 'Import started' });
    await waitFor(() => expect(screen.getAllByRole('status')).toHaveLength(2));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getAllByRole('alertdialog').map((t) => t.textContent)).toEqual([
      `Import started×`,
      `User 'jo' created×`,
    ]);
  });

  it('takes a toast away when its time is up, as the model says', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const scope = renderToasts();
    await show(scope, { kind: 'error', text: 'Upload failed' });
    screen.getByRole('alertdialog', { name: 'Upload failed' });
    await act(() => vi.advanceTimersByTimeAsync(AUTO_DISMISS_MS.error - 100));
    expect(screen.getByRole('alertdialog', { name: 'Upload failed' })).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(scope.getState($notifications)).toEqual([]);
  });
});
