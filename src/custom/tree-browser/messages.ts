/**
 * The artifact browser's texts. Empty states, the not-found suffix and 'Could not open
 * node' are spec 02 §2, §4 and §8 verbatim; UI and tests read them from here.
 */
import { TREE_ROUTE_BASE } from '../../components/treeLinks';
import { EFFECTIVE_PERMISSION_LABELS } from '../../components/EffectivePermissionsTable';

export { TREE_ROUTE_BASE };
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
  resizePanes: 'Resize the tree and the details',
  resizeTrash: 'Resize the tree and the trash can',
  title: 'Artifacts',
  menuGroup: 'Depot',
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
    PackageJson: 'package.json',
    Builds: 'Builds',
    DockerV2Info: 'Docker Info',
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
    downloadCount: 'Downloads',
    lastDownloaded: 'Last Downloaded',
    lastDownloadedBy: 'Last Downloaded By',
    downloadPath: 'Download',
  },
  checksums: 'Checksums',
  fixChecksums: 'Compute MD5',
  md5NotComputed: 'Not computed at upload',
  fixChecksumsHint:
    'Depot computes MD5 at upload only when the client sends one, to keep uploads fast. Computing it now reads the file once and checks the other checksums too.',
  countArtifacts: 'Show',
};

/** Node actions (spec 02 §4); the spec names them, the wording of their dialogs is Depot's. */
export const ACTION_LABELS = {
  names: {
    download: 'Download',
    downloadfolder: 'Download Folder',
    copy: 'Copy',
    move: 'Move',
    restore: 'Restore',
    delete: 'Delete',
    emptytrash: 'Empty Trash',
    watch: 'Watch',
    unwatch: 'Unwatch',
    zap: 'Zap Caches',
    zapVirtual: 'Zap Caches',
    calculateIndex: 'Recalculate Index',
    deleteversions: 'Delete Versions',
    view: 'View',
  } as Record<string, string>,
  viewTitle: (name: string) => `View ${name}`,
  close: 'Close',
  deleteVersionsTitle: (folder: string) => `Delete Versions of ${folder}`,
  deleteVersionsConfirm: (count: number) =>
    count === 0 ? 'Delete' : `Delete ${count} ${count === 1 ? 'Version' : 'Versions'}`,
  deleteVersionsHint:
    "Each version's folders go to the Trash Can when it is on, where they can be restored.",
  noVersions: 'No versions were found below this folder.',
  selectAllVersions: 'Select all versions',
  groupId: 'Group ID',
  version: 'Version',
  directoriesCount: 'Folders',
  calculatingIndex: (repoKey: string) =>
    `Calculating the index of '${repoKey}': every file is read again, which takes a while in a large repository`,
  cancel: 'Cancel',
  deleteTitle: 'Delete',
  deleteText: (where: string) =>
    `'${where}' will be moved to the Trash Can, where it can be restored until the trash is emptied.`,
  deletePermanentText: (where: string) =>
    `'${where}' will be deleted permanently. This cannot be undone.`,
  emptyTrashText: 'Everything in the Trash Can will be deleted permanently. This cannot be undone.',
  transferTitle: (action: string, name: string) => `${action} ${name}`,
  targetRepository: 'Target Repository',
  targetPath: 'Target Path',
  targetPathHint: 'End with / to put it inside that folder under its own name.',
  dryRun: 'Dry Run',
  noTargets: 'There is no repository this can go to.',
  downloadFolderTitle: 'Download Folder',
  downloadFolderText: (files: number, sizeMb: number) =>
    `${files.toLocaleString('en-US')} files, ${sizeMb.toLocaleString('en-US')} MB, as one archive.`,
  archiveType: 'Archive Type',
  archiveTypes: [
    { value: 'zip', label: 'Zip' },
    { value: 'tar', label: 'Tar' },
    { value: 'tar.gz', label: 'Tar.gz' },
  ],
  includeChecksumFiles: 'Include checksum files (.sha1, .sha256, .md5 beside each file)',
  /** Spec 02 §4 Downloads: the server refused a folder download for load. */
  tooManyFolderDownloads:
    'There are too many folder download requests currently running, try again later.',
  /** Why a download's HEAD was refused (a 401 stops silently before this). */
  downloadFailed: (name: string, status: number): string => {
    const why: Record<number, string> = {
      400: 'it holds more files or bytes than one archive may',
      403: 'access denied',
      404: 'it is not there any more',
    };
    if (status === 429) return ACTION_LABELS.tooManyFolderDownloads;
    return `Could not download ${name}: ${why[status] ?? `the server answered ${status}`}`;
  },
};

/** The detail tabs' own texts (Depot's wording; the spec names the tabs only). */
export const TAB_LABELS = {
  dependencyDeclaration: 'Dependency Declaration',
  declarationFailed: 'No dependency declaration for this file',
  buildTool: 'Build Tool',
  buildTools: { maven: 'Maven', gradle: 'Gradle', ivy: 'Ivy', sbt: 'SBT', npm: 'npm' },
  properties: {
    name: 'Name',
    value: 'Value',
    values: 'Values (one per line)',
    add: 'Add Property',
    edit: 'Edit',
    delete: 'Delete',
    save: 'Save',
    cancel: 'Cancel',
    recursive: 'Apply to everything below this folder',
    none: 'No properties yet.',
    failed: 'Could not load the properties',
    fromSet: 'Add From a Property Set',
    setProperty: 'Property',
  },
  builds: {
    producedBy: 'Produced By',
    usedBy: 'Used By',
    name: 'Build Name',
    number: 'Build Number',
    module: 'Module ID',
    started: 'Started',
    scope: 'Scope',
    none: 'No build lists this item.',
    failed: 'Could not load the builds',
  },
  watch: {
    watchers: 'Watchers',
    user: 'User',
    watched: 'Watched Item',
    since: 'Watching Since',
    none: 'Nobody watches this item.',
    remove: (name: string) => `Stop ${name} watching`,
    failed: 'Could not load the watchers',
  },
  source: {
    entries: 'Archive entries',
    truncated: (shown: number) => `Showing the first ${shown.toLocaleString('en-US')} entries.`,
    binary: 'This entry is binary and cannot be shown as text.',
    sourceTruncated: 'Only the first 1 MiB is shown.',
    failed: 'Could not read the archive',
    close: 'Close',
  },
  viewFailed: 'Could not load this view',
  permissions: EFFECTIVE_PERMISSION_LABELS,
};

export const REPO_TYPE_LABELS: Record<string, string> = {
  local: 'Local',
  remote: 'Remote',
  virtual: 'Virtual',
};
