import { createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { bucketsApi, type Bucket, type BucketAdd, type BucketReport } from './api';
import { BUCKET_MESSAGES as M } from './messages';

export const listOpened = createEvent();
export const addSubmitted = createEvent<BucketAdd>();
export const deleteConfirmed = createEvent<string>();
export const splitSubmitted = createEvent<{ id: string; name: string; licenses: number }>();
export const attachSubmitted = createEvent<{ id: string; attachments: Bucket['attachments'] }>();
export const reportOpened = createEvent<string>();
export const detachConfirmed = createEvent<{ id: string; deployments: string[] }>();

export const listFx = createEffect(bucketsApi.list);
export const addFx = createEffect(bucketsApi.add);
export const removeFx = createEffect(bucketsApi.remove);
export const splitFx = createEffect(bucketsApi.split);
export const attachFx = createEffect(bucketsApi.attach);
export const reportFx = createEffect(bucketsApi.report);
export const detachFx = createEffect(bucketsApi.detach);

export const $buckets = createStore<Bucket[]>([]).on(listFx.doneData, (_, rows) => rows);
export const $report = createStore<BucketReport | null>(null)
  .on(reportFx.doneData, (_, report) => report)
  .reset(reportOpened);
/** The server's refusal of the last add, split or attach, shown on its form. */
export const $formError = createStore<string | null>(null)
  .on([addFx.failData, splitFx.failData, attachFx.failData], (_, error) => errorMessage(error))
  .reset(addSubmitted, splitSubmitted, attachSubmitted, listOpened, reportOpened);
/** Bumped when a form's call succeeded: the page then leaves the form. */
export const $done = createStore(0).on([addFx.done, attachFx.done, splitFx.done], (n) => n + 1);

// When the list opens or a bucket changed, read the list again.
sample({
  clock: [listOpened, removeFx.done, splitFx.done, attachFx.done],
  target: listFx,
});
sample({ clock: addSubmitted, target: addFx });
sample({ clock: deleteConfirmed, target: removeFx });
sample({ clock: splitSubmitted, target: splitFx });
sample({ clock: attachSubmitted, target: attachFx });
sample({ clock: reportOpened, target: reportFx });
sample({ clock: detachConfirmed, target: detachFx });
// When licenses came back from a deployment, the report shows the bucket as it is now.
sample({
  clock: detachFx.done,
  fn: ({ params }) => params.id,
  target: reportFx,
});
// When attaching opens, the report says where the licenses are and which deployments take them.
sample({
  clock: attachFx.done,
  fn: ({ params }) => params.id,
  target: reportFx,
});
sample({
  clock: addFx.done,
  fn: () => ({ kind: 'success' as const, text: M.added }),
  target: notificationShown,
});
sample({
  clock: removeFx.done,
  fn: () => ({ kind: 'success' as const, text: M.removed }),
  target: notificationShown,
});
sample({
  clock: [splitFx.doneData, attachFx.doneData, detachFx.doneData],
  fn: (answer) => ({ kind: 'success' as const, text: answer.info }),
  target: notificationShown,
});
sample({
  clock: listFx.failData,
  fn: () => ({ kind: 'error' as const, text: M.listFailed }),
  target: notificationShown,
});
sample({
  clock: [removeFx.failData, reportFx.failData, detachFx.failData],
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error) }),
  target: notificationShown,
});
