import { createEffect, createEvent, createStore, sample } from 'effector';
import { packagesApi, type PackageNode, type PackageSearch, type VersionNode } from './api';

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
/** False until a fetch completes (spec 02 §4: packagesFetched). */
export const $packagesFetched = createStore(false).on(listFx.finally, () => true);

// When the list opens or a search is made, fetch the first page for the current search.
sample({ clock: listOpened, source: $search, target: listFx });
sample({ clock: searchSubmitted, target: listFx });
// When more is asked for and there is more, fetch the next page.
sample({
  clock: moreRequested,
  source: { search: $search, after: $endCursor },
  filter: ({ after }) => after !== null,
  fn: ({ search, after }) => ({ search, after: after! }),
  target: moreFx,
});

// ---- A package ----
export const packageOpened = createEvent<string>();
export const onlyReleasesToggled = createEvent<boolean>();

export const packageFx = createEffect((id: string) => packagesApi.get(id));
export const versionsFx = createEffect(
  ({ id, onlyReleases }: { id: string; onlyReleases: boolean }) =>
    packagesApi.versions(id, onlyReleases),
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

// When a package opens, fetch it and its versions.
sample({ clock: packageOpened, target: packageFx });
sample({
  clock: [packageOpened, onlyReleasesToggled],
  source: { id: $packageId, onlyReleases: $onlyReleases },
  filter: ({ id }) => id !== null,
  fn: ({ id, onlyReleases }) => ({ id: id!, onlyReleases }),
  target: versionsFx,
});

// ---- A version ----
export const versionOpened = createEvent<{ packageId: string; version: string }>();

export const versionFx = createEffect(
  ({ packageId, version }: { packageId: string; version: string }) =>
    packagesApi.version(packageId, version),
);
export const readmeFx = createEffect(
  async ({ packageId, version }: { packageId: string; version: string }) => {
    const key = parseId(packageId);
    return key ? (await packagesApi.readme(key.type, key.name, version)).readme : '';
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
export const $readme = createStore('')
  .on(readmeFx.doneData, (_, readme) => readme)
  .reset(versionOpened);
export const $properties = createStore<{ key: string; values: string[] }[]>([])
  .on(propertiesFx.doneData, (_, properties) => properties)
  .reset(versionOpened);

// When a version opens, fetch it, its readme and its properties.
sample({ clock: versionOpened, target: [versionFx, readmeFx, propertiesFx] });

export { parseId as parsePackageId };
