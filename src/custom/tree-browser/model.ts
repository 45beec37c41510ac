import { combine, createEffect, createEvent, createStore, sample, split } from 'effector';
import { ApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import {
  treeBrowserApi,
  type RootsRequest,
  type TreeNode,
  type TreePage,
} from '../../api/treeBrowser';
import { notificationShown } from '../../shell/notifications/model';
import { $contextProjectKey } from '../../shell/project/model';
import { TREE_MESSAGES as M } from './messages';
import {
  appendChildren,
  collapse,
  indexOfId,
  isWithin,
  patchRow,
  rowsOf,
  type TreeRow,
} from './rows';
import { filtersActive, loadSettings, saveSettings, type TreeSettings } from './settings';
import { walkStep, type WalkStep } from './walk';

/**
 * The artifact tree's state (spec 02 §4 Tree node): the flat rows, which one is active,
 * the walk to a requested path, children paging and the persisted settings.
 */

/** The first page of a folder is small so that it draws at once; the rest come bigger. */
export const CHILDREN_PAGE = { first: 1000, next: 5000 };

// ---- events -----------------------------------------------------------------------------

/** The screen opened at a path ('' for none): a fresh tree, walked down to it. */
export const treeMounted = createEvent<string>();
/** The screen closed: the next visit starts afresh. */
export const treeUnmounted = createEvent();
/** The tree changed on the server (an action ran): load it again and walk to `path`. */
export const treeReloaded = createEvent<string>();
/** The route's path changed to one the tree is not showing (Back, Forward, a link). */
export const pathRequested = createEvent<string>();
export const rowToggled = createEvent<string>();
export const rowOpened = createEvent<string>();
export const rowClosed = createEvent<string>();
export const rowSelected = createEvent<string>();
export const refreshClicked = createEvent();
export const compactedToggled = createEvent();
export const sortChanged = createEvent<TreeSettings['sortBy']>();
export const filtersChanged = createEvent<TreeSettings['filters']>();
export const favoriteToggled = createEvent<string>();
export const favoritesOnlyToggled = createEvent();
/** Roots came back empty with no filter: there is nothing to browse. */
export const noRepositoriesFound = createEvent();

const rootsReloadRequested = createEvent<{ walkTo: string | null }>();

// ---- effects ----------------------------------------------------------------------------

export const fetchRootsFx = createEffect((request: RootsRequest) => treeBrowserApi.roots(request));

interface ChildrenFetch {
  id: string;
  node: TreeNode;
  /** Which opening of the row this page belongs to: a closed-and-reopened row ignores old pages. */
  token: number;
  compacted: boolean;
  continueState?: string;
}
export const fetchChildrenFx = createEffect(
  ({ node, continueState, compacted }: ChildrenFetch): Promise<TreePage> =>
    treeBrowserApi.children(
      {
        repoKey: node.repoKey,
        path: node.path,
        continueState,
        limit: continueState ? CHILDREN_PAGE.next : CHILDREN_PAGE.first,
      },
      compacted,
    ),
);

// ---- stores -----------------------------------------------------------------------------

export const $settings = createStore<TreeSettings>(loadSettings())
  .on(compactedToggled, (s) => ({ ...s, compacted: !s.compacted }))
  .on(sortChanged, (s, sortBy) => ({ ...s, sortBy }))
  .on(filtersChanged, (s, filters) => ({ ...s, filters }))
  .on(favoritesOnlyToggled, (s) => ({ ...s, favoritesOnly: !s.favoritesOnly }))
  .on(favoriteToggled, (s, key) => ({
    ...s,
    favorites: s.favorites.includes(key)
      ? s.favorites.filter((k) => k !== key)
      : [...s.favorites, key],
  }));
export const saveSettingsFx = createEffect((settings: TreeSettings) => saveSettings(settings));
sample({ clock: $settings.updates, target: saveSettingsFx });

export const $rows = createStore<TreeRow[]>([]);
export const $rootsLoaded = createStore(false);
const $rootsContinueState = createStore<string | null>(null);
/** The path the tree is walking to; '' selects the first root. */
export const $walkTarget = createStore<string | null>(null);
export const $activeId = createStore<string | null>(null);
/** Open rows whose next children page is pending: id → the opening's token. */
const $pagingIds = createStore<Record<string, number>>({});
/** The current opening of each open or loading row. */
const $openTokens = createStore<Record<string, number>>({});
const $lastToken = createStore(0);

/** Requests in flight, for the busy indicator; never below zero (spec 02 §4). */
export const $fetching = createStore(0)
  .on([fetchRootsFx, fetchChildrenFx], (n) => n + 1)
  .on([fetchRootsFx.finally, fetchChildrenFx.finally], (n) => Math.max(0, n - 1));

export const $activeRow = combine($rows, $activeId, (rows, id) => {
  const index = indexOfId(rows, id);
  return index < 0 ? null : rows[index];
});
export const $activeIndex = combine($rows, $activeId, indexOfId);
/** The tree above the trash can, and the trash can's own tree (spec 02 §4). */
export const $trashStart = $rows.map((rows) => {
  const index = rows.findIndex((row) => row.depth === 0 && row.node.trash === true);
  return index < 0 ? rows.length : index;
});
export const $favoritesMissing = $settings.map((s) => s.favoritesOnly && s.favorites.length === 0);
export const $filtered = $settings.map(filtersActive);

// ---- roots ------------------------------------------------------------------------------

/** What the roots are asked with: the tree's settings, and the project context's key. */
const $rootsQuery = combine({ settings: $settings, projectKey: $contextProjectKey });

const rootsRequest = (
  { settings, projectKey }: { settings: TreeSettings; projectKey: string | null },
  extra: Partial<RootsRequest>,
): RootsRequest => ({
  packageTypes: settings.filters.packageTypes,
  repositoryTypes: settings.filters.repositoryTypes,
  sortBy: settings.sortBy,
  repositoryKeys: settings.favoritesOnly ? settings.favorites : undefined,
  // In a project's context the tree holds the project's repositories (spec 01 §3).
  ...(projectKey ? { projectKey } : {}),
  ...extra,
});

/** A fresh tree: the roots again, walking back to a path when one is given. */
$rows.on(rootsReloadRequested, () => []);
$rootsLoaded.on(rootsReloadRequested, () => false);
$openTokens.on(rootsReloadRequested, () => ({}));
$pagingIds.on(rootsReloadRequested, () => ({}));
$walkTarget.on(rootsReloadRequested, (_, { walkTo }) => walkTo);
sample({
  clock: rootsReloadRequested,
  source: $rootsQuery,
  filter: ({ settings }) => !(settings.favoritesOnly && settings.favorites.length === 0),
  fn: (query, { walkTo }) =>
    rootsRequest(query, { mustInclude: walkTo?.split('/')[0] || undefined }),
  target: fetchRootsFx,
});

$rows.on(fetchRootsFx.done, (rows, { params, result }) =>
  params.continueState ? [...rows, ...rowsOf(result.data, 0)] : rowsOf(result.data, 0),
);
$rootsLoaded.on(fetchRootsFx.finally, () => true);
$rootsContinueState.on(fetchRootsFx.doneData, (_, page) => page.continueState ?? null);
$rootsContinueState.on(fetchRootsFx.fail, () => null);
$rootsContinueState.on(rootsReloadRequested, () => null);

// Root paging continues while a continue state exists and no fetch is running.
sample({
  clock: fetchRootsFx.done,
  source: { query: $rootsQuery, continueState: $rootsContinueState },
  filter: ({ continueState }) => continueState !== null,
  fn: ({ query, continueState }) => rootsRequest(query, { continueState: continueState! }),
  target: fetchRootsFx,
});
sample({
  clock: fetchRootsFx.failData,
  filter: (error) => !(error instanceof ApiError && error.status === 404),
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error, M.noResponse) }),
  target: notificationShown,
});
sample({
  clock: fetchRootsFx.done,
  source: $settings,
  filter: (settings, { params, result }) =>
    !params.continueState && result.data.length === 0 && !filtersActive(settings),
  target: noRepositoriesFound,
});

