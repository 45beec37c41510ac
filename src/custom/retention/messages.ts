/**
 * The archive's texts (spec 02 §2 "Archive / retention", §3 "Retention (archive)", §4
 * "Retention execution", §5, §9): quoted ones verbatim; the UI and the tests read them here.
 */
export const ARCHIVE_SEARCH_PATH = '/artifactoryRetention/search';
export const COLD_STORAGE_PATH = '/admin/artifactory/services/retention/cold_storage_monitoring';

export const RETENTION_LABELS = {
  searchTitle: 'Archive Search',
  aql: 'AQL query',
  aqlHint: 'items.find({"repo":"libs-release","name":{"$match":"*.jar"}})',
  search: 'Search',
  restore: 'Restore',
  cancel: 'Cancel',
  select: (name: string) => `Select ${name}`,
  selectAll: 'Select all',
  columns: {
    name: 'Name',
    repo: 'Repository',
    path: 'Path',
    created: 'Created',
    archived: 'Archived',
    size: 'Size',
  },
  restoreTitle: 'Select Restore Destination',
  destination: 'Restore to',
  original: 'Original location',
  newLocation: 'New location',
  fallbackRepository: 'Fallback repository (when the original one no longer exists)',
  repository: 'Destination repository',
  folder: 'Folder in the repository',
  noRepository: 'None',
  monitoringTitle: 'Cold Storage Monitoring',
  refresh: 'Refresh',
  from: 'From',
  to: 'To',
  tabs: { archive: 'Archive Executions', restore: 'Restore Executions' },
  executionColumns: {
    id: 'Execution Id',
    start: 'Start Time',
    status: 'Status',
    policy: 'Policy Name',
    items: 'Items',
    details: 'Details',
  },
  noExecutions: 'No executions in this date range',
  loading: 'Loading…',
  /** Spec 02 §9: Binary/Binaries, Artifact/Artifacts, Item/Items; '-' with MB, MB, %. */
  cards: {
    binaries: (count: number) => (count === 1 ? 'Binary' : 'Binaries'),
    artifacts: (count: number) => (count === 1 ? 'Artifact' : 'Artifacts'),
    items: (count: number) => (count === 1 ? 'Item' : 'Items'),
    optimization: 'Optimization',
    placeholder: '-',
  },
  restoreSelected: (count: number) => `Restore ${count} selected`,
  found: (count: number) => `${count} archived ${count === 1 ? 'item' : 'items'}`,
};

export const RETENTION_MESSAGES = {
  invalidParams: 'Some params are invalid',
  noResults: 'No Matching Results Found',
  noResultsHint: 'Try different criteria: the archive holds what retention policies took out',
  fetchFailed: 'Could not read the cold storage figures',
  searchFailed: 'The archive search failed',
  restoreFailed: 'The restore failed',
  repositoryRequired: 'Choose the repository to restore to',
  notRestored: (item: string, reason: string) => `${item}: ${reason}`,
};

/** Spec 02 §4: the display state of each execution status (FAILED shows as COMPLETE_WITH_ERRORS). */
export const DISPLAY_STATES: Record<string, string> = {
  IN_PROGRESS: 'Running',
  IN_PROGRESS_WITH_ERRORS: 'Running with errors',
  PENDING: 'Pending',
  COMPLETE: 'Complete',
  COMPLETE_WITH_ERRORS: 'Complete with errors',
  FAILED: 'Complete with errors',
  STOPPED_BY_USER: 'Stopped by user',
  STOPPING: 'Stopping',
  TRIGGERED: 'Triggered',
};
