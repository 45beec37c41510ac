/** Messages of the package-type and layout calls, worded as in spec 03 §5 and §8. */
export const PACKAGE_TYPE_MESSAGES = {
  unsupportedRepoType: 'Unsupported repo type',
} as const;
