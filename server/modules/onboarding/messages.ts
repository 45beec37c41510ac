/**
 * The onboarding texts; the quoted ones are spec 03 "Onboarding" verbatim (the success title,
 * and the prefix hint of the quick setup's naming step).
 */
export const ONBOARDING_MESSAGES = {
  created: 'All repositories were created successfully',
  prefixHint: 'The repository prefix must be a unique prefix identifier',
  prefixRequired: 'You must fill in this field',
  noPackageTypes: 'Select at least one package type',
  notOffered: (type: string) => `The quick setup does not create ${type} repositories`,
  twice: (type: string) => `Package type ${type} is selected twice`,
  skipped: 'The quick setup was skipped',
} as const;
