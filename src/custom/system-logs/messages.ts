/**
 * The live log viewer's texts (spec 03 "Live log viewer"): 'Waiting for Logs...' and
 * 'No Data Fetched' verbatim; UI and tests read them from here.
 */
export const SYSTEM_LOGS_PATHS = [
  '/admin/monitoring/system_logs',
  '/admin/artifactory/advanced/system_logs',
];

/** The support zone, where bundles are made (spec 02 "Support bundles"). */
export const SUPPORT_ZONE_PATH = '/admin/support-zone';

/** Depot's one service, by the id the calls use (docs/logs.md). */
export const LOG_SERVICES = [{ value: 'artifactory', label: 'Depot' }];

/** The spec's default when the server gives no refresh rate. */
export const DEFAULT_REFRESH_MILLIS = 10000;

/**
 * The most text the viewer keeps: older lines leave the top as new ones arrive, so
 * following a busy log for hours does not fill the browser's memory.
 */
export const MAX_KEPT_CHARS = 2 * 1024 * 1024;

export const SYSTEM_LOGS_LABELS = {
  title: 'System Logs',
  service: 'Service',
  node: 'Node',
  logFile: 'Log File',
  waiting: 'Waiting for Logs...',
  noData: 'No Data Fetched',
  pause: 'Pause',
  resume: 'Resume',
  refreshNow: 'Refresh now',
  nextRefresh: (seconds: number) => `Next refresh in ${seconds}s`,
  paused: 'Auto-refresh paused',
  loading: 'Loading new lines',
  lastModified: 'Last modified',
  lastUpdated: 'Last updated',
  logArea: 'Log content',
  supportZone: 'Need to send logs to support? Create a support bundle in the Support Zone',
  nodesFailed: 'Unable to fetch the list of nodes',
  configFailed: 'Unable to fetch the log configuration',
  dataFailed: 'Unable to fetch the log',
};
