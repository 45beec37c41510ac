import { Cron } from 'croner';
import type { Logger } from 'pino';
import type { DepotConfig } from '../../config.ts';
import { QUARTZ_OPTIONS } from '../../jobs/cron.ts';
import { createJobLock } from '../../jobs/job-lock.ts';
import { createScheduler, type JobResult } from '../../jobs/scheduler.ts';
import type { Services } from '../../services.ts';
import { compressDatabase } from './compress.ts';
import { upkeepEmbeddedDatabase } from './embedded-upkeep.ts';
import { humanBytes } from './human-bytes.ts';
import { pruneFilestore } from './prune.ts';
import { CRON_FIELDS, type MaintenanceSettings } from './settings.ts';
import { cleanUnusedCache } from './unused-cache.ts';
import { cleanVirtualRepositories } from './virtual-cleanup.ts';
import { purgeWebhookHistory } from '../webhooks/retention.ts';

/** The jobs of the Maintenance page, by the name of their Run Now call (spec 03 §7). */
export const MAINTENANCE_JOBS = {
  garbageCollection: { title: 'Garbage Collection', cronField: 'garbageCollectorCron' },
  cleanUnusedCache: {
    title: 'Cleanup Unused Cached Artifacts',
    cronField: 'cleanUnusedCachedCron',
  },
  cleanVirtualRepo: { title: 'Cleanup Virtual Repositories', cronField: 'cleanVirtualRepoCron' },
  compress: { title: 'Compress the Internal Database', cronField: undefined },
  prune: { title: 'Prune Unreferenced Data', cronField: undefined },
} as const satisfies Record<
  string,
  { title: string; cronField: (typeof CRON_FIELDS)[number] | undefined }
>;
export type MaintenanceJob = keyof typeof MAINTENANCE_JOBS;

/** The trash can's retention purge: hourly, not on the page (its period is the trash's). */
const TRASH_PURGE_JOB = 'trashPurge';
const TRASH_PURGE_CRON = '0 0 * * * ?';
/** The webhook history's retention purge: hourly, its period `DEPOT_WEBHOOK_RETENTION_DAYS`. */
export const WEBHOOK_PURGE_JOB = 'webhookHistoryPurge';
const WEBHOOK_PURGE_CRON = '0 15 * * * ?';
/**
 * The embedded database's upkeep (embedded-upkeep.ts): every ten minutes, embedded only
 * (PostgreSQL's autovacuum does this there).
 */
export const EMBEDDED_UPKEEP_JOB = 'embeddedDatabaseUpkeep';
const EMBEDDED_UPKEEP_CRON = '0 5/10 * * * ?';
/** Each process re-reads the saved crons this often, to follow a save made on another one. */
const SETTINGS_REFRESH_CRON = '30 * * * * ?';

/** The work behind each job name, each answering what it did. */
function jobWork(
  services: Services,
  config: DepotConfig,
): Record<string, (stopping: AbortSignal) => Promise<JobResult>> {
  const { db } = services;
  const graceMs = config.gcGraceSeconds * 1000;
  return {
    garbageCollection: async (stopping) => {
      const report = await services.garbageCollector.collect(graceMs, stopping);
      return {
        info:
          `Garbage collection freed ${report.binaries} binaries (${humanBytes(report.bytes)})` +
          (report.heldOff ? '; stopped early while a backup copies binaries' : ''),
        ...report,
      };
    },
    cleanUnusedCache: () => cleanUnusedCache(db, services.downloadStats),
    cleanVirtualRepo: () => cleanVirtualRepositories(db),
    compress: () => compressDatabase(db),
    prune: () => pruneFilestore(db, services.filestore, graceMs),
    [TRASH_PURGE_JOB]: async () => {
      const items = await services.trash.purgeExpired();
      return { info: `Removed ${items} expired items from the trash can`, items };
    },
    [WEBHOOK_PURGE_JOB]: async () => ({
      ...(await purgeWebhookHistory(db, config.webhooks.retentionMs)),
    }),
    ...(config.databaseUrl ? {} : { [EMBEDDED_UPKEEP_JOB]: () => upkeepEmbeddedDatabase(db) }),
  };
}

/**
 * Starts the maintenance jobs on the scheduler: the page's jobs by their saved crons
 * (rescheduled on every save), the trash purge and the webhook history purge hourly, the
 * embedded database's upkeep every ten minutes. `stop` ends every timer and waits
 * for runs in flight.
 */
export async function startMaintenance(services: Services, config: DepotConfig, logger: Logger) {
  const withJobLock = createJobLock(services.db, { pinConnection: Boolean(config.databaseUrl) });
  const scheduler = createScheduler(services.db, logger, withJobLock);
  for (const [job, work] of Object.entries(jobWork(services, config))) scheduler.define(job, work);

  let scheduled = '';
  const applySchedule = (settings: MaintenanceSettings) => {
    const crons = JSON.stringify(CRON_FIELDS.map((field) => settings[field]));
    if (crons === scheduled) return;
    scheduled = crons;
    for (const [job, { cronField }] of Object.entries(MAINTENANCE_JOBS))
      if (cronField) scheduler.schedule(job, settings[cronField]);
  };
  applySchedule(await services.maintenanceSettings.get());
  services.maintenanceSettings.onChange(applySchedule);
  scheduler.schedule(TRASH_PURGE_JOB, TRASH_PURGE_CRON);
  scheduler.schedule(WEBHOOK_PURGE_JOB, WEBHOOK_PURGE_CRON);
  if (!config.databaseUrl) scheduler.schedule(EMBEDDED_UPKEEP_JOB, EMBEDDED_UPKEEP_CRON);
  const refresh = new Cron(SETTINGS_REFRESH_CRON, { ...QUARTZ_OPTIONS, unref: true }, () =>
    services.maintenanceSettings
      .get()
      .then(applySchedule)
      .catch((error) => logger.warn({ err: error }, 'reading the maintenance settings failed')),
  );

  return {
    scheduler,
    async stop() {
      refresh.stop();
      await scheduler.stop();
    },
  };
}

export type Maintenance = Awaited<ReturnType<typeof startMaintenance>>;
