/** The texts of Depot's form widgets; the spec's wording where it has one (spec 03 §5). */
export const WIDGET_TEXTS = {
  showSecret: 'Show',
  hideSecret: 'Hide',
  /** On an edit form, a secret the server keeps and never sends back. */
  secretKept: 'Saved; leave empty to keep it',
  nextRuns: 'Next runs',
  browse: 'Browse…',
  browseFor: (label: string) => `Browse for ${label}`,
  pickDirectory: 'Select a Directory',
  selectDirectory: 'Select',
  cancel: 'Cancel',
  allowedDirectories: 'The directories the administrator allowed',
  directories: 'Directories',
  upOneLevel: '.. (up one level)',
  noSubdirectories: 'No directories here',
  moreDirectories: 'Only the first 1,000 directories are listed',
  antPatternsHelp: 'Comma-separated Ant patterns (*, **, ?), no leading slash',
  add: (item: string) => `Add ${item}`,
  remove: 'Remove',
  /** The choice that clears an optional select. */
  notSet: 'Not set',
  removeItem: (item: string) => `Remove ${item}`,
} as const;
