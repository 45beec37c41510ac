import { Cron } from 'croner';
import type { Logger } from 'pino';
import type { DepotConfig } from '../../config.ts';
import { QUARTZ_OPTIONS } from '../../jobs/cron.ts';
import { createJobLock } from '../../jobs/job-lock.ts';
import { createScheduler } from '../../jobs/scheduler.ts';
import type { Services } from '../../services.ts';
import { failInterrupted, recordProgress } from './execution-queries.ts';
import { RETENTION_MESSAGES as M } from './messages.ts';
import type { RetentionPolicy } from './policy-aql.ts';
import {
  cancelPending,
  nextPending,
  queueRun,
  runningPolicies,
  takePending,
} from './queue-queries.ts';
import { createRetentionService } from './service.ts';

/** Each process re-reads the saved policies this often, to follow saves made on any node. */
const REFRESH_CRON = '45 * * * * ?';
/** One lock for every retention run: runs and the cold store's sweep never overlap. */
const RETENTION_LOCK = 'retention';
const CRON_ACTOR = 'system';

export const retentionJobName = (key: string) => `retention:${key}`;

/**
 * Starts the enabled policies by their crons. Runs are one at a time across the instance
 * (one lock for all of them): a run first marks runs a dead process left unfinished, and ends
 * by letting go of cold content nobody needs, both safe only while no other run copies in.
 */
export async function startRetention(services: Services, config: DepotConfig, logger: Logger) {
  const retention = createRetentionService(services, config, logger);
  const withJobLock = createJobLock(services.db, { pinConnection: Boolean(config.databaseUrl) });
  const scheduler = createScheduler(
    services.db,
    logger,
    <T>(_job: string, work: () => Promise<T>) => withJobLock(RETENTION_LOCK, work),
  );
  let scheduled = new Map<string, string>();
  // A run in flight in this process. The embedded database's advisory lock is re-entrant
  // (one connection), so within a process this flag is what keeps runs one at a time.
  let active = false;

  /** Runs the policy: its queued execution if it has one, else a new one (a cron run). */
  async function runOne(key: string, stopping: AbortSignal) {
    try {
      await retention.policy(key);
    } catch (error) {
      await cancelPending(services.db, [key], M.policyGone(key));
      throw error;
    }
    const queued = await takePending(services.db, key);
    try {
      return await retention.run(key, queued?.startedBy ?? CRON_ACTOR, stopping, queued);
    } catch (error) {
      // runPolicy records its own failures; this is one before it began (its query, say).
      if (queued) {
        const failed = { state: 'FAILED' as const, items: 0, bytes: 0, freedBytes: 0, errors: 0 };
        await recordProgress(services.db, queued.id, { ...failed, message: String(error) }, true);
      }
      throw error;
    }
  }

  /**
   * The job's work, under the retention lock: the policy's run, then every run queued
   * meanwhile (on any node), oldest first. A cron firing while a run is in flight here
   * queues its run instead.
   */
  async function runLocked(key: string, stopping: AbortSignal) {
    if (active) {
      await queueRun(services.db, key, CRON_ACTOR);
      return { info: M.queued(key) };
    }
    active = true;
    try {
      await failInterrupted(services.db);
      const result = await runOne(key, stopping);
      for (let next = await nextPending(services.db); next && !stopping.aborted;) {
        await runOne(next, stopping).catch((error) =>
          logger.warn({ err: error, policy: next }, 'retention run failed'),
        );
        next = await nextPending(services.db);
      }
      return result;
    } finally {
      await retention.sweepColdStore().finally(() => {
        active = false;
      });
    }
  }

  /** Starts the oldest queued run when nothing runs here (another node may hold the lock). */
  function startQueued(key?: string) {
    if (active) return;
    const job = key ? Promise.resolve(key) : nextPending(services.db);
    job
      .then((next) => (next ? scheduler.run(retentionJobName(next), 'manual') : undefined))
      .catch((error) => logger.warn({ err: error }, 'retention run failed'));
  }

  async function applySchedule() {
    const { items } = await services.entities
      .collection('retention-policy')
      .list({ offset: 0, descending: false, equals: {} });
    const next = new Map<string, string>();
    for (const item of items as unknown as RetentionPolicy[]) {
      const job = retentionJobName(item.key);
      scheduler.define(job, (stopping) => runLocked(item.key, stopping));
      next.set(job, item.enabled === false ? '' : item.cronExp);
    }
    for (const job of scheduled.keys()) if (!next.has(job)) scheduler.schedule(job, undefined);
    for (const [job, cron] of next) if (scheduled.get(job) !== cron) scheduler.schedule(job, cron);
    scheduled = next;
  }

  // A run this process (or the last one on this home) left unfinished when it died is FAILED at
  // once, unless another node holds the lock: then that node may be running it.
  await withJobLock(RETENTION_LOCK, () => failInterrupted(services.db));
  await applySchedule();
  // A run queued just as the run in flight ended (or on a node that then stopped) starts here.
  const refresh = new Cron(REFRESH_CRON, { ...QUARTZ_OPTIONS, unref: true }, () =>
    applySchedule()
      .then(() => startQueued())
      .catch((error) => logger.warn({ err: error }, 'reading the policies failed')),
  );

  return {
    retention,
    scheduler,
    applySchedule,
    /** Whether a run of any policy is in flight in this process. */
    anyRunning: () => [...scheduled.keys()].some((job) => scheduler.isRunning(job)),
    /**
     * Queues a run of the policy and starts it in the background when no run is in flight;
     * answers whether it waits (PENDING) behind one.
     */
    async trigger(key: string, actor: string): Promise<'started' | 'queued'> {
      await applySchedule();
      const waits = active || (await runningPolicies(services.db)).length > 0;
      await queueRun(services.db, key, actor);
      if (waits) return 'queued';
      startQueued(key);
      return 'started';
    },
    async stop() {
      refresh.stop();
      await scheduler.stop();
    },
  };
}

export type Retention = Awaited<ReturnType<typeof startRetention>>;
