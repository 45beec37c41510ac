import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { treeBrowserApi } from '../../api/treeBrowser';
import { notificationShown } from '../../shell/notifications/model';
import { $contextProjectKey, projectSelected } from '../../shell/project/model';
import { $currentUser } from '../../shell/session/model';
import { searchApi, type SearchPage, type SearchResult } from './api';
import { SEARCH_MESSAGES as M } from './messages';
import type { SearchParams } from './query';
import {
  loadRecentSearches,
  saveRecentSearches,
  withRecentSearch,
  type RecentSearch,
} from './recent';

// ---- Running a search (spec 02 §4 Search) ----
/** The results page opened, or its query string changed: run what it asks for. */
export const searchRouted = createEvent<SearchParams>();
export const moreRequested = createEvent();
export const allRequested = createEvent();
export const deleteRequested = createEvent<SearchResult[]>();

/** A search as sent: the route's parameters, where to resume, and the project context. */
export interface SearchRequest {
  params: SearchParams;
  continueState?: string;
  /** A project's search looks in its repositories; null in the default context. */
  projectKey: string | null;
}

export const searchFx = createEffect(({ params, continueState, projectKey }: SearchRequest) =>
  searchApi.search(params, { continueState, projectKey }),
);
export const moreFx = createEffect(({ params, continueState, projectKey }: SearchRequest) =>
  searchApi.search(params, { continueState, projectKey }),
);
/** Pages to the end: Depot never caps results silently, so "all" really is all. */
export const allFx = createEffect(async ({ params, continueState, projectKey }: SearchRequest) => {
  const results: SearchResult[] = [];
  let next: string | undefined = continueState;
  while (next) {
    const page: SearchPage = await searchApi.search(params, { continueState: next, projectKey });
    results.push(...page.results);
    next = page.continueState;
  }
  return results;
});
export const deleteFx = createEffect((rows: SearchResult[]) =>
  searchApi.deleteArtifacts(rows.map(({ repoKey, path }) => ({ repoKey, path }))),
);

export const $params = createStore<SearchParams | null>(null)
  .on(searchRouted, (_, params) => params)
  .reset(projectSelected);
export const $results = createStore<SearchResult[]>([])
  .on(searchFx.doneData, (_, page) => page.results)
  .on(moreFx.doneData, (rows, page) => [...rows, ...page.results])
  .on(allFx.doneData, (rows, more) => [...rows, ...more])
  // Spec 02 §8: a failed search empties the results.
  .on(searchFx.fail, () => [])
  .on(deleteFx.done, (rows, { params }) => rows.filter((row) => !params.includes(row)))
  .reset(projectSelected);
export const $continueState = createStore<string | null>(null)
  .on([searchFx.doneData, moreFx.doneData], (_, page) => page.continueState ?? null)
  .on(allFx.done, () => null)
  .on(searchFx.fail, () => null)
  .reset(projectSelected);
/** Remote repositories whose upstream did not answer the last Remote search. */
export const $unavailable = createStore<string[]>([])
  .on(searchFx.doneData, (_, page) => page.unavailable ?? [])
  .on(searchFx.fail, () => [])
  .reset(projectSelected);
/** Set during a fetch and cleared afterwards (spec 02 §4). */
export const $loading = createStore(false)
  .on([searchFx, moreFx, allFx], () => true)
  .on([searchFx.finally, moreFx.finally, allFx.finally], () => false);
/** False until the first answer of the current search. */
export const $searched = createStore(false)
  .on(searchRouted, () => false)
  .on(searchFx.finally, () => true)
  .reset(projectSelected);

// When the route asks for a search, run it.
sample({
  clock: searchRouted,
  source: $contextProjectKey,
  fn: (projectKey, params): SearchRequest => ({ params, projectKey }),
  target: searchFx,
});
/** Where the next page starts, while there is one. */
const $nextPage = combine(
  $params,
  $continueState,
  $contextProjectKey,
  (params, continueState, projectKey): SearchRequest | null =>
    params && continueState ? { params, continueState, projectKey } : null,
);
// When more (or everything) is asked for and there is more, fetch it.
sample({
  clock: moreRequested,
  source: $nextPage,
  filter: Boolean,
  target: moreFx,
});
sample({
  clock: allRequested,
  source: $nextPage,
  filter: Boolean,
  target: allFx,
});
sample({ clock: deleteRequested, filter: (rows) => rows.length > 0, target: deleteFx });
// When a search or a delete fails, say why; when a delete succeeds, say so.
sample({
  clock: [searchFx.failData, moreFx.failData, allFx.failData, deleteFx.failData],
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error) }),
  target: notificationShown,
});
sample({
  clock: deleteFx.done,
  fn: ({ params }) => ({ kind: 'success' as const, text: M.deleted(params.length) }),
  target: notificationShown,
});

// ---- Recent searches (spec 02 §3, §4) ----
export const searchSubmitted = createEvent<SearchParams>();
export const recentOpened = createEvent();

const userName = (user: { name: string } | null) => user?.name;
export const loadRecentFx = createEffect((user: string | undefined) => loadRecentSearches(user));
/** Adds a search to what is stored (read afresh: another tab may have added some) and saves. */
export const rememberSearchFx = createEffect(
  ({ user, params }: { user: string | undefined; params: SearchParams }) => {
    const list = withRecentSearch(loadRecentSearches(user), params);
    saveRecentSearches(user, list);
    return list;
  },
);
export const $recent = createStore<RecentSearch[]>([]).on(
  [loadRecentFx.doneData, rememberSearchFx.doneData],
  (_, list) => list,
);

// When the recent list is shown, read the user's; when a search is submitted, remember it.
sample({ clock: recentOpened, source: $currentUser, fn: userName, target: loadRecentFx });
sample({
  clock: searchSubmitted,
  source: $currentUser,
  fn: (user, params) => ({ user: userName(user), params }),
  target: rememberSearchFx,
});

// ---- The repositories field's choices ----
/** The search form opened: offer the repositories the caller may read, in its project. */
export const searchFormOpened = createEvent();
const repositoryChoicesFx = createEffect((projectKey: string | null) =>
  treeBrowserApi.readableRepositoryKeys(projectKey ?? undefined),
);
export const $repositoryChoices = createStore<string[]>([]).on(
  repositoryChoicesFx.doneData,
  (_, keys) => keys,
);
// when the form opens or the project changes, load the keys (a failure leaves the list empty)
sample({
  clock: [searchFormOpened, projectSelected],
  source: $contextProjectKey,
  target: repositoryChoicesFx,
});
