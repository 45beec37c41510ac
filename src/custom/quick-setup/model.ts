import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import {
  onboardingApi,
  planQuickSetup,
  type QuickSetupResult,
  type QuickSetupType,
} from '../../api/onboarding';
import { navigateFx } from '../../shell/navigation/model';
import { quickSetupSettled } from '../../shell/onboarding/model';
import { ADMIN_HOME_PATH } from '../../shell/messages';
import { QUICK_SETUP_LABELS as L } from './messages';

export type QuickSetupStep = 'select' | 'name' | 'done';

export const pageMounted = createEvent();
export const typeToggled = createEvent<string>();
export const prefixChanged = createEvent<string>();
export const upstreamChanged = createEvent<{ packageType: string; url: string }>();
export const nextClicked = createEvent();
export const backClicked = createEvent();
export const createClicked = createEvent();
export const skipClicked = createEvent();
export const finishClicked = createEvent();

export const fetchTypesFx = createEffect(onboardingApi.types);
export const createReposFx = createEffect(onboardingApi.create);
export const skipFx = createEffect(onboardingApi.skip);

export const $types = createStore<QuickSetupType[]>([]).on(
  fetchTypesFx.doneData,
  (_, answer) => answer.repoStates,
);
export const $selected = createStore<string[]>([])
  .on(typeToggled, (selected, type) =>
    selected.includes(type) ? selected.filter((t) => t !== type) : [...selected, type],
  )
  .reset(pageMounted);
export const $prefix = createStore('')
  .on(prefixChanged, (_, prefix) => prefix)
  .reset(pageMounted);
/** Each type's upstream: the server's suggestion until the admin edits it. */
export const $upstreams = createStore<Record<string, string>>({})
  .on(fetchTypesFx.doneData, (_, answer) =>
    Object.fromEntries(answer.repoStates.map((type) => [type.packageType, type.upstreamUrl])),
  )
  .on(upstreamChanged, (urls, { packageType, url }) => ({ ...urls, [packageType]: url }));
export const $step = createStore<QuickSetupStep>('select')
  .on(backClicked, () => 'select')
  .on(createReposFx.done, () => 'done')
  .reset(pageMounted);
export const $created = createStore<QuickSetupResult['repositories']>([])
  .on(createReposFx.doneData, (_, result) => result.repositories)
  .reset(pageMounted);
/** What went wrong, in the server's words (a clash names the keys), else the page's. */
export const $error = createStore<string | null>(null)
  .on(fetchTypesFx.failData, (_, error) => errorMessage(error, L.loadFailed))
  .on(createReposFx.failData, (_, error) => errorMessage(error, L.createFailed))
  .on(skipFx.failData, (_, error) => errorMessage(error, L.skipFailed))
  .reset([pageMounted, createReposFx, skipFx, backClicked, nextClicked]);
export const $pending = combine(createReposFx.pending, skipFx.pending, (a, b) => a || b);

const $choices = combine($selected, $upstreams, $types, (selected, upstreams, types) =>
  // In the catalogue's order, whatever the order of the clicks.
  types
    .filter((type) => selected.includes(type.packageType))
    .map((type) => ({
      packageType: type.packageType,
      upstreamUrl: upstreams[type.packageType] ?? '',
    })),
);
/** The repositories the Create button makes, as the server will name them. */
export const $plan = combine($prefix, $choices, (prefix, choices) =>
  planQuickSetup(prefix.trim(), choices),
);

// when the page opens, load the package types offered
sample({ clock: pageMounted, target: fetchTypesFx });

// when Next is clicked with a type selected, go to naming
sample({
  clock: nextClicked,
  source: $selected,
  filter: (selected) => selected.length > 0,
  fn: () => 'name' as const,
  target: $step,
});

// when Create is clicked, create every repository in one call
sample({
  clock: createClicked,
  source: { prefix: $prefix, packageTypes: $choices, pending: $pending },
  filter: ({ pending }) => !pending,
  fn: ({ prefix, packageTypes }) => ({ prefix: prefix.trim(), packageTypes }),
  target: createReposFx,
});

// when Skip is clicked, record it
sample({
  clock: skipClicked,
  source: $pending,
  filter: (p) => !p,
  fn: () => undefined,
  target: skipFx,
});

// when the repositories were made or the quick setup skipped, it is not offered again
sample({ clock: [createReposFx.done, skipFx.done], target: quickSetupSettled });

// when skipped or finished, go to the admin's landing
sample({
  clock: [skipFx.done, finishClicked],
  fn: () => ({ to: ADMIN_HOME_PATH }),
  target: navigateFx,
});
