/**
 * The artifact search's texts (spec 02 §2 Artifact search results, §5, §8, §9). Messages the
 * spec quotes are verbatim; the UI and the tests read them from here.
 */
export const SEARCH_RESULTS_PATH = '/artifactSearchResults';

export const SEARCH_TYPES = [
  { id: 'quick', label: 'Quick' },
  { id: 'pkg', label: 'Package' },
  // The archive's own page (src/custom/retention); Quick stands in where it is off (spec 02 §4).
  { id: 'archive', label: 'Archive' },
  { id: 'property', label: 'Property' },
  { id: 'checksum', label: 'Checksum' },
  { id: 'class', label: 'Class' },
  { id: 'gavc', label: 'GAVC' },
  { id: 'trash', label: 'Trash' },
  // Spec 02 §2: the Remote search shows under its own display name; no project context.
  { id: 'remote', label: 'Upstreams' },
] as const;

/** Types that cannot run inside a project context (spec 02 §4): disabled when one is selected. */
export const NO_PROJECT_CONTEXT: readonly string[] = ['remote', 'trash'];
export type SearchType = (typeof SEARCH_TYPES)[number]['id'];

export const SEARCH_MESSAGES = {
  invalidChecksumLength: 'Invalid Checksum Length',
  showingFirst: (count: number) => `Showing first ${count} matches found`,
  found: (count: number) => `${count} ${count === 1 ? 'Artifact' : 'Artifacts'}`,
  noResults: 'No Matching Results Found',
  unavailable: (keys: string[]) => `These remote repositories did not answer: ${keys.join(', ')}`,
  deleted: (count: number) => `Deleted ${count} ${count === 1 ? 'artifact' : 'artifacts'}`,
};

export const SEARCH_LABELS = {
  title: 'Artifact Search',
  toolbarSearch: 'Quick search',
  toolbarScope: 'Search in',
  /** Spec 01 §2's scopes in its order; `archive` is its artifactoryRetention. */
  scopes: {
    packages: 'Packages',
    artifacts: 'Artifacts',
    builds: 'Builds',
    releaseBundles: 'Release Bundles',
    securityCompliance: 'Security & Compliance',
    archive: 'Archive',
    pipelines: 'Pipelines',
  },
  archiveName: 'Name, or an AQL query',
  type: 'Search type',
  name: 'Name',
  checksum: 'Checksum',
  propertyKey: 'Property key',
  propertyValue: 'Property value',
  className: 'Class name',
  classPath: 'Path in archive',
  excludeInnerClasses: 'Exclude inner classes',
  searchClassOnly: 'Search class files only',
  packageType: 'Package type',
  groupID: 'Group ID',
  artifactID: 'Artifact ID',
  version: 'Version',
  classifier: 'Classifier',
  repositories: 'Repositories',
  noRepositoryMatches: 'No repository matches',
  search: 'Search',
  loadMore: 'Load more',
  loadAll: 'Load all',
  recent: 'Recent searches',
  columns: {
    name: 'Name',
    path: 'Path',
    repository: 'Repository',
    modified: 'Modified',
    size: 'Size',
  },
  downloadSelected: 'Download',
  deleteSelected: 'Delete',
  cancel: 'Cancel',
  showInTree: 'Show in tree',
  confirmDelete: (count: number) =>
    `Delete ${count} selected ${count === 1 ? 'artifact' : 'artifacts'}?`,
};

/** How the package search names the package types the server lists by id. */
export const PACKAGE_TYPE_LABELS: Record<string, string> = {
  npm: 'npm',
  pypi: 'PyPI',
  maven: 'Maven',
  gradle: 'Gradle',
  ivy: 'Ivy',
  sbt: 'SBT',
};
