import type { RepoKind } from '../../api/repositories';

/**
 * Texts of the repository screens. The quoted validation and confirmation messages are
 * spec 03 §5 verbatim; UI and tests both read them from here.
 */
export const REPO_KEY_MESSAGES = {
  required: 'Setting a name is required',
  startsWithNumber: 'Name cannot start with a number',
  illegalCharacters: 'Name contains illegal characters',
  dockerLowercase: 'Docker repository key must be in lowercase',
  localCacheSuffix: 'Cannot create local repository with "-cache" ending',
} as const;

export const REQUIRED_FIELD_MESSAGE = 'You must fill in this field';
export const DISCARD_CHANGES_TEXT = 'Are you sure you want to discard changes?';
export const deleteRepositoryText = (repoKey: string) =>
  `Are you sure you want to delete the ${repoKey} repository? All artifacts will be permanently deleted.`;

export const KIND_LABELS: Record<RepoKind, string> = {
  local: 'Local',
  remote: 'Remote',
  virtual: 'Virtual',
};

export const REPO_LABELS = {
  title: 'Repositories',
  menuGroup: 'Repositories',
  tabs: 'Repository types',
  newRepository: (kind: RepoKind) => `New ${KIND_LABELS[kind]} Repository`,
  editRepository: (key: string) => `Edit Repository ${key}`,
  selectPackageType: 'Select Package Type',
  empty: (kind: RepoKind) => `No ${kind} repositories yet.`,
  repoKey: 'Repository Key',
  packageType: 'Package Type',
  layout: 'Repository Layout',
  url: 'URL',
  members: 'Included Repositories',
  files: 'Files',
  size: 'Size',
  actions: 'Actions',
  delete: 'Delete',
  deleteTitle: 'Delete Repository',
  deleteRow: (key: string) => `Delete ${key}`,
  general: 'General',
  basic: 'Basic',
  remote: 'Remote',
  virtual: 'Virtual',
  advanced: 'Advanced',
  publicDescription: 'Public Description',
  internalDescription: 'Internal Description',
  includesPattern: 'Include Patterns',
  excludesPattern: 'Exclude Patterns',
  environment: 'Environment',
  maven: 'Maven Settings',
  handleReleases: 'Handle Releases',
  handleSnapshots: 'Handle Snapshots',
  maxUniqueSnapshots: 'Max Unique Snapshots',
  maxUniqueSnapshotsHelp:
    'Snapshot builds kept per version; older ones go at the next deploy. 0 keeps them all.',
  suppressPomConsistencyChecks: 'Suppress POM Consistency Checks',
  username: 'User Name',
  password: 'Password / Access Token',
  offline: 'Offline',
  missedRetrievalCachePeriodSecs: 'Missed Retrieval Cache Period (Sec)',
  socketTimeoutMillis: 'Socket Timeout (ms)',
  test: 'Test',
  available: 'Available Repositories',
  included: 'Selected Repositories',
  add: 'Add',
  remove: 'Remove',
  moveUp: 'Move Up',
  moveDown: 'Move Down',
  defaultDeploymentRepo: 'Default Deployment Repository',
  none: '(none)',
  allowContentBrowsing: 'Allow Content Browsing',
  allowContentBrowsingWarning:
    'Files such as HTML and SVG will be shown in the browser, on this server\u2019s own address, without a sandbox: a script in a deployed file runs with the rights of whoever views it. Turn this on only for repositories whose every deployer you trust.',
  save: 'Save',
  // Spec 03, Set Me Up notices: saving a remote Docker repository without credentials.
  anonymousDockerTitle: 'Are you sure?',
  anonymousDockerText:
    'No credentials are set: Docker Hub, or whichever registry this repository proxies, will be proxied anonymously, and public registries limit anonymous pulls.',
  cancel: 'Cancel',
  back: 'Back',
  loading: 'Loading…',
  checkingKey: 'Checking…',
  layouts: 'Layouts',
} as const;

export const REPOSITORIES_PATH = '/admin/repositories';
export const listPath = (kind: RepoKind) => `${REPOSITORIES_PATH}/${kind}`;
export const newRepositoryPath = (kind: RepoKind) => `${listPath(kind)}/new`;
export const editRepositoryPath = (kind: RepoKind, key: string) =>
  `${listPath(kind)}/${encodeURIComponent(key)}/edit`;

/** How long the key check waits after the last keystroke before asking the server. */
export const KEY_CHECK_DELAY_MS = 300;
