/** Messages of the maintenance area (spec 03 §5, §8); the console's tests use the same. */
export const MAINTENANCE_MESSAGES = {
  invalidCron: 'The cron expression is invalid',
  required: 'You must fill in this field',
  percentSteps: 'Enter a percentage from 0 to 100, in steps of 5',
  warningBelowLimit: 'The storage warning must be lower than the storage limit',
  alreadyRunning: (title: string) => `${title} is already running`,
  storageLimitReached: (usage: string, limit: number) =>
    `Datastore disk space is too high: deployment rejected (usage ${usage}% is over the limit of ${limit}%)`,
} as const;
