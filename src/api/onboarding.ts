import type {
  OnboardingView,
  PersonalizationView,
  QuickSetupType,
} from '../../server/modules/onboarding/service.ts';
import type { PersonalizationBody } from '../../server/modules/onboarding/personalization.ts';
import type { QuickSetupChoice } from '../../server/modules/onboarding/quick-setup-plan.ts';
import { call } from './client';

/** The plan the server creates from, so the console shows the very keys it will make. */
export {
  planQuickSetup,
  type PlannedRepository,
  type QuickSetupChoice,
} from '../../server/modules/onboarding/quick-setup-plan.ts';
export { ONBOARDING_MESSAGES } from '../../server/modules/onboarding/messages.ts';
export {
  DESIRED_FEATURES,
  PERSONALIZATION_MESSAGES,
  PURPOSES,
  ROLES,
  type PersonalizationAnswers,
} from '../../server/modules/onboarding/personalization.ts';
export type { OnboardingView, PersonalizationView, QuickSetupType };

/** Where an admin lands: the quick setup's state and this admin's wizard. */
export type LandingView = OnboardingView & { offerPersonalization?: boolean };

export interface QuickSetupRequest {
  prefix: string;
  packageTypes: QuickSetupChoice[];
}

export interface QuickSetupResult {
  info: string;
  repositories: Array<{ key: string; rclass: 'local' | 'remote' | 'virtual'; packageType: string }>;
}

/** The onboarding calls (docs/onboarding.md), admins only. */
export const onboardingApi = {
  /** `GET /ui/api/v1/system/onboarding`. */
  state: () => call<OnboardingView>('GET', '/system/onboarding'),
  skip: () =>
    call<OnboardingView>('PUT', '/system/onboarding', { json: { quickSetup: 'skipped' } }),
  /** `GET /ui/api/v1/ui/onboarding`: this admin's personalisation wizard. */
  personalization: () => call<PersonalizationView>('GET', '/ui/onboarding'),
  /** `PUT /ui/api/v1/ui/onboarding`: the answers, or a skip. */
  personalize: (body: PersonalizationBody) =>
    call<PersonalizationView>('PUT', '/ui/onboarding', { json: body }),
  /** Both states an admin's landing depends on, asked together. */
  landing: async (): Promise<LandingView> => {
    const [view, wizard] = await Promise.all([
      call<OnboardingView>('GET', '/system/onboarding'),
      call<PersonalizationView>('GET', '/ui/onboarding'),
    ]);
    return { ...view, offerPersonalization: wizard.offerPersonalization };
  },
  /** `GET /ui/api/v1/ui/onboarding/reposStates`: the package types offered. */
  types: () => call<{ repoStates: QuickSetupType[] }>('GET', '/ui/onboarding/reposStates'),
  create: (request: QuickSetupRequest) =>
    call<QuickSetupResult>('POST', '/ui/onboarding/createDefaultRepos', { json: request }),
};
