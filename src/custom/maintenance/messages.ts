import type { MaintenanceForm, MaintenanceJobName } from '../../api/maintenance';

/**
 * The Maintenance page's texts (Administration > Artifactory > Advanced > Maintenance). The
 * buttons, the cron and required messages are spec 03 §2 and §5 verbatim; UI and tests read
 * them from here.
 */
export const MAINTENANCE_PATH = '/admin/artifactory/advanced/maintenance';

export const MAINTENANCE_LABELS = {
  title: 'Maintenance',
  menuGroup: 'Advanced',
  loading: 'Loading maintenance settings…',
  fetchFailed: 'Unable to fetch the maintenance settings',
  cronExpression: 'Cron Expression',
  nextRun: 'Next run',
  lastRun: 'Last run',
  neverRun: 'Not run yet',
  running: 'Running…',
  storageQuota: 'Storage Quota',
  quotaControl: 'Enable Quota Control',
  storageLimit: 'Storage Space Limit (%)',
  storageWarning: 'Storage Space Warning (%)',
  diskUsage: (percent: number) => `The file store's disk is ${percent}% full`,
  overWarning: 'Disk usage is over the warning level',
  overLimit: 'Disk usage is over the limit: deployments are refused',
  save: 'Save',
  reset: 'Reset',
  saveFailed: 'Failed to save the maintenance settings',
  runFailed: (title: string) => `${title} failed`,
} as const;

export const MAINTENANCE_MESSAGES = {
  invalidCron: 'The cron expression is invalid',
  required: 'You must fill in this field',
  percentSteps: 'Enter a percentage from 0 to 100, in steps of 5',
  warningBelowLimit: 'The storage warning must be lower than the storage limit',
} as const;

export type CronField = 'garbageCollectorCron' | 'cleanUnusedCachedCron' | 'cleanVirtualRepoCron';

/** Each job's card: its title, what it does, its button and, for scheduled ones, its cron. */
export const JOB_CARDS: {
  job: MaintenanceJobName;
  title: string;
  description: string;
  button: string;
  cronField?: CronField;
}[] = [
  {
    job: 'garbageCollection',
    title: 'Garbage Collection',
    description: 'Frees binaries that no file refers to any more.',
    button: 'Run Now',
    cronField: 'garbageCollectorCron',
  },
  {
    job: 'cleanUnusedCache',
    title: 'Cleanup Unused Cached Artifacts',
    description:
      "Removes cached files of remote repositories that nobody downloaded within the repository's cleanup period.",
    button: 'Cleanup Unused Cached Artifacts Now',
    cronField: 'cleanUnusedCachedCron',
  },
  {
    job: 'cleanVirtualRepo',
    title: 'Cleanup Virtual Repositories',
    description:
      'Removes whatever was recorded against virtual repositories, which hold no content.',
    button: 'Cleanup Virtual Repositories Now',
    cronField: 'cleanVirtualRepoCron',
  },
  {
    job: 'compress',
    title: 'Compress the Internal Database',
    description: "Reclaims the database's unused space and refreshes its statistics.",
    button: 'Compress the Internal Database',
  },
  {
    job: 'prune',
    title: 'Prune Unreferenced Data',
    description: 'Deletes files in the file store that nothing refers to, and empty folders.',
    button: 'Prune Unreferenced Data',
  },
];

export const CRON_FIELDS: CronField[] = [
  'garbageCollectorCron',
  'cleanUnusedCachedCron',
  'cleanVirtualRepoCron',
];

/** Quota inputs: 0 to 100 by 5 (spec 03 §5, §9); what an enabled quota starts from. */
export const PERCENT_INPUT = { min: 0, max: 100, step: 5 } as const;
export const QUOTA_STARTING_VALUES: Pick<MaintenanceForm, 'storageLimit' | 'storageWarning'> = {
  storageLimit: 95,
  storageWarning: 85,
};