// ---- opening and closing ----------------------------------------------------------------

const openableRow = (rows: TreeRow[], id: string) => {
  const row = rows[indexOfId(rows, id)];
  return row && row.state === 'closed' && row.node.type !== 'file' ? row : null;
};

const openingStarted = createEvent<{ row: TreeRow; token: number }>();
sample({
  clock: rowOpened,
  source: { rows: $rows, lastToken: $lastToken },
  filter: ({ rows }, id) => openableRow(rows, id) !== null,
  fn: ({ rows, lastToken }, id) => ({ row: openableRow(rows, id)!, token: lastToken + 1 }),
  target: openingStarted,
});
$lastToken.on(openingStarted, (_, { token }) => token);
$openTokens.on(openingStarted, (tokens, { row, token }) => ({ ...tokens, [row.id]: token }));
$rows.on(openingStarted, (rows, { row }) => patchRow(rows, row.id, { state: 'loading' }));
sample({
  clock: openingStarted,
  source: $settings,
  fn: (settings, { row, token }) => ({
    id: row.id,
    node: row.node,
    token,
    compacted: settings.compacted,
  }),
  target: fetchChildrenFx,
});

/** A page for the row's current opening; older ones (closed, reopened) are dropped. */
const currentPageArrived = createEvent<{ params: ChildrenFetch; result: TreePage }>();
sample({
  clock: fetchChildrenFx.done,
  source: $openTokens,
  filter: (tokens, { params }) => tokens[params.id] === params.token,
  fn: (_, done) => done,
  target: currentPageArrived,
});
$rows.on(currentPageArrived, (rows, { params, result }) =>
  appendChildren(rows, params.id, result.data),
);
$pagingIds.on(currentPageArrived, (paging, { params, result }) => {
  const { [params.id]: _done, ...rest } = paging;
  return result.continueState ? { ...rest, [params.id]: params.token } : rest;
});
sample({
  clock: currentPageArrived,
  filter: ({ result }) => result.continueState !== undefined,
  fn: ({ params, result }): ChildrenFetch => ({ ...params, continueState: result.continueState }),
  target: fetchChildrenFx,
});

