import { createEffect, createEvent, createStore, sample } from 'effector';

export type NotificationKind = 'success' | 'error' | 'info';
export interface NotificationInput {
  kind: NotificationKind;
  text: string;
}
export interface Notification extends NotificationInput {
  id: number;
}

/** Success toasts go quickly; errors stay long enough to be read. */
export const AUTO_DISMISS_MS: Record<NotificationKind, number> = {
  success: 5000,
  info: 5000,
  error: 10000,
};

export const notificationShown = createEvent<NotificationInput>();
export const notificationDismissed = createEvent<number>();
const notificationAdded = createEvent<Notification>();

export const $notifications = createStore<Notification[]>([])
  .on(notificationAdded, (list, notification) => [...list, notification])
  .on(notificationDismissed, (list, id) => list.filter((n) => n.id !== id));
const $lastId = createStore(0).on(notificationAdded, (_, notification) => notification.id);

export const dismissLaterFx = createEffect(
  (notification: Notification) =>
    new Promise<number>((resolve) =>
      setTimeout(() => resolve(notification.id), AUTO_DISMISS_MS[notification.kind]),
    ),
);

// when a notification is asked for and the same one is not already on screen, add it
sample({
  clock: notificationShown,
  source: { list: $notifications, lastId: $lastId },
  filter: ({ list }, input) => !list.some((n) => n.kind === input.kind && n.text === input.text),
  fn: ({ lastId }, input) => ({ ...input, id: lastId + 1 }),
  target: notificationAdded,
});

// when a notification appears, dismiss it after its time
sample({ clock: notificationAdded, target: dismissLaterFx });
sample({ clock: dismissLaterFx.doneData, target: notificationDismissed });
