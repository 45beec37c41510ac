/**
 * The builds pages' texts (spec 02 §2 "Builds": routes and titles; §3 "Build"). Titles are
 * the spec's; the rest are Depot's words. UI and tests read them from here.
 */
export const BUILDS_PATH = '/builds';

/** A build's pages, each part encoded: names may hold `/` (Jenkins folders). */
export const buildPath = (
  name: string,
  number?: string,
  startTime?: number | string,
  tab?: string,
) =>
  [BUILDS_PATH, name, number, startTime === undefined ? undefined : String(startTime), tab]
    .filter((part): part is string => part !== undefined)
    .map((part, index) => (index === 0 ? part : encodeURIComponent(part)))
    .join('/');

export const BUILD_TITLES = {
  list: 'Builds',
  versions: 'Builds Versions',
  details: 'Builds Details',
};

export const BUILD_TABS = [
  { id: 'general', label: 'General Info' },
  { id: 'modules', label: 'Published Modules' },
  { id: 'environment', label: 'Environment' },
  { id: 'issues', label: 'Issues' },
  { id: 'diff', label: 'Diff' },
  { id: 'history', label: 'Release History' },
  { id: 'json', label: 'Build Info JSON' },
] as const;
export type BuildTabId = (typeof BUILD_TABS)[number]['id'];

export const BUILD_LABELS = {
  search: 'Search builds by name',
  searchButton: 'Search',
  name: 'Build Name',
  lastBuildTime: 'Last Build Time',
  project: 'Project',
  number: 'Build Number',
  time: 'Time',
  status: 'Status',
  ciLink: 'CI Server',
  openCi: 'Open',
  loadMore: 'Load more',
  deleteSelected: 'Delete Selected',
  deleteAll: 'Delete All Builds',
  deleteVersion: 'Delete',
  promote: 'Promote',
  cancel: 'Cancel',
  confirmDelete: 'Delete',
  deleteTitle: 'Delete Builds',
  deleteText: (count: number) =>
    `Are you sure you want to delete ${count} ${count === 1 ? 'build' : 'builds'}?`,
  deleteAllText: (name: string) => `Are you sure you want to delete every build of '${name}'?`,
  tabs: 'Build details',
  module: 'Module',
  artifacts: 'Artifacts',
  dependencies: 'Dependencies',
  artifactCount: 'Artifacts',
  dependencyCount: 'Dependencies',
  fileName: 'Name',
  type: 'Type',
  scopes: 'Scopes',
  repoPath: 'Repository Path',
  notStored: 'Not stored here',
  envVariables: 'Environment Variables',
  systemVariables: 'System Properties',
  key: 'Key',
  value: 'Value',
  issueKey: 'Key',
  summary: 'Summary',
  compareWith: 'Compare with build',
  compare: 'Compare',
  diffNew: 'New',
  diffUpdated: 'Updated',
  diffRemoved: 'Removed',
  diffUnchanged: 'Unchanged',
  properties: 'Properties',
  comment: 'Comment',
  repository: 'Repository',
  user: 'User',
  targetRepo: 'Target Repository',
  promoteStatus: 'Target Status',
  copy: 'Copy artifacts (instead of move)',
  withDependencies: 'Include dependencies',
  dryRun: 'Dry run',
  promoteTitle: 'Promote Build',
  general: {
    name: 'Name',
    number: 'Number',
    type: 'Type',
    started: 'Started',
    duration: 'Duration',
    agent: 'Agent',
    buildAgent: 'Build Agent',
    principal: 'Principal',
    url: 'CI Server URL',
    vcsRevision: 'VCS Revision',
    vcsUrl: 'VCS URL',
    project: 'Project',
  },
};

export const BUILD_MESSAGES = {
  none: 'No builds found',
  noModules: 'This build published no modules.',
  noProperties: 'No properties.',
  noIssues: 'This build lists no issues.',
  noHistory: 'This build was never promoted.',
  noOther: 'There is no other build of this name to compare with.',
  loadFailed: 'Could not load the build',
  deleteFailed: 'Could not delete the builds',
  promoteFailed: 'Could not promote the build',
  promoted: 'The build was promoted',
  dryRunDone: 'Dry run: nothing was changed',
  targetRequired: 'You must fill in this field',
};