const currentOpenFailed = createEvent<{ params: ChildrenFetch; error: Error }>();
sample({
  clock: fetchChildrenFx.fail,
  source: $openTokens,
  filter: (tokens, { params }) => tokens[params.id] === params.token,
  fn: (_, failed) => failed,
  target: currentOpenFailed,
});
$rows.on(currentOpenFailed, (rows, { params }) =>
  patchRow(rows, params.id, { state: 'open', empty: true }),
);
$pagingIds.on(currentOpenFailed, (paging, { params }) => {
  const { [params.id]: _failed, ...rest } = paging;
  return rest;
});
sample({
  clock: currentOpenFailed,
  filter: ({ error }) => !(error instanceof ApiError && error.status === 404),
  fn: ({ error }) => ({ kind: 'error' as const, text: errorMessage(error, M.couldNotOpen) }),
  target: notificationShown,
});

const withoutSubtree = (record: Record<string, number>, id: string) =>
  Object.fromEntries(Object.entries(record).filter(([key]) => !isWithin(key, id)));
$rows.on(rowClosed, collapse);
$openTokens.on(rowClosed, withoutSubtree);
$pagingIds.on(rowClosed, withoutSubtree);
// Closing above the active row makes the closed row active: the active one is gone.
$activeId.on(rowClosed, (active, id) => (active && isWithin(active, id) ? id : active));

sample({
  clock: rowToggled,
  source: $rows,
  filter: (rows, id) => rows[indexOfId(rows, id)]?.state === 'closed',
  fn: (_, id) => id,
  target: rowOpened,
});
sample({
  clock: rowToggled,
  source: $rows,
  filter: (rows, id) => rows[indexOfId(rows, id)]?.state === 'open',
  fn: (_, id) => id,
  target: rowClosed,
});

$activeId.on(rowSelected, (_, id) => id);

// ---- walking to a path ------------------------------------------------------------------

sample({
  clock: pathRequested,
  source: { rootsLoaded: $rootsLoaded, rows: $rows },
  filter: ({ rootsLoaded, rows }, path) => !rootsLoaded || indexOfId(rows, path.split('/')[0]) < 0,
  fn: (_, path) => ({ walkTo: path }),
  target: rootsReloadRequested,
});
$walkTarget.on(pathRequested, (_, path) => path);

/** One step of the walk, with the path it walks to. */
interface Walking {
  target: string;
  step: WalkStep;
}
const walkStepped = createEvent<Walking>();
/**
 * The walk looks again once a fetch's results are in every store: an effect's `done`
 * comes after the graph has settled, whatever order the stores' own updates ran in.
 */
