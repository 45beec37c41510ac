import { createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { notificationShown } from '../../shell/notifications/model';
import { retentionApi, type ArchivedItem, type RestoreRequest } from './api';
import { RETENTION_MESSAGES as M } from './messages';
import { defaultRange, rangeMillis, type DateRange } from './range';

// ---- Cold storage monitoring ----
export const monitoringOpened = createEvent();
export const rangeChanged = createEvent<DateRange>();
export const refreshClicked = createEvent();

export const fetchMonitoringFx = createEffect(async (range: { from: number; to: number }) => {
  const [info, archive, restore] = await Promise.all([
    retentionApi.storageInfo(),
    retentionApi.executions('archive', range.from, range.to),
    retentionApi.executions('restore', range.from, range.to),
  ]);
  return { summary: info.binariesSummary, archive, restore };
});

export const $range = createStore<DateRange>(defaultRange()).on(rangeChanged, (_, range) => range);
export const $monitoring = createStore<Awaited<ReturnType<typeof fetchMonitoringFx>> | null>(
  null,
).on(fetchMonitoringFx.doneData, (_, data) => data);
export const $monitoringError = createStore<string | null>(null)
  .on(fetchMonitoringFx, () => null)
  .on(fetchMonitoringFx.failData, (_, error) => errorMessage(error, M.fetchFailed));
export const $monitoringLoading = fetchMonitoringFx.pending;

const asked = sample({
  clock: [monitoringOpened, refreshClicked, rangeChanged],
  source: $range,
  fn: (range) => rangeMillis(range),
});
// when the range holds two valid dates, fetch the figures and both lists for it
sample({
  clock: asked,
  filter: (millis): millis is { from: number; to: number } => millis !== undefined,
  target: fetchMonitoringFx,
});
// when a date is not one, say so in the spec's words and send nothing (spec 02 §5)
sample({
  clock: asked,
  filter: (millis) => millis === undefined,
  fn: () => ({ kind: 'error' as const, text: M.invalidParams }),
  target: notificationShown,
});

// ---- Archive search and restore ----
export const archiveSearchRouted = createEvent<string>();
export const restoreConfirmed = createEvent<RestoreRequest>();

export const searchArchiveFx = createEffect((aql: string) =>
  retentionApi.search(aql).then((answer) => answer.data.results),
);
export const restoreFx = createEffect(retentionApi.restore);

export const $lastQuery = createStore('').on(archiveSearchRouted, (_, aql) => aql);
export const $archived = createStore<ArchivedItem[] | null>(null)
  .on(searchArchiveFx.doneData, (_, results) => results)
  .on(searchArchiveFx.fail, () => []);
export const $searchError = createStore<string | null>(null)
  .on(searchArchiveFx, () => null)
  .on(searchArchiveFx.failData, (_, error) => errorMessage(error, M.searchFailed));
export const $searching = searchArchiveFx.pending;
export const $restoring = restoreFx.pending;
/** What the last restore could not put back, item by item. */
export const $restoreFailures = createStore<string[]>([])
  .on(restoreFx, () => [])
  .on(restoreFx.doneData, (_, outcome) =>
    outcome.failures.map((failure) => M.notRestored(failure.item, failure.reason)),
  );

// when the route carries a query, search the archive with it
sample({ clock: archiveSearchRouted, target: searchArchiveFx });
// when the restore is confirmed, restore
sample({ clock: restoreConfirmed, target: restoreFx });
// when a restore ends, tell what it did and search again: restored items leave the archive
sample({
  clock: restoreFx.doneData,
  fn: (outcome) => ({
    kind: outcome.failures.length > 0 ? ('error' as const) : ('success' as const),
    text: outcome.info,
  }),
  target: notificationShown,
});
sample({
  clock: restoreFx.failData,
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error, M.restoreFailed) }),
  target: notificationShown,
});
sample({ clock: restoreFx.done, source: $lastQuery, target: searchArchiveFx });
