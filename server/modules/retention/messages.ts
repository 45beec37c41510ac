import { humanBytes } from '../maintenance/human-bytes.ts';

/** What retention answers (docs/retention.md); the spec's words where it has them. */
export const RETENTION_MESSAGES = {
  saved: 'Policy saved successfully',
  cronEmpty: "Schedule Execution can't be empty",
  cronInvalid: 'The cron expression is invalid',
  previewFailed: 'Error while calculating policy preview.',
  noCriteria:
    'A form policy needs at least one criterion: a repository, path, name, property or age',
  aqlEmpty: 'Enter an AQL query: items.find(...)',
  propertyPattern: (value: string) =>
    `'${value}' is not a property criterion: write key=value, or key alone for any value`,
  preview: (count: number, total: number, freed: number) =>
    `${count} item(s), ${humanBytes(total)} in total; ${humanBytes(freed)} would be freed ` +
    '(content shared with items that stay frees nothing)',
  started: (key: string) => `Policy '${key}' is running`,
  queued: (key: string) => `Policy '${key}' is pending: it starts when the run in progress ends`,
  cancelled: 'Cancelled before it started',
  policyGone: (key: string) => `Retention policy '${key}' no longer exists`,
  deleteWhileRunning: (keys: string[]) =>
    (keys.length === 1
      ? `Policy '${keys[0]}' is running`
      : `Policies '${keys.join("', '")}' are running`) +
    ': stop the run, then delete the policy once it has ended',
  notRunning: (key: string) => `Policy '${key}' is not running`,
  stopping: (key: string) => `Policy '${key}' is stopping`,
  pendingCancelled: (key: string) => `The pending run of policy '${key}' is cancelled`,
  deleted: (key: string) => `Policy '${key}' deleted`,
  nothingToUndo: (key: string) => `Policy '${key}' has no run to undo`,
  undoExpired: (hours: number) =>
    `The last run ended more than ${hours} hour(s) ago: it can no longer be undone`,
  undone: (restored: number, failed: number) =>
    failed === 0
      ? `${restored} item(s) put back`
      : `${restored} item(s) put back; ${failed} could not be (see the restore execution)`,
  restored: (restored: number, failed: number) =>
    failed === 0
      ? `${restored} item(s) restored`
      : `${restored} item(s) restored; ${failed} could not be (see the restore execution)`,
  notInColdStore:
    'Its content is no longer in the cold store (a delete run whose undo window has passed)',
  noItems: 'Choose at least one archived item to restore',
  notArchived: (item: string) => `'${item}' is not in the archive`,
  destinationRequired: 'Choose a restore destination: a repository, and a folder in it if you like',
  targetTaken: (target: string) => `'${target}' exists already: a restore never overwrites`,
  noRepository: (key: string) => `Repository '${key}' does not exist`,
  invalidRange: 'Some params are invalid',
  durationReached: (minutes: number) => `Stopped after its duration limit of ${minutes} minute(s)`,
  runSummary: (items: number, freed: number, errors: number) =>
    `${items} item(s) taken out, ${humanBytes(freed)} freed` +
    (errors > 0 ? `, ${errors} item(s) failed and stayed in place` : ''),
};
