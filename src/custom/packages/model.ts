import {
  combine,
  createEffect,
  createEvent,
  createStore,
  sample,
  type StoreWritable,
} from 'effector';
import { $contextProjectKey } from '../../shell/project/model';
import { logoutFx, sessionExpired } from '../../shell/session/model';
import { DEPENDENCIES, READMES } from './messages';
import {
  packagesApi,
  type Dependency,
  type Readme,
  type PackageNode,
  type PackageSearch,
  type VersionFilters,
  type VersionNode,
} from './api';

const parseId = (id: string) => {
  const match = /^([a-z0-9]+):\/\/(.+)$/.exec(id);
  return match ? { type: match[1]!, name: match[2]! } : undefined;
};

// ---- The list ----
export const listOpened = createEvent();
export const searchSubmitted = createEvent<PackageSearch>();
export const moreRequested = createEvent();

export const listFx = createEffect((search: PackageSearch) => packagesApi.list(search));
export const moreFx = createEffect(({ search, after }: { search: PackageSearch; after: string }) =>
  packagesApi.list(search, after),
);

export const $search = createStore<PackageSearch>({}).on(searchSubmitted, (_, search) => search);
export const $packages = createStore<PackageNode[]>([])
  .on(listFx.doneData, (_, page) => page.edges.map((edge) => edge.node))
  .on(moreFx.doneData, (rows, page) => [...rows, ...page.edges.map((edge) => edge.node)])
  .on(listFx.fail, () => []);
export const $endCursor = createStore<string | null>(null)
  .on([listFx.doneData, moreFx.doneData], (_, page) =>
    page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
  )
  .on(listFx.fail, () => null);
/** Whether the last list fetch failed: the list then says to try again later (spec 02 §2). */
export const $listFailed = createStore(false)
  .on(listFx.fail, () => true)
  .on(listFx.done, () => false);
/** False until a fetch completes (spec 02 §4: packagesFetched). */
export const $packagesFetched = createStore(false).on(listFx.finally, () => true);

/** The search as sent: in a project's context, the project's repositories only (spec 01 §3). */
const $searchInContext = combine($search, $contextProjectKey, (search, projectKey) =>
  projectKey ? { ...search, projectKey } : search,
);

// When the list opens, a search is made or another project is chosen, fetch the first page.
// A guard against concurrent initialisations (spec 02 §4): opening the list while its first
// page is on its way asks nothing more; a new search always asks.
sample({
  clock: listOpened,
  source: $searchInContext,
  filter: listFx.pending.map((pending) => !pending),
  target: listFx,
});
sample({ clock: searchSubmitted, source: $searchInContext, target: listFx });
sample({
  clock: $contextProjectKey.updates,
  source: { search: $searchInContext, fetched: $packagesFetched },
  filter: ({ fetched }) => fetched,
  fn: ({ search }) => search,
  target: listFx,
});
// When more is asked for and there is more, fetch the next page.
sample({
  clock: moreRequested,
  source: { search: $searchInContext, after: $endCursor },
  filter: ({ after }) => after !== null,
  fn: ({ search, after }) => ({ search, after: after! }),
  target: moreFx,
});

// ---- A package ----
export const packageOpened = createEvent<string>();
export const onlyReleasesToggled = createEvent<boolean>();
export const versionFiltersChanged = createEvent<VersionFilters>();

export const packageFx = createEffect((id: string) => packagesApi.get(id));
export const versionsFx = createEffect(
  ({
    id,
    onlyReleases,
    filters,
  }: {
    id: string;
    onlyReleases: boolean;
    filters?: VersionFilters;
  }) => packagesApi.versions(id, onlyReleases, filters),
);

export const $packageId = createStore<string | null>(null).on(packageOpened, (_, id) => id);
export const $package = createStore<PackageNode | null>(null)
  .on(packageFx.doneData, (_, pkg) => pkg)
  .on(packageFx.fail, () => null)
  .reset(packageOpened);
/** True until the package's data arrives (spec 02 §4: the loading flags start true). */
export const $packageLoading = createStore(true)
  .on(packageOpened, () => true)
  .on(packageFx.finally, () => false);
