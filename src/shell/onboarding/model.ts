import { createEffect, createEvent, createStore, sample } from 'effector';
import { onboardingApi } from '../../api/onboarding';
import { navigateFx } from '../navigation/model';
import { landingPathFor } from '../access';
import { fetchCurrentUserFx, loggedOut, signedIn, $returnTo } from '../session/model';

/** The quick setup was done or skipped in this console: it is not offered again. */
export const quickSetupSettled = createEvent();

/** `/` opened: an admin's landing needs the onboarding state, if the console has none yet. */
export const homeOpened = createEvent();

/** This admin answered or skipped the personalisation wizard: it is not offered again. */
export const personalizationSettled = createEvent();

export const fetchOnboardingFx = createEffect(onboardingApi.landing);
/** An admin who signed in with no page to return to: where to land depends on onboarding. */
export const landAdminFx = createEffect(onboardingApi.landing);

/**
 * Whether an admin's landing is the quick setup (GET /system/onboarding); null until asked.
 * A failed ask lands on the topology: the quick setup stays in the quick actions menu.
 */
export const $offerQuickSetup = createStore<boolean | null>(null)
  .on([fetchOnboardingFx.doneData, landAdminFx.doneData], (_, view) => view.offerQuickSetup)
  .on([fetchOnboardingFx.fail, landAdminFx.fail], () => false)
  .on(quickSetupSettled, () => false)
  .reset(loggedOut);

/** Whether this admin's landing is the personalisation wizard; false when unknown. */
export const $offerPersonalization = createStore(false)
  .on(
    [fetchOnboardingFx.doneData, landAdminFx.doneData],
    (_, view) => view.offerPersonalization === true,
  )
  .on(personalizationSettled, () => false)
  .reset(loggedOut);

// when the console starts with an admin signed in, ask whether the quick setup is offered
sample({
  clock: fetchCurrentUserFx.doneData,
  filter: (user) => user.admin === true && !user.anonymous,
  target: fetchOnboardingFx,
});

// when `/` opens before the console knows the state (an admin signed in to a remembered
// page), ask
sample({
  clock: homeOpened,
  source: { offer: $offerQuickSetup, pending: fetchOnboardingFx.pending },
  filter: ({ offer, pending }) => offer === null && !pending,
  fn: () => undefined,
  target: fetchOnboardingFx,
});

// when an admin signs in with no page to go back to, ask, then land
sample({
  clock: signedIn,
  source: $returnTo,
  filter: (returnTo, user) => returnTo === null && user.admin === true,
  fn: () => undefined,
  target: landAdminFx,
});
sample({
  clock: landAdminFx.finally,
  source: { offer: $offerQuickSetup, personalize: $offerPersonalization },
  fn: ({ offer, personalize }) => ({
    to: landingPathFor(offer === true, personalize),
    replace: true,
  }),
  target: navigateFx,
});
