import { Cron, type CronOptions } from 'croner';

/**
 * Crons are Quartz expressions, as Artifactory writes them: seconds first, six or seven
 * fields, `?` for "no specific value", Sunday = 1, and `/4` read as `0/4`.
 */
export const QUARTZ_OPTIONS: CronOptions = {
  mode: '6-or-7-parts',
  alternativeWeekdays: true,
  sloppyRanges: true,
};

/**
 * The next time a Quartz cron fires after `from`, or undefined when the expression cannot
 * be read or never fires again (a year in the past): both are invalid to a user.
 */
export function nextCronRun(expression: string, from = new Date()): Date | undefined {
  let probe: Cron | undefined;
  try {
    probe = new Cron(expression.trim(), { ...QUARTZ_OPTIONS, paused: true });
    return probe.nextRun(from) ?? undefined;
  } catch {
    return undefined;
  } finally {
    probe?.stop();
  }
}

export const isValidCron = (expression: string) => nextCronRun(expression) !== undefined;
