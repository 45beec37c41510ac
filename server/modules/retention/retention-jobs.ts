import { Cron } from 'croner';
import type { Logger } from 'pino';
import type { DepotConfig } from '../../config.ts';
import { QUARTZ_OPTIONS } from '../../jobs/cron.ts';
import { createJobLock } from '../../jobs/job-lock.ts';
import { createScheduler } from '../../jobs/scheduler.ts';
import type { Services } from '../../services.ts';
import { failInterrupted } from './execution-queries.ts';
import type { RetentionPolicy } from './policy-aql.ts';
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
  const actors = new Map<string, string>();
  let scheduled = new Map<string, string>();

  async function runLocked(key: string, stopping: AbortSignal) {
    const actor = actors.get(key) ?? CRON_ACTOR;
    actors.delete(key);
    await failInterrupted(services.db);
    try {
      return await retention.run(key, actor, stopping);
    } finally {
      await retention.sweepColdStore();
    }
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

  await applySchedule();
  const refresh = new Cron(REFRESH_CRON, { ...QUARTZ_OPTIONS, unref: true }, () =>
    applySchedule().catch((error) => logger.warn({ err: error }, 'reading the policies failed')),
  );

  return {
    retention,
    scheduler,
    applySchedule,
    /** Whether a run of any policy is in flight in this process. */
    anyRunning: () => [...scheduled.keys()].some((job) => scheduler.isRunning(job)),
    /** Starts a run in the background; false when a retention run is in flight here. */
    async trigger(key: string, actor: string): Promise<boolean> {
      await applySchedule();
      if (this.anyRunning()) return false;
      actors.set(key, actor);
      scheduler
        .run(retentionJobName(key), 'manual')
        .catch((error) => logger.warn({ err: error, policy: key }, 'retention run failed'));
      return true;
    },
    async stop() {
      refresh.stop();
      await scheduler.stop();
    },
  };
}

export type Retention = Awaited<ReturnType<typeof startRetention>>;
