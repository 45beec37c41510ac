import { ONBOARDING_MESSAGES } from '../../api/onboarding';

/** The quick setup's texts; the success title and prefix hint are spec 03's, from the server. */
export const QUICK_SETUP_LABELS = {
  title: 'Quick Setup',
  intro:
    'Create a local, a remote and a virtual repository for each package type your teams use. You can add more repositories later.',
  steps: ['Select package types', 'Name repositories'] as const,
  stepOf: (index: number, count: number) => `Step ${index + 1} of ${count}`,
  packageTypes: 'Package types',
  existing: 'repositories of this type exist',
  prefix: 'Repository prefix',
  prefixHint: ONBOARDING_MESSAGES.prefixHint,
  upstream: (label: string) => `${label} remote URL`,
  preview: 'Repositories to create',
  key: 'Repository key',
  kind: 'Type',
  project: 'Project',
  /**
   * Spec 03 §3's default project name. Depot stores no default project: the repositories the
   * quick setup creates belong to no project (instance-wide, seen in the "All" context), which
   * is what the spec's default project is (docs/onboarding.md).
   */
  defaultProject: 'Default Project',
  skip: 'Skip',
  next: 'Next',
  back: 'Back',
  create: 'Create',
  creating: 'Creating…',
  created: ONBOARDING_MESSAGES.created,
  createdList: 'Created repositories',
  finish: 'Go to Topology',
  loading: 'Loading…',
  loadFailed: 'Failed to load the package types',
  createFailed: 'Failed to create the repositories',
  skipFailed: 'Failed to skip the quick setup',
} as const;
