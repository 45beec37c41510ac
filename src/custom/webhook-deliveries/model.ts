import { createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { deliveriesApi, type DeliveryHistory } from './api';
import { DELIVERY_LABELS } from './messages';

/** The history of this subscription was opened or asked for again. */
export const historyRequested = createEvent<string>();
export const historyClosed = createEvent();
export const redeliverClicked = createEvent<{ key: string; deliveryId: string }>();
export const resumeClicked = createEvent<string>();

export const loadHistoryFx = createEffect(deliveriesApi.history);
export const redeliverFx = createEffect(deliveriesApi.redeliver);
export const resumeFx = createEffect(deliveriesApi.resume);

/** Whose history is shown; an answer for another one (a late one) is dropped. */
const $key = createStore<string | null>(null)
  .on(historyRequested, (_, key) => key)
  .reset(historyClosed);
export const $history = createStore<DeliveryHistory | null>(null).reset(historyClosed);

// when the history is asked for, load it
sample({ clock: historyRequested, target: loadHistoryFx });

// when it arrives for the subscription still shown, show it
sample({
  clock: loadHistoryFx.done,
  source: $key,
  filter: (key, { params }) => key === params,
  fn: (_, { result }) => result,
  target: $history,
});

// when Redeliver or Resume is clicked, send it; when done, say so and reload the history
sample({ clock: redeliverClicked, target: redeliverFx });
sample({ clock: resumeClicked, target: resumeFx });
sample({
  clock: redeliverFx.doneData,
  fn: ({ info }) => ({ kind: 'success' as const, text: info }),
  target: notificationShown,
});
sample({
  clock: resumeFx.done,
  fn: () => ({ kind: 'success' as const, text: DELIVERY_LABELS.resumed }),
  target: notificationShown,
});
sample({
  clock: [redeliverFx.done, resumeFx.done],
  source: $key,
  filter: (key): key is string => key !== null,
  target: loadHistoryFx,
});

// when a call fails, say why in the server's words
sample({
  clock: [loadHistoryFx.failData, redeliverFx.failData, resumeFx.failData],
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error) }),
  target: notificationShown,
});
