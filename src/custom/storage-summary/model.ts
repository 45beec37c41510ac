import { createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { storageSummaryApi, type StorageSummary } from '../../api/storageSummary';
import { STORAGE_SUMMARY_LABELS } from './messages';

export const pageMounted = createEvent();
export const refreshClicked = createEvent();

export const fetchSummaryFx = createEffect(storageSummaryApi.get);

/** The last summary the server gave; kept while a refresh runs, so the page does not blink. */
export const $summary = createStore<StorageSummary | null>(null).on(
  fetchSummaryFx.doneData,
  (_, summary) => summary,
);
export const $loading = fetchSummaryFx.pending;
/** Why the last fetch failed, in the spec's words when the server gave none. */
export const $error = createStore<string | null>(null)
  .on(fetchSummaryFx, () => null)
  .on(fetchSummaryFx.failData, (_, error) =>
    errorMessage(error, STORAGE_SUMMARY_LABELS.fetchFailed),
  );

// when the page opens or the user asks for a refresh, fetch the summary (one at a time)
sample({
  clock: [pageMounted, refreshClicked],
  source: $loading,
  filter: (loading) => !loading,
  fn: () => undefined,
  target: fetchSummaryFx,
});
