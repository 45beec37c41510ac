/**
 * The builds pages' texts (spec 02 §2 "Builds": routes and titles; §3 "Build"). Titles are
 * the spec's; the rest are Depot's words. UI and tests read them from here.
 */
import { BUILDS_PATH, buildPath } from '../../components/buildLinks';

export { BUILDS_PATH, buildPath };
/** The spec's route name for the same pages (spec 01 §2): redirected to BUILDS_PATH. */
export const BUILDS_NEW_PATH = '/builds-new';

/** The builds screen's descriptor (schemas/screens/builds.screen.json): its dialogs and lists. */
export const SCREEN_ID = 'builds';

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
  { id: 'permissions', label: 'Effective Permissions' },
] as const;
/** Tabs only administrators see (their calls list every user). */
export const ADMIN_BUILD_TABS: readonly string[] = ['permissions'];
export type BuildTabId = (typeof BUILD_TABS)[number]['id'];

/**
 * The builds list's and the versions' columns, Delete Selected and its confirmation are the
 * descriptor's (schemas/screens/builds.screen.json, `lists`), which the engine's grid draws.
 */
export const BUILD_LABELS = {
  search: 'Search builds by name',
  searchButton: 'Search',
  time: 'Time',
  status: 'Status',
  loadMore: 'Load more',
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
};
