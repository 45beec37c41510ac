import { Cron, type CronOptions } from 'croner';

/**
 * Crons are Quartz expressions, read as the server reads them (server/jobs/cron.ts; a test
 * holds the two option sets equal): seconds first, `?`, Sunday = 1.
 */
export const QUARTZ_OPTIONS: CronOptions = {
  mode: '6-or-7-parts',
  alternativeWeekdays: true,
  sloppyRanges: true,
};

/** The next `count` runs of a cron after `from`; none when it cannot be read or never runs. */
export function nextCronRuns(expression: string, count: number, from = new Date()): Date[] {
  let cron: Cron | undefined;
  try {
    cron = new Cron(expression.trim(), { ...QUARTZ_OPTIONS, paused: true });
    return cron.nextRuns(count, from);
  } catch {
    return [];
  } finally {
    cron?.stop();
  }
}
