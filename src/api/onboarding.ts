import type { OnboardingView, QuickSetupType } from '../../server/modules/onboarding/service.ts';
import type { QuickSetupChoice } from '../../server/modules/onboarding/quick-setup-plan.ts';
import { call } from './client';

/** The plan the server creates from, so the console shows the very keys it will make. */
export {
  planQuickSetup,
  type PlannedRepository,
  type QuickSetupChoice,
} from '../../server/modules/onboarding/quick-setup-plan.ts';
export { ONBOARDING_MESSAGES } from '../../server/modules/onboarding/messages.ts';
export type { OnboardingView, QuickSetupType };

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
  /** `GET /ui/api/v1/ui/onboarding/reposStates`: the package types offered. */
  types: () => call<{ repoStates: QuickSetupType[] }>('GET', '/ui/onboarding/reposStates'),
  create: (request: QuickSetupRequest) =>
    call<QuickSetupResult>('POST', '/ui/onboarding/createDefaultRepos', { json: request }),
};
