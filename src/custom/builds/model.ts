import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import type { Row } from '../../api/resource';
import { $contextProjectKey } from '../../shell/project/model';
import { buildsApi, type BuildAt, type BuildSummary, type BuildVersion } from './api';

/** Names per page of the list. */
export const PAGE_SIZE = 50;

// ---- The list (spec 02 §7: global-search/builds) ----
export const listOpened = createEvent<string>();
export const moreRequested = createEvent();

export const searchFx = createEffect(
  (query: { name: string; projectKey?: string; offset: number }) =>
    buildsApi.search({
      name: query.name || undefined,
      projectKey: query.projectKey,
      offset: query.offset,
      num_of_rows: PAGE_SIZE,
    }),
);

export const $term = createStore('').on(listOpened, (_, term) => term);
export const $builds = createStore<BuildSummary[]>([])
  .on(searchFx.done, (rows, { params, result }) =>
    params.offset === 0 ? result.versions : [...rows, ...result.versions],
  )
  .on(searchFx.fail, () => []);
export const $hasMore = createStore(false)
  .on(searchFx.doneData, (_, page) => page.hasMore)
  .on(searchFx.fail, () => false);
/** Whether a search failed: the list says so instead of showing nothing. */
export const $listFailed = createStore(false)
  .on(searchFx.fail, () => true)
  .on(searchFx.done, () => false);
export const $listLoading = searchFx.pending;
/** The list's first page has arrived: only then does no row mean no build. */
export const $listLoaded = createStore(false)
  .on(listOpened, () => false)
  .on(searchFx.done, () => true);

/** The key the builds grids give a row (`key` of the descriptor's `lists`). */
export const rowKey = (row: Row) => String(row.id);

const $query = combine($term, $contextProjectKey, (name, projectKey) => ({
  name,
  projectKey: projectKey ?? undefined,
}));

// When the list opens (with a term from the address or the toolbar), or another project is
// chosen, fetch the first page.
sample({
  clock: [listOpened, $contextProjectKey.updates],
  source: $query,
  fn: (query) => ({ ...query, offset: 0 }),
  target: searchFx,
});
// When more is asked for, fetch the page after the rows shown.
sample({
  clock: moreRequested,
  source: { query: $query, rows: $builds },
  fn: ({ query, rows }) => ({ ...query, offset: rows.length }),
  target: searchFx,
});

// ---- A build's versions ----
export const versionsOpened = createEvent<{ name: string; projectKey?: string }>();
export const historyFx = createEffect((at: { name: string; projectKey?: string }) =>
  buildsApi.history(at.name, at.projectKey),
);
export const $versions = createStore<BuildVersion[]>([])
  .on(historyFx.doneData, (_, answer) => answer.history)
  .on(historyFx.fail, () => []);
/** The name whose versions are shown, set once they arrive. */
export const $versionsOf = createStore<string | null>(null)
  .on(historyFx.done, (_, { params }) => params.name)
  .on(historyFx.fail, () => null);
/** A failed fetch of a build's pages: the page goes to 404 (spec 02 §2). */
export const $versionsFailed = createStore(false)
  .on(historyFx.fail, () => true)
  .on(historyFx, () => false);

// When a build's versions page opens, fetch its history.
sample({ clock: versionsOpened, target: historyFx });

// ---- Delete ----
export const deleteRequested = createEvent<BuildAt[]>();
export const deleteAllRequested = createEvent<{ name: string; projectKey?: string }>();
export const deleteFx = createEffect((builds: BuildAt[]) => buildsApi.deleteBuilds(builds));
export const deleteAllFx = createEffect((at: { name: string; projectKey?: string }) =>
  buildsApi.deleteAll(at.name, at.projectKey),
);
export const $deleting = createStore(false)
  .on([deleteFx, deleteAllFx], () => true)
  .on([deleteFx.finally, deleteAllFx.finally], () => false);
export const $deleteFailed = createStore<string | null>(null)
  // The server's words, or the console's for no answer: never a library's error text.
  .on([deleteFx.failData, deleteAllFx.failData], (_, error) => errorMessage(error))
  .on([deleteFx, deleteAllFx], () => null);

sample({ clock: deleteRequested, target: deleteFx });
sample({ clock: deleteAllRequested, target: deleteAllFx });
// When versions are deleted, show the name's versions again.
sample({
  clock: deleteFx.done,
  source: $versionsOf,
  filter: (name: string | null, { params }) => name !== null && params[0]?.name === name,
  fn: (name, { params }) => ({ name: name ?? '', projectKey: params[0]?.projectKey }),
  target: historyFx,
});