export const $onlyReleases = createStore(false).on(onlyReleasesToggled, (_, on) => on);
export const $versions = createStore<VersionNode[]>([])
  .on(versionsFx.doneData, (_, versions) => versions)
  .on(versionsFx.fail, () => [])
  .reset(packageOpened);

export const $versionFilters = createStore<VersionFilters>({})
  .on(versionFiltersChanged, (_, filters) => filters)
  .reset(packageOpened);
const filtered = (filters: VersionFilters) =>
  Boolean(filters.name || filters.repo || filters.license);
/** The repositories and licenses the filters offer: of every version, read while unfiltered. */
export const $versionChoices = createStore<{ repos: string[]; licenses: string[] }>({
  repos: [],
  licenses: [],
})
  .on(versionsFx.done, (choices, { params, result }) =>
    params.filters && filtered(params.filters)
      ? choices
      : {
          repos: [...new Set(result.flatMap((v) => v.repos.map((r) => r.name)))].sort(),
          licenses: [
            ...new Set(result.flatMap((v) => (v.licenses ?? []).map((l) => l.name))),
          ].sort(),
        },
  )
  .reset(packageOpened);

// When a package opens, fetch it and its versions; again when a version filter changes.
sample({ clock: packageOpened, target: packageFx });
sample({
  clock: [packageOpened, onlyReleasesToggled, versionFiltersChanged],
  source: { id: $packageId, onlyReleases: $onlyReleases, filters: $versionFilters },
  filter: ({ id }) => id !== null,
  fn: ({ id, onlyReleases, filters }) => ({
    id: id!,
    onlyReleases,
    ...(filtered(filters) ? { filters } : {}),
  }),
  target: versionsFx,
});

// ---- A version ----
export const versionOpened = createEvent<{ packageId: string; version: string }>();

export const versionFx = createEffect(
  ({ packageId, version }: { packageId: string; version: string }) =>
    packagesApi.version(packageId, version),
);
const NO_README: Readme = { readme: '', format: 'text' };

export const readmeFx = createEffect(
  async ({ packageId, version }: { packageId: string; version: string }) => {
    const key = parseId(packageId);
    return key && READMES.has(key.type)
      ? packagesApi.readme(key.type, key.name, version)
      : NO_README;
  },
);
export const dependenciesFx = createEffect(
  async ({ packageId, version }: { packageId: string; version: string }) => {
    const key = parseId(packageId);
    return key && DEPENDENCIES.has(key.type)
      ? (await packagesApi.dependencies(key.type, key.name, version)).list
      : [];
  },
);
export const propertiesFx = createEffect(
  async ({ packageId, version }: { packageId: string; version: string }) => {
    const key = parseId(packageId);
    return key ? (await packagesApi.properties(key.type, key.name, version)).properties : [];
  },
);

export const $version = createStore<VersionNode | null>(null)
  .on(versionFx.doneData, (_, version) => version)
  .on(versionFx.fail, () => null)
  .reset(versionOpened);
export const $versionLoading = createStore(true)
  .on(versionOpened, () => true)
  .on(versionFx.finally, () => false);
export const $readme = createStore<Readme>(NO_README)
  .on(readmeFx.doneData, (_, readme) => readme)
  .reset(versionOpened);
export const $dependencies = createStore<Dependency[]>([])
  .on(dependenciesFx.doneData, (_, list) => list)
  .reset(versionOpened);
export const $properties = createStore<{ key: string; values: string[] }[]>([])
  .on(propertiesFx.doneData, (_, properties) => properties)
  .reset(versionOpened);

// When a version opens, fetch it, its readme, its dependencies and its properties.
sample({ clock: versionOpened, target: [versionFx, readmeFx, dependenciesFx, propertiesFx] });

export { parseId as parsePackageId };

// ---- Signing out ----
// Spec 02 §4: on logout all package state is cleared; the next user starts afresh.
const sessionEnded = [logoutFx.done, sessionExpired];
for (const store of [
  $search,
  $packages,
  $endCursor,
  $packagesFetched,
  $packageId,
  $package,
  $packageLoading,
  $onlyReleases,
  $versions,
  $versionFilters,
  $versionChoices,
  $version,
  $versionLoading,
  $readme,
  $dependencies,
  $properties,
])
  (store as StoreWritable<unknown>).reset(sessionEnded);
