import { createEffect, createEvent, createStore, sample } from 'effector';
import { schemasApi } from '../../api/schemas';
import type { LoadedDescriptor, ScreenSummary } from '../../api/descriptor';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';

export const screensRequested = createEvent();
export const descriptorRequested = createEvent<string>();
/** Development: a file under schemas/ changed (Vite's watcher says so). */
export const schemasChanged = createEvent();

export const fetchScreensFx = createEffect(schemasApi.listScreens);
export const fetchDescriptorFx = createEffect(schemasApi.getScreen);
/**
 * The screen list again, and every descriptor already loaded that still exists: the
 * pages open now re-render from the edited files, keeping what was typed into a form.
 */
export const reloadSchemasFx = createEffect(async (loadedIds: string[]) => {
  const screens = await schemasApi.listScreens();
  const stillThere = loadedIds.filter((id) => screens.some((screen) => screen.id === id));
  const descriptors = await Promise.all(stillThere.map((id) => schemasApi.getScreen(id)));
  return { screens, descriptors: Object.fromEntries(descriptors.map((d) => [d.id, d])) };
});

/** The screens the server describes, for the sidebar and the route table. */
export const $screens = createStore<ScreenSummary[]>([])
  .on(fetchScreensFx.doneData, (_, screens) => screens)
  .on(reloadSchemasFx.doneData, (_, { screens }) => screens)
  .on(fetchScreensFx.fail, () => []);
export const $screensStatus = createStore<LoadStatus>('idle')
  .on(fetchScreensFx, () => 'loading')
  .on(fetchScreensFx.done, () => 'ready')
  .on(fetchScreensFx.fail, () => 'failed');

/** Full descriptors by id, fetched on first use. */
export const $descriptors = createStore<Record<string, LoadedDescriptor>>({})
  .on(fetchDescriptorFx.done, (all, { params, result }) => ({ ...all, [params]: result }))
  .on(reloadSchemasFx.doneData, (_, { descriptors }) => descriptors);
export const $descriptorErrors = createStore<Record<string, unknown>>({})
  .on(fetchDescriptorFx.fail, (all, { params, error }) => ({ ...all, [params]: error }))
  .on(fetchDescriptorFx, (all, id) =>
    Object.fromEntries(Object.entries(all).filter(([key]) => key !== id)),
  );

// when the screens are asked for, fetch the list
sample({ clock: screensRequested, target: fetchScreensFx });

// when the screen list changes (another user signed in), forget descriptors of the old one
$descriptors.reset(fetchScreensFx.done);

// when a screen's descriptor is needed and not loaded yet, fetch it
sample({
  clock: descriptorRequested,
  source: $descriptors,
  filter: (all, id) => !all[id],
  fn: (_, id) => id,
  target: fetchDescriptorFx,
});

// when the schemas change on disk (development), read the list and the open descriptors again
sample({
  clock: schemasChanged,
  source: $descriptors,
  fn: (all) => Object.keys(all),
  target: reloadSchemasFx,
});
