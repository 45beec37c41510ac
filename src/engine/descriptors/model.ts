import { createEffect, createEvent, createStore, sample } from 'effector';
import { schemasApi } from '../../api/schemas';
import type { ScreenDescriptor, ScreenSummary } from '../../api/descriptor';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';

export const screensRequested = createEvent();
export const descriptorRequested = createEvent<string>();

export const fetchScreensFx = createEffect(schemasApi.listScreens);
export const fetchDescriptorFx = createEffect(schemasApi.getScreen);

/** The screens the server describes, for the sidebar and the route table. */
export const $screens = createStore<ScreenSummary[]>([])
  .on(fetchScreensFx.doneData, (_, screens) => screens)
  .on(fetchScreensFx.fail, () => []);
export const $screensStatus = createStore<LoadStatus>('idle')
  .on(fetchScreensFx, () => 'loading')
  .on(fetchScreensFx.done, () => 'ready')
  .on(fetchScreensFx.fail, () => 'failed');

/** Full descriptors by id, fetched on first use. */
export const $descriptors = createStore<Record<string, ScreenDescriptor>>({}).on(
  fetchDescriptorFx.done,
  (all, { params, result }) => ({ ...all, [params]: result }),
);
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
