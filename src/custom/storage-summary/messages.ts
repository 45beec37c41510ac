/**
 * The storage summary page's texts (Administration > Monitoring > Storage Summary). The
 * failure text is spec 03 §8 verbatim; the rest follow Artifactory's page. UI and tests read
 * them from here.
 */
export const STORAGE_SUMMARY_PATH = '/admin/monitoring/storage-summary';
export const TOTAL_ROW_KEY = 'TOTAL';

export const STORAGE_SUMMARY_LABELS = {
  title: 'Storage Summary',
  menuGroup: 'Monitoring',
  refresh: 'Refresh',
  loading: 'Loading storage summary…',
  fetchFailed: 'Unable to fetch Storage data',
  binaries: 'Binaries',
  artifacts: 'Artifacts',
  deduplication: 'Deduplication',
  items: 'Items',
  fileStore: 'File Store',
  count: 'Count',
  size: 'Size',
  saves: 'Saves',
  optimization: 'Optimization',
  files: 'Files',
  folders: 'Folders',
  directory: 'Directory',
  storageType: 'Storage Type',
  used: 'Used',
  free: 'Free',
  total: 'Total',
  diskUse: 'Disk use of the file store',
  chartTitle: 'Space per repository',
  chartDescription: 'Used space of each repository, largest first',
  legend: 'Legend',
  chartEmpty: 'No repository holds any files yet.',
  otherRepositories: (count: number) => `Other (${count} repositories)`,
  repositories: 'Repositories',
} as const;

/** The per-repository table's columns, in Artifactory's order and words. */
export const STORAGE_SUMMARY_COLUMNS = {
  repoKey: 'Repository Key',
  repoType: 'Repository Type',
  packageType: 'Package Type',
  percentage: 'Percentage',
  usedSpace: 'Used Space',
  filesCount: 'Files',
  foldersCount: 'Folders',
  itemsCount: 'Items',
} as const;
