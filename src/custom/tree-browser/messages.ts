/**
 * The artifact browser's texts. Empty states, the not-found suffix and 'Could not open
 * node' are spec 02 §2, §4 and §8 verbatim; UI and tests read them from here.
 */
export const TREE_ROUTE_BASE = '/repos';
export const DEFAULT_BROWSER = 'tree';
export const DEFAULT_TAB = 'General';
export const TREE_PATH = `${TREE_ROUTE_BASE}/${DEFAULT_BROWSER}/${DEFAULT_TAB}`;

export const TREE_MESSAGES = {
  notFoundSuffix: 'could not be found.',
  notFound: (segment: string) => `${segment} could not be found.`,
  couldNotOpen: 'Could not open node',
  noResponse: 'No response received from server',
  noMatches: 'No Matching Results Found',
  noMatchesHint: 'Try different keywords and check your spelling',
  noFavorites: 'No Favorites Added Yet!',
  noFavoritesHint: 'Mark a repository with its star to keep it here.',
  noRepositories: 'There are no repositories to browse yet.',
  generalFailed: 'Could not load the node information',
};

export const TREE_LABELS = {
  title: 'Artifacts',
  menuGroup: 'Artifactory',
  tree: 'Repository tree',
  trashTree: 'Trash can',
  details: 'Details',
  loading: 'Loading…',
  loadingMore: 'Loading more…',
  refresh: 'Refresh',
  compacted: 'Compact folders',
  favoritesOnly: 'Favorites only',
  addFavorite: (key: string) => `Add ${key} to favorites`,
  removeFavorite: (key: string) => `Remove ${key} from favorites`,
  sortBy: 'Sort by',
  sortOptions: { repoType: 'Repository type', repoKey: 'Repository key' },
  filter: 'Filter',
  packageTypes: 'Package types',
  repositoryTypes: 'Repository types',
  clearFilters: 'Clear filters',
  rows: (count: number) => `${count.toLocaleString('en-US')} rows`,
  tabs: {
    General: 'General',
    EffectivePermission: 'Effective Permissions',
    Properties: 'Properties',
    Watch: 'Watchers',
    ViewSource: 'View Source',
    PomView: 'Pom View',
    GeneralXml: 'XML View',
    Builds: 'Builds',
  } as Record<string, string>,
  info: {
    name: 'Name',
    repositoryPath: 'Repository Path',
    packageType: 'Package Type',
    repoType: 'Repository Type',
    size: 'Size',
    mimeType: 'Type',
    created: 'Created',
    lastModified: 'Last Modified',
    createdBy: 'Deployed By',
    modifiedBy: 'Modified By',
    description: 'Description',
    url: 'URL',
    includesPattern: 'Include Patterns',
    excludesPattern: 'Exclude Patterns',
    repositories: 'Included Repositories',
    artifactsCount: 'Artifact Count',
    artifactSize: 'Artifacts Size',
  },
  checksums: 'Checksums',
  download: 'Download',
  countArtifacts: 'Show',
};

export const REPO_TYPE_LABELS: Record<string, string> = {
  local: 'Local',
  remote: 'Remote',
  virtual: 'Virtual',
};
