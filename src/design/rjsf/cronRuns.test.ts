import { describe, expect, it } from 'vitest';
import { QUARTZ_OPTIONS as SERVER_OPTIONS, nextCronRun } from '../../../server/jobs/cron';
import { QUARTZ_OPTIONS, nextCronRuns } from './cronRuns';

describe('the cron widget reads crons as the server does', () => {
  it('with the same Quartz options', () => {
    expect(QUARTZ_OPTIONS).toEqual(SERVER_OPTIONS);
  });

  it('and finds the same next run, or none where the server finds none', () => {
    const from = new Date('2030-01-01T00:00:00Z');
    for (const cron of ['0 0 2 ? * SAT', '0 */15 * * * ?', '0 0 0 1 1 ? 2031', '0 0 0 30 2 ?']) {
      expect(nextCronRuns(cron, 1, from)[0]?.toISOString(), cron).toBe(
        nextCronRun(cron, from)?.toISOString(),
      );
    }
    expect(nextCronRuns('not a cron', 3, from)).toEqual([]);
  });
});
