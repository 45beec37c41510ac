/** The support zone's texts (spec 02 "Support bundles"; docs/support-bundles.md). */
/** Spec 02: the list is fetched again this long after the last bundle in progress. */
export const REFRESH_DELAY_MS = 3000;

export const SUPPORT_ZONE_LABELS = {
  title: 'Support Zone',
  intro:
    'A support bundle is one zip with what someone helping you needs to see: system information, the configuration with every secret removed, the logs of a date range, a diagnostic report and storage statistics.',
  create: 'Create Support Bundle',
  createTitle: 'Create Support Bundle',
  name: 'Name',
  namePlaceholder: 'Support bundle (numbered when left empty)',
  description: 'Description',
  logsFrom: 'Logs From',
  logsTo: 'Logs To',
  cancel: 'Cancel',
  submit: 'Create',
  noBundlesTitle: 'No Support Bundles Yet',
  noBundles: 'Create one to collect logs and system information.',
  columns: {
    name: 'Name',
    description: 'Description',
    created: 'Created',
    status: 'Status',
    size: 'Size',
    actions: 'Actions',
  },
  download: 'Download',
  delete: 'Delete',
  deleteTitle: 'Delete Support Bundle',
  deleteText: (name: string) => `Delete the support bundle "${name}"? Its zip is removed.`,
  started: 'Support bundle creation started',
  deleted: 'Support bundle deleted',
  createFailed: 'The support bundle could not be started',
  deleteFailed: 'The support bundle could not be deleted',
  datesOutOfOrder: 'The start date must be on or before the end date',
  dateRequired: 'You must fill in this field',
  statusLabels: { 'in-progress': 'In Progress', success: 'Ready', failed: 'Failed' },
};

/** A day as the date inputs and the server write it, in the browser's time zone. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The form's first values: the last seven days of logs, as the server's default. */
export function defaultRange(now = new Date()) {
  const weekAgo = new Date(now);
  weekAgo.setDate(now.getDate() - 7);
  return { startDate: isoDay(weekAgo), endDate: isoDay(now) };
}
