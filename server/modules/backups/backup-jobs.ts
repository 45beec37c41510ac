import { Cron } from 'croner';
import type { Logger } from 'pino';
import type { DepotConfig } from '../../config.ts';
import { QUARTZ_OPTIONS } from '../../jobs/cron.ts';
import { createJobLock } from '../../jobs/job-lock.ts';
import { createScheduler } from '../../jobs/scheduler.ts';
import type { Services } from '../../services.ts';
import { createBackupsService, type BackupConfig } from './service.ts';

/** Each process re-reads the saved backups this often, to follow saves made on any node. */
const REFRESH_CRON = '15 * * * * ?';

export const backupJobName = (key: string) => `backup:${key}`;

/**
 * Starts the configured backups on a scheduler of their own: each enabled backup by its cron,
 * one run at a time across processes (the job lock), each run recorded in `job_runs`.
 */
export async function startBackups(services: Services, config: DepotConfig, logger: Logger) {
  const backups = createBackupsService(services, config, logger);
  const withJobLock = createJobLock(services.db, { pinConnection: Boolean(config.databaseUrl) });
  const scheduler = createScheduler(services.db, logger, withJobLock);
  let scheduled = new Map<string, string>();

  async function applySchedule() {
    const { items } = await services.entities
      .collection('backup')
      .list({ offset: 0, descending: false, equals: {} });
    const next = new Map<string, string>();
    for (const item of items as unknown as BackupConfig[]) {
      const job = backupJobName(item.key);
      scheduler.define(job, (stopping) => backups.run(item.key, stopping));
      next.set(job, item.enabled ? item.cronExp : '');
    }
    for (const job of scheduled.keys()) if (!next.has(job)) scheduler.schedule(job, undefined);
    for (const [job, cron] of next) if (scheduled.get(job) !== cron) scheduler.schedule(job, cron);
    scheduled = next;
  }

  await applySchedule();
  const refresh = new Cron(REFRESH_CRON, { ...QUARTZ_OPTIONS, unref: true }, () =>
    applySchedule().catch((error) => logger.warn({ err: error }, 'reading the backups failed')),
  );

  return {
    backups,
    scheduler,
    /** Runs a backup now, in the background; false when it is running already. */
    async runNow(key: string): Promise<boolean> {
      await applySchedule();
      if (scheduler.isRunning(backupJobName(key))) return false;
      scheduler
        .run(backupJobName(key), 'manual')
        .catch((error) => logger.warn({ err: error, backup: key }, 'backup failed'));
      return true;
    },
    async stop() {
      refresh.stop();
      await scheduler.stop();
    },
  };
}

export type Backups = Awaited<ReturnType<typeof startBackups>>;
