import { Cron } from 'croner';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import { QUARTZ_OPTIONS } from './cron.ts';
import type { JobLock } from './job-lock.ts';

/** What a job answers: `info` says in a sentence what it did (counts and bytes). */
export type JobResult = { info: string } & Record<string, unknown>;
export type JobTrigger = 'cron' | 'manual';

export interface JobRun {
  job: string;
  trigger: JobTrigger;
  startedAt: string;
  finishedAt: string | null;
  outcome: 'running' | 'success' | 'failure';
  info: string;
}

/** A run either happened here, or did not because this or another process is running it. */
export type RunOutcome = { ran: true; result: JobResult } | { ran: false };

/** Told of each run that ended here, with how long it took (the metrics count them). */
export type RunListener = (job: string, outcome: 'success' | 'failure', seconds: number) => void;

/** What a run cut short by the end of its process is recorded with. */
export const INTERRUPTED = 'Interrupted: the process running it stopped before it ended';

/** Run records kept per job; older ones are deleted after each run. */
const KEPT_RUNS = 50;

/**
 * Named jobs run by Quartz crons and by hand. One run at a time per job: in this process by
 * a set of running jobs, across processes by an advisory lock (a run the lock refuses is
 * skipped, not queued: the other process is doing the work). Each run is recorded in
 * `job_runs` with its outcome and the job's own sentence about what it did. `stop` ends
 * every timer and waits for runs in flight, so closing the app leaves nothing behind.
 */
export function createScheduler(db: Database, logger: Logger, withJobLock: JobLock) {
  const jobs = new Map<string, (stopping: AbortSignal) => Promise<JobResult>>();
  const timers = new Map<string, Cron>();
  const running = new Map<string, Promise<RunOutcome>>();
  const runListeners: RunListener[] = [];
  let stopped = false;
  // Aborted by `stop`: a long job (garbage collection) ends early, so a shutdown is not held.
  const stopping = new AbortController();

  /**
   * Called with the job's lock held: a run still recorded as running was cut short (its
   * process died, `kill -9` or a lost host, and its lock went with its connection), so it
   * is recorded as failed rather than shown running for ever.
   */
  async function recordInterrupted(job: string) {
    await db
      .updateTable('job_runs')
      .set({ outcome: 'failure', info: INTERRUPTED, finished_at: sql<Date>`now()` })
      .where('job', '=', job)
      .where('outcome', '=', 'running')
      .execute();
  }

  async function recordStart(job: string, trigger: JobTrigger): Promise<number> {
    await recordInterrupted(job);
    const row = await db
      .insertInto('job_runs')
      .values({ job, trigger, outcome: 'running', info: '', finished_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function recordEnd(id: number, job: string, outcome: 'success' | 'failure', info: string) {
    await db
      .updateTable('job_runs')
      .set({ outcome, info, finished_at: sql<Date>`now()` })
      .where('id', '=', id)
      .execute();
    await db
      .deleteFrom('job_runs')
      .where('job', '=', job)
      .where(
        'id',
        'not in',
        db
          .selectFrom('job_runs')
          .select('id')
          .where('job', '=', job)
          .orderBy('id', 'desc')
          .limit(KEPT_RUNS),
      )
      .execute();
  }

  async function runRecorded(
    job: string,
    trigger: JobTrigger,
    work: (stopping: AbortSignal) => Promise<JobResult>,
  ) {
    const id = await recordStart(job, trigger);
    const started = performance.now();
    const ended = (outcome: 'success' | 'failure') => {
      const seconds = (performance.now() - started) / 1000;
      for (const listener of runListeners) listener(job, outcome, seconds);
    };
    try {
      const result = await work(stopping.signal);
      ended('success');
      await recordEnd(id, job, 'success', result.info);
      logger.info({ job, trigger, ...result }, 'job finished');
      return result;
    } catch (error) {
      ended('failure');
      await recordEnd(id, job, 'failure', `Failed: ${(error as Error).message}`);
      throw error;
    }
  }

  async function runOnce(job: string, trigger: JobTrigger): Promise<RunOutcome> {
    const work = jobs.get(job);
    if (!work) throw new Error(`No job named '${job}' is defined`);
    const locked = await withJobLock(job, () => runRecorded(job, trigger, work));
    if (!locked.acquired) logger.info({ job, trigger }, 'job skipped: another process runs it');
    return locked.acquired ? { ran: true, result: locked.value } : { ran: false };
  }

  /** Runs a job now unless it is already running here or elsewhere. */
  function run(job: string, trigger: JobTrigger = 'manual'): Promise<RunOutcome> {
    if (stopped || running.has(job)) return Promise.resolve({ ran: false });
    const inFlight = runOnce(job, trigger).finally(() => running.delete(job));
    running.set(job, inFlight);
    return inFlight;
  }

  return {
    run,

    /** Calls `listener` after each run that ends in this process. */
    onRunEnded(listener: RunListener) {
      runListeners.push(listener);
    },

    /** A job's work; `stopping` is aborted when the scheduler stops (a long job ends early). */
    define(job: string, work: (stopping: AbortSignal) => Promise<JobResult>) {
      jobs.set(job, work);
    },

    /** (Re)schedules a job by a Quartz cron; an empty cron unschedules it. */
    schedule(job: string, cron: string | undefined) {
      timers.get(job)?.stop();
      timers.delete(job);
      if (stopped || !cron) return;
      const timer = new Cron(cron, { ...QUARTZ_OPTIONS, unref: true }, () => {
        run(job, 'cron').catch((error) =>
          logger.error({ err: error, job }, 'scheduled job failed'),
        );
      });
      timers.set(job, timer);
    },

    nextRun(job: string): Date | undefined {
      return timers.get(job)?.nextRun() ?? undefined;
    },

    isRunning: (job: string) => running.has(job),

    /** The latest recorded run of each job. */
    async lastRuns(): Promise<Record<string, JobRun>> {
      const rows = await db
        .selectFrom('job_runs')
        .selectAll()
        .where(
          'id',
          'in',
          db
            .selectFrom('job_runs')
            .select((eb) => eb.fn.max('id').as('id'))
            .groupBy('job'),
        )
        .execute();
      return Object.fromEntries(
        rows.map((row) => [
          row.job,
          {
            job: row.job,
            trigger: row.trigger,
            startedAt: new Date(row.started_at).toISOString(),
            finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
            outcome: row.outcome,
            info: row.info,
          },
        ]),
      );
    },

    /** Stops every timer, asks the runs in flight to end early and waits for them. */
    async stop() {
      stopped = true;
      stopping.abort();
      for (const timer of timers.values()) timer.stop();
      timers.clear();
      await Promise.allSettled(running.values());
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
