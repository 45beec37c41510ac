import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import { onboardingApi, type PersonalizationAnswers } from '../../api/onboarding';
import { landingPathFor } from '../../shell/access';
import { navigateFx } from '../../shell/navigation/model';
import { $offerQuickSetup, personalizationSettled } from '../../shell/onboarding/model';
import { ONBOARDING_LABELS as L } from './messages';

/** The wizard's steps, in the spec's order (spec 03 "Onboarding"). */
export const STEPS = ['init', 'purpose', 'details', 'features'] as const;
export type WizardStep = (typeof STEPS)[number];
export type Draft = Partial<PersonalizationAnswers>;
type FieldErrors = Partial<Record<keyof PersonalizationAnswers, string>>;

export const pageMounted = createEvent();
export const fieldChanged = createEvent<Draft>();
export const featureToggled = createEvent<PersonalizationAnswers['desiredFeatures'][number]>();
export const nextClicked = createEvent();
export const backClicked = createEvent();
export const skipClicked = createEvent();

export const saveFx = createEffect(onboardingApi.personalize);

export const $draft = createStore<Draft>({ desiredFeatures: [] })
  .on(fieldChanged, (draft, change) => ({ ...draft, ...change }))
  .on(featureToggled, (draft, feature) => {
    const chosen = draft.desiredFeatures ?? [];
    return {
      ...draft,
      desiredFeatures: chosen.includes(feature)
        ? chosen.filter((f) => f !== feature)
        : [...chosen, feature],
    };
  })
  .reset(pageMounted);

export const $step = createStore<WizardStep>('init')
  .on(backClicked, (step) => STEPS[Math.max(0, STEPS.indexOf(step) - 1)])
  .reset(pageMounted);

/** A step is complete when its fields are valid (spec 03 §5 "Onboarding"). */
export function stepErrors(step: WizardStep, draft: Draft): FieldErrors {
  const blank = (value?: string) => !value?.trim();
  const errors: FieldErrors = {};
  if (step === 'purpose' && !draft.purpose) errors.purpose = L.required;
  if (step === 'details') {
    if (!draft.role) errors.role = L.required;
    if (draft.role === 'Other' && blank(draft.otherRole)) errors.otherRole = L.required;
    if (draft.purpose === 'Commercial' && blank(draft.companyName)) errors.companyName = L.required;
  }
  if (step === 'features' && (draft.desiredFeatures ?? []).length === 0)
    errors.desiredFeatures = L.noFeature;
  return errors;
}

/** Shown only after Next was tried on the step, and cleared when the admin edits. */
export const $errors = createStore<FieldErrors>({}).reset([
  pageMounted,
  fieldChanged,
  featureToggled,
  backClicked,
]);
export const $saveError = createStore<string | null>(null)
  .on(saveFx.failData, (_, error) => errorMessage(error, L.saveFailed))
  .reset([pageMounted, saveFx, backClicked]);
export const $pending = saveFx.pending;

const $attempt = combine($step, $draft, (step, draft) => ({
  step,
  draft,
  errors: stepErrors(step, draft),
}));
const isValid = ({ errors }: { errors: FieldErrors }) => Object.keys(errors).length === 0;

// when Next is clicked on an incomplete step, show why
sample({
  clock: nextClicked,
  source: $attempt,
  filter: (attempt) => !isValid(attempt),
  fn: ({ errors }) => errors,
  target: $errors,
});

// when Next is clicked on a complete step that is not the last, go on
sample({
  clock: nextClicked,
  source: $attempt,
  filter: (attempt) => isValid(attempt) && attempt.step !== 'features',
  fn: ({ step }) => STEPS[STEPS.indexOf(step) + 1],
  target: $step,
});

// when the last step is complete, send the answers
sample({
  clock: nextClicked,
  source: { attempt: $attempt, pending: $pending },
  filter: ({ attempt, pending }) => isValid(attempt) && attempt.step === 'features' && !pending,
  fn: ({ attempt }) => attempt.draft as PersonalizationAnswers,
  target: saveFx,
});

// when Skip is clicked, record the skip
sample({
  clock: skipClicked,
  source: $pending,
  filter: (pending) => !pending,
  fn: () => ({ skipped: true }),
  target: saveFx,
});

// when answered or skipped, the wizard is not offered again; go on to the quick setup
// while it is offered, else to the admin's landing
sample({ clock: saveFx.done, target: personalizationSettled });
sample({
  clock: saveFx.done,
  source: $offerQuickSetup,
  fn: (offer) => ({ to: landingPathFor(offer === true), replace: true }),
  target: navigateFx,
});
