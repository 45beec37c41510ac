import { createEffect, createEvent, createStore, sample } from 'effector';
import { searchApi, type PackageSearchType } from './api';

/** The package search was chosen: the package types it offers are fetched once. */
export const packageSearchShown = createEvent();
export const packageTypesFx = createEffect(() => searchApi.packageTypes());

/** The package types with their fields (spec 02 §3); empty until fetched. */
export const $packageTypes = createStore<PackageSearchType[]>([]).on(
  packageTypesFx.doneData,
  (_, types) => types,
);

// when the package search is shown and the types are not there yet, fetch them
sample({
  clock: packageSearchShown,
  source: $packageTypes,
  filter: (types) => types.length === 0 && !packageTypesFx.pending.getState(),
  target: packageTypesFx,
});