const settledFx = createEffect(async () => undefined);
sample({
  clock: [pathRequested, fetchRootsFx.finally, fetchChildrenFx.finally],
  target: settledFx,
});
sample({
  clock: settledFx.done,
  source: { rows: $rows, target: $walkTarget, paging: $pagingIds, loaded: $rootsLoaded },
  filter: ({ target, loaded }) => target !== null && loaded,
  fn: ({ rows, target, paging }): Walking => ({
    target: target!,
    step: target ? walkStep(rows, target, new Set(Object.keys(paging))) : firstRoot(rows),
  }),
  target: walkStepped,
});
function firstRoot(rows: TreeRow[]): WalkStep {
  return rows.length > 0 ? { kind: 'found', id: rows[0].id } : { kind: 'wait' };
}

type Missing = Walking & { step: Extract<WalkStep, { kind: 'missing' }> };
const { found, open, missing } = split(walkStepped, {
  found: (w) => w.step.kind === 'found',
  open: (w) => w.step.kind === 'open',
  missing: (w): w is Missing => w.step.kind === 'missing',
});
$walkTarget.on([found, missing], () => null);
const stepId = ({ step }: Walking) => (step as { id: string }).id;
sample({ clock: found, fn: stepId, target: rowSelected });
sample({ clock: open, fn: stepId, target: rowOpened });

// A missing repository under filters may just be filtered out: clear them and look again.
// Decided once, before the filters change, so that exactly one of the two follows.
const missingDecided = createEvent<Missing & { filteredOut: boolean }>();
sample({
  clock: missing,
  source: $settings,
  fn: (settings, walking) => ({
    ...walking,
    filteredOut: walking.step.lastFoundId === null && filtersActive(settings),
  }),
  target: missingDecided,
});
const { missingWhileFiltered, missingForGood } = split(missingDecided, {
  missingWhileFiltered: (m) => m.filteredOut,
  missingForGood: (m) => !m.filteredOut,
});
$settings.on(missingWhileFiltered, (s) => ({
  ...s,
  favoritesOnly: false,
  filters: { packageTypes: [], repositoryTypes: [] },
}));
sample({
  clock: missingWhileFiltered,
  fn: ({ target }) => ({ walkTo: target }),
  target: rootsReloadRequested,
});
sample({
  clock: missingForGood,
  fn: ({ step }) => ({ kind: 'error' as const, text: M.notFound(step.segment) }),
  target: notificationShown,
});
sample({
  clock: missingForGood,
  source: $rows,
  filter: (rows, { step }) => step.lastFoundId !== null || rows.length > 0,
  fn: (rows, { step }) => step.lastFoundId ?? rows[0].id,
  target: rowSelected,
});

// ---- mounting ---------------------------------------------------------------------------

sample({
  clock: [treeMounted, treeReloaded],
  fn: (path) => ({ walkTo: path }),
  target: rootsReloadRequested,
});
/** Whether the screen shows the tree: a context change reloads only a tree on screen. */
const $treeShown = createStore(false)
  .on(treeMounted, () => true)
  .on(treeUnmounted, () => false);
// Another project chosen: its repositories, from the top.
sample({
  clock: $contextProjectKey.updates,
  filter: $treeShown,
  fn: () => ({ walkTo: '' }),
  target: rootsReloadRequested,
});
$activeId.reset(treeMounted, treeUnmounted);
$rows.reset(treeUnmounted);
$rootsLoaded.reset(treeUnmounted);
$walkTarget.reset(treeUnmounted);
$openTokens.reset(treeUnmounted);
$pagingIds.reset(treeUnmounted);

// ---- settings changes -------------------------------------------------------------------

// Compacting, sorting and refreshing keep the user where they were.
sample({
  clock: [compactedToggled, sortChanged, refreshClicked],
  source: $activeId,
  fn: (active) => ({ walkTo: active ?? '' }),
  target: rootsReloadRequested,
});
// Filters start again at the top; so does unmarking a favorite while only favorites show.
sample({
  clock: [filtersChanged, favoritesOnlyToggled],
  fn: () => ({ walkTo: '' }),
  target: rootsReloadRequested,
});
sample({
  clock: favoriteToggled,
  source: $settings,
  filter: (settings) => settings.favoritesOnly,
  fn: () => ({ walkTo: '' }),
  target: rootsReloadRequested,
});
