import { createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { backupStatusApi, type BackupStatus } from './api';

/** The panel of this backup was opened, or its status is due again (polling). */
export const statusRequested = createEvent<string>();
export const panelClosed = createEvent();
export const runNowClicked = createEvent<string>();
export const restoreClicked = createEvent();
export const restoreCancelled = createEvent();
export const restoreConfirmed = createEvent<string>();

export const loadStatusFx = createEffect(backupStatusApi.status);
export const runNowFx = createEffect(backupStatusApi.runNow);
export const restoreFx = createEffect(backupStatusApi.restore);

/** Whose status is shown; an answer for another backup (a late one) is dropped. */
const $key = createStore<string | null>(null)
  .on(statusRequested, (_, key) => key)
  .reset(panelClosed);
export const $status = createStore<BackupStatus | null>(null).reset(panelClosed);
export const $restoreAsked = createStore(false)
  .on(restoreClicked, () => true)
  .reset(restoreCancelled, restoreConfirmed, panelClosed);
/** Why the last restore was refused, in the server's words; shown beside the Restore action. */
export const $restoreError = createStore<string | null>(null)
  .on(restoreFx.failData, (_, error) => errorMessage(error))
  .reset(restoreFx, panelClosed);

// when the status is asked for, load it; when it arrives for the backup still shown, show it
sample({ clock: statusRequested, target: loadStatusFx });
sample({
  clock: loadStatusFx.done,
  source: $key,
  filter: (key, { params }) => key === params,
  fn: (_, { result }) => result,
  target: $status,
});

// when Run Now is clicked, start the run; when it started, say so and load the status
sample({ clock: runNowClicked, target: runNowFx });
// when Restore is confirmed, restore the newest backup
sample({ clock: restoreConfirmed, target: restoreFx });
sample({
  clock: [runNowFx.doneData, restoreFx.doneData],
  fn: ({ info }) => ({ kind: 'success' as const, text: info }),
  target: notificationShown,
});
sample({
  clock: [runNowFx.done, restoreFx.finally],
  source: $key,
  filter: (key): key is string => key !== null,
  target: loadStatusFx,
});

// when a call fails, say why in the server's words
sample({
  clock: [loadStatusFx.failData, runNowFx.failData, restoreFx.failData],
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error) }),
  target: notificationShown,
});
