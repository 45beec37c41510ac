import { createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import {
  supportBundlesApi,
  type BundleRequest,
  type SupportBundle,
} from '../../api/supportBundles';
import { notificationShown } from '../../shell/notifications/model';
import { REFRESH_DELAY_MS, SUPPORT_ZONE_LABELS as L } from './messages';

export const pageMounted = createEvent();
export const pageUnmounted = createEvent();
export const createOpened = createEvent();
export const createClosed = createEvent();
export const createSubmitted = createEvent<BundleRequest>();
export const deleteClicked = createEvent<SupportBundle>();
export const deleteConfirmed = createEvent();
export const deleteCancelled = createEvent();

export const fetchBundlesFx = createEffect(supportBundlesApi.list);
export const generateBundleFx = createEffect(supportBundlesApi.generate);
export const deleteBundleFx = createEffect(supportBundlesApi.remove);
/** The pause before the list is asked again while a bundle is being made. */
export const refreshDelayFx = createEffect(
  () => new Promise<void>((resolve) => setTimeout(resolve, REFRESH_DELAY_MS)),
);

const inProgress = (bundles: SupportBundle[]) =>
  bundles.some((bundle) => bundle.statusClass === 'in-progress');

export const $mounted = createStore(false)
  .on(pageMounted, () => true)
  .on(pageUnmounted, () => false);

/** Newest first, as the server lists them; a bundle just started shows at once, in progress. */
export const $bundles = createStore<SupportBundle[]>([])
  .on(fetchBundlesFx.doneData, (_, bundles) => bundles)
  .on(generateBundleFx.doneData, (bundles, started) => [
    started,
    ...bundles.filter((bundle) => bundle.id !== started.id),
  ]);
export const $loaded = createStore(false).on(fetchBundlesFx.finally, () => true);

export const $createOpen = createStore(false)
  .on(createOpened, () => true)
  .on([createClosed, generateBundleFx.done], () => false);
/** The server's refusal of the form (a bad date), shown in the dialog. */
export const $createError = createStore<string | null>(null)
  .on(generateBundleFx.failData, (_, error) => errorMessage(error, L.createFailed))
  .reset([createOpened, createSubmitted]);
export const $creating = generateBundleFx.pending;

export const $deleting = createStore<SupportBundle | null>(null)
  .on(deleteClicked, (_, bundle) => bundle)
  .on([deleteCancelled, deleteBundleFx.finally], () => null);

// The page opens, or a bundle was deleted: list the bundles (spec 02: a delete refetches).
sample({ clock: [pageMounted, deleteBundleFx.done], target: fetchBundlesFx });

// While a bundle is being made, ask again every few seconds, until the page closes.
sample({
  clock: [fetchBundlesFx.done, generateBundleFx.done],
  source: { bundles: $bundles, mounted: $mounted, waiting: refreshDelayFx.pending },
  filter: ({ bundles, mounted, waiting }) => mounted && !waiting && inProgress(bundles),
  target: refreshDelayFx,
});
sample({ clock: refreshDelayFx.done, filter: $mounted, target: fetchBundlesFx });

sample({ clock: createSubmitted, target: generateBundleFx });
sample({
  clock: generateBundleFx.done,
  fn: () => ({ kind: 'success' as const, text: L.started }),
  target: notificationShown,
});

sample({
  clock: deleteConfirmed,
  source: $deleting,
  filter: (bundle): bundle is SupportBundle => bundle !== null,
  fn: (bundle) => bundle!.id,
  target: deleteBundleFx,
});
sample({
  clock: deleteBundleFx.done,
  fn: () => ({ kind: 'success' as const, text: L.deleted }),
  target: notificationShown,
});
sample({
  clock: deleteBundleFx.failData,
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error, L.deleteFailed) }),
  target: notificationShown,
});
