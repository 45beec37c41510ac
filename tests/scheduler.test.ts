import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../server/db/database.ts';
import { createJobLock } from '../server/jobs/job-lock.ts';
import { createScheduler, INTERRUPTED, type Scheduler } from '../server/jobs/scheduler.ts';
import { startTestDepot, type TestDepot } from './helpers/test-app.ts';

/** The job scheduler on the test's real database (PGlite, or PostgreSQL in CI). */
const logger = pino({ level: 'silent' });
let depot: TestDepot;
let scheduler: Scheduler;
beforeAll(async () => {
  depot = await startTestDepot();
  const lock = createJobLock(depot.services.db, {
    pinConnection: Boolean(depot.config.databaseUrl),
  });
  scheduler = createScheduler(depot.services.db, logger, lock);
});
afterAll(async () => {
  await scheduler?.stop();
  await depot?.close();
});

const runsOf = (job: string) =>
  depot.services.db
    .selectFrom('job_runs')
    .selectAll()
    .where('job', '=', job)
    .orderBy('id')
    .execute();

/** A promise and the function that settles it: a job that waits until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('the job scheduler', () => {
  it('runs a job and records its outcome and sentence', async () => {
    scheduler.define('tidy', async () => ({ info: 'Tidied 3 things', things: 3 }));
    expect(await scheduler.run('tidy')).toEqual({
      ran: true,
      result: { info: 'Tidied 3 things', things: 3 },
    });
    const [run] = await runsOf('tidy');
    expect(run).toMatchObject({ trigger: 'manual', outcome: 'success', info: 'Tidied 3 things' });
    expect(run.finished_at).not.toBeNull();
    expect((await scheduler.lastRuns()).tidy).toMatchObject({ outcome: 'success' });
  });

  it('runs one job once at a time: a second start while it runs is skipped', async () => {
    const { open, opened } = gate();
    let started = 0;
    scheduler.define('slow', async () => {
      started += 1;
      await opened;
      return { info: 'done' };
    });
    const first = scheduler.run('slow');
    expect(scheduler.isRunning('slow')).toBe(true);
    expect(await scheduler.run('slow')).toEqual({ ran: false });
    open();
    expect((await first).ran).toBe(true);
    expect(started).toBe(1);
    expect(scheduler.isRunning('slow')).toBe(false);
  });

  it('records a failure with its reason and passes the error on', async () => {
    scheduler.define('broken', async () => {
      throw new Error('disk on fire');
    });
    await expect(scheduler.run('broken')).rejects.toThrow('disk on fire');
    const [run] = await runsOf('broken');
    expect(run).toMatchObject({ outcome: 'failure', info: 'Failed: disk on fire' });
  });

  it('records a run its process never finished (killed mid-job) as interrupted at the next run', async () => {
    // What a process killed with kill -9 mid-run leaves: a run recorded as running, whose
    // lock went with the process's connection.
    await depot.services.db
      .insertInto('job_runs')
      .values({ job: 'sweep', trigger: 'cron', outcome: 'running', info: '', finished_at: null })
      .execute();
    scheduler.define('sweep', async () => ({ info: 'Swept' }));
    expect((await scheduler.run('sweep')).ran).toBe(true);
    const [cut, next] = await runsOf('sweep');
    expect(cut).toMatchObject({ outcome: 'failure', info: INTERRUPTED });
    expect(cut.finished_at).not.toBeNull();
    expect(next).toMatchObject({ outcome: 'success', info: 'Swept' });
  });

  it('fires a job by its Quartz cron, and unschedules it', async () => {
    scheduler.define('ticker', async () => ({ info: 'tick' }));
    scheduler.schedule('ticker', '* * * * * ?');
    expect(scheduler.nextRun('ticker')).toBeInstanceOf(Date);
    const deadline = Date.now() + 10000;
    while ((await runsOf('ticker')).length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    scheduler.schedule('ticker', undefined);
    expect(scheduler.nextRun('ticker')).toBeUndefined();
    const runs = await runsOf('ticker');
    expect(runs[0]).toMatchObject({ trigger: 'cron', outcome: 'success', info: 'tick' });
  });

  it('keeps the latest 50 runs of a job', async () => {
    scheduler.define('often', async () => ({ info: 'again' }));
    for (let i = 0; i < 53; i++) await scheduler.run('often');
    expect(await runsOf('often')).toHaveLength(50);
  });

  it('waits for runs in flight when stopped, then starts nothing', async () => {
    const own = createScheduler(
      depot.services.db,
      logger,
      createJobLock(depot.services.db, { pinConnection: Boolean(depot.config.databaseUrl) }),
    );
    const { open, opened } = gate();
    let finished = false;
    own.define('closing', async () => {
      await opened;
      finished = true;
      return { info: 'finished' };
    });
    own.schedule('closing', '0 0 0 1 1 ?');
    const run = own.run('closing');
    const stopping = own.stop();
    open();
    await stopping;
    expect(finished).toBe(true);
    expect((await run).ran).toBe(true);
    expect(own.nextRun('closing')).toBeUndefined();
    expect(await own.run('closing')).toEqual({ ran: false });
  });

  it('asks a run in flight to end early when stopped, so a shutdown is not held by it', async () => {
    const own = createScheduler(
      depot.services.db,
      logger,
      createJobLock(depot.services.db, { pinConnection: Boolean(depot.config.databaseUrl) }),
    );
    let rounds = 0;
    own.define('endless', async (stopping) => {
      // A job that would go on for ever, as a collection over millions of blobs nearly does.
      while (!stopping.aborted) {
        rounds += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return { info: `stopped after ${rounds} rounds` };
    });
    const run = own.run('endless');
    while (rounds === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await own.stop();
    expect(await run).toEqual({ ran: true, result: { info: `stopped after ${rounds} rounds` } });
  });
});

/** Two processes on one PostgreSQL: two pools, two schedulers; a job runs on one only. */
describe.runIf(process.env.DEPOT_TEST_DATABASE_URL)('the scheduler on PostgreSQL', () => {
  let other: Database;
  beforeAll(async () => {
    other = await openDatabase(depot.config, logger);
  });
  afterAll(() => other?.destroy());

  it('runs a job on one process at a time, by an advisory lock', async () => {
    const first = createScheduler(
      depot.services.db,
      logger,
      createJobLock(depot.services.db, { pinConnection: true }),
    );
    const second = createScheduler(other, logger, createJobLock(other, { pinConnection: true }));
    const { open, opened } = gate();
    let runs = 0;
    const work = async () => {
      runs += 1;
      await opened;
      return { info: 'cluster-wide' };
    };
    first.define('exclusive', work);
    second.define('exclusive', work);
    const onFirst = first.run('exclusive');
    // Wait until the first holds the lock (its run is recorded), then try the second.
    while ((await runsOf('exclusive')).length === 0)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await second.run('exclusive')).toEqual({ ran: false });
    open();
    expect((await onFirst).ran).toBe(true);
    expect(runs).toBe(1);
    // The lock is released: the second process may run it now.
    expect((await second.run('exclusive')).ran).toBe(true);
    await Promise.all([first.stop(), second.stop()]);
  });
});
