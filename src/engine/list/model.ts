import { createEffect, createEvent, createStore, sample } from 'effector';
import type { RowAction, ScreenDescriptor } from '../../api/descriptor';
import { createResourceClient, runRowAction, type Row } from '../../api/resource';
import { errorMessage } from '../../api/errorMessage';
import { isServerFailure } from '../../api/ApiError';
import { notificationShown } from '../../shell/notifications/model';
import { DEFAULT_ERROR_MESSAGE, actionDoneMessage, deletedMessage } from '../messages';

const client = (d: ScreenDescriptor) => createResourceClient(d.api, d.key);
const entityTitle = (d: ScreenDescriptor) => String(d.entitySchema.title ?? d.entity);

export const listOpened = createEvent<ScreenDescriptor>();
export const listClosed = createEvent();
export const deleteConfirmed = createEvent<string[]>();
export const rowActionConfirmed = createEvent<{ action: RowAction; row: Row }>();

export const fetchRowsFx = createEffect((descriptor: ScreenDescriptor) =>
  client(descriptor).list(),
);
export const deleteRowsFx = createEffect(
  ({ descriptor, keys }: { descriptor: ScreenDescriptor; keys: string[] }) =>
    client(descriptor).deleteMany(keys),
);
export const runRowActionFx = createEffect(
  ({ action, row }: { descriptor: ScreenDescriptor; action: RowAction; row: Row }) =>
    runRowAction(action, row),
);

export const $descriptor = createStore<ScreenDescriptor | null>(null)
  .on(listOpened, (_, descriptor) => descriptor)
  .reset(listClosed);
export const $rows = createStore<Row[]>([]).reset(listOpened, listClosed);
export const $loading = fetchRowsFx.pending;
/** The open list's rows have arrived: only then does an empty list mean there are none. */
export const $loaded = createStore(false).reset(listOpened, listClosed);
export const $busy = createStore(false)
  .on([deleteRowsFx, runRowActionFx], () => true)
  .on([deleteRowsFx.finally, runRowActionFx.finally], () => false);

// when a list opens, fetch its rows
sample({ clock: listOpened, target: fetchRowsFx });

// when rows arrive for the list still open, show them (a late answer for another screen is dropped)
sample({
  clock: fetchRowsFx.done,
  source: $descriptor,
  filter: (open, { params }) => open?.id === params.id,
  fn: (_, { result }) => result,
  target: $rows,
});
sample({
  clock: fetchRowsFx.done,
  source: $descriptor,
  filter: (open, { params }) => open?.id === params.id,
  fn: () => true,
  target: $loaded,
});

// when the user confirms a bulk delete, delete those rows of the open list
sample({
  clock: deleteConfirmed,
  source: $descriptor,
  filter: (descriptor: ScreenDescriptor | null): descriptor is ScreenDescriptor =>
    descriptor !== null,
  fn: (descriptor, keys) => ({ descriptor, keys }),
  target: deleteRowsFx,
});

// when rows are deleted, say so and reload the list
sample({
  clock: deleteRowsFx.done,
  fn: ({ params }) => ({
    kind: 'success' as const,
    text: deletedMessage(entityTitle(params.descriptor), params.keys.length),
  }),
  target: notificationShown,
});

// when the user confirms a row action, run it on that row
sample({
  clock: rowActionConfirmed,
  source: $descriptor,
  filter: (descriptor: ScreenDescriptor | null): descriptor is ScreenDescriptor =>
    descriptor !== null,
  fn: (descriptor, { action, row }) => ({ descriptor, action, row }),
  target: runRowActionFx,
});

// when a row action is done, say so and reload the list (the row may have changed)
sample({
  clock: runRowActionFx.done,
  fn: ({ params: { descriptor, action, row } }) => ({
    kind: 'success' as const,
    text: actionDoneMessage(action.label, String(row[descriptor.key])),
  }),
  target: notificationShown,
});
sample({
  clock: [deleteRowsFx.done, runRowActionFx.done],
  fn: ({ params }) => params.descriptor,
  target: fetchRowsFx,
});

// when a list call fails, show the parsed message (server failures get the error dialog instead)
sample({
  clock: [fetchRowsFx.failData, deleteRowsFx.failData, runRowActionFx.failData],
  filter: (error) => !isServerFailure(error),
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error, DEFAULT_ERROR_MESSAGE) }),
  target: notificationShown,
});
