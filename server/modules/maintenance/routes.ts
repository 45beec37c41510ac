import type { FastifyInstance } from 'fastify';
import { BadRequest, Conflict } from '../../errors.ts';
import { nextCronRun } from '../../jobs/cron.ts';
import type { Services } from '../../services.ts';
import { MAINTENANCE_JOBS, type Maintenance, type MaintenanceJob } from './maintenance.ts';
import { MAINTENANCE_MESSAGES } from './messages.ts';
import type { MaintenanceSettings } from './settings.ts';
import { maintenanceSettingsSchema } from './settings-schema.ts';

const settingsBody = maintenanceSettingsSchema({ allRequired: true });

const crontimeQuery = {
  type: 'object',
  properties: { cron: { type: 'string', maxLength: 256 }, isReplication: { type: 'boolean' } },
};

/**
 * The Maintenance page's calls (spec 03 §7): the settings, the next time of a cron, and a
 * Run Now per job, each answering `{info}` with what the job did.
 */
export async function maintenanceRoutes(
  app: FastifyInstance,
  { services, maintenance }: { services: Services; maintenance: Maintenance },
) {
  const { scheduler } = maintenance;

  /** The form, and what the page shows beside it: disk usage and each job's last run. */
  async function maintenanceView(settings: MaintenanceSettings) {
    const lastRuns = await scheduler.lastRuns();
    const quota = await services.storageQuota.status();
    return {
      ...settings,
      storageUsage: {
        usedPercent: Math.round(quota.usedPercent * 10) / 10,
        warning: quota.warning,
        limitReached: quota.limitReached,
      },
      jobs: Object.fromEntries(
        Object.entries(MAINTENANCE_JOBS).map(([job, { title }]) => [
          job,
          {
            title,
            running: scheduler.isRunning(job),
            nextRun: scheduler.nextRun(job)?.toISOString() ?? null,
            lastRun: lastRuns[job] ?? null,
          },
        ]),
      ),
    };
  }

  const admin = { permission: 'admin' as const };

  app.get('/ui/maintenance', { config: admin }, async () =>
    maintenanceView(await services.maintenanceSettings.get()),
  );

  app.put<{ Body: MaintenanceSettings }>(
    '/ui/maintenance',
    { config: admin, schema: { body: settingsBody } },
    async (request) => {
      const saved = await services.maintenanceSettings.update(request.body);
      request.log.info({ ...saved, by: request.principal.name }, 'maintenance settings saved');
      return {
        info: 'Successfully updated maintenance settings',
        ...(await maintenanceView(saved)),
      };
    },
  );

  // isReplication is accepted as the spec names it; replication crons follow the same rules.
  app.get<{ Querystring: { cron?: string; isReplication?: boolean } }>(
    '/ui/crontime',
    { config: admin, schema: { querystring: crontimeQuery } },
    async (request) => {
      const expression = request.query.cron?.trim() ?? '';
      if (expression === '') throw new BadRequest(MAINTENANCE_MESSAGES.required, 'cron');
      const next = nextCronRun(expression);
      if (!next) throw new BadRequest(MAINTENANCE_MESSAGES.invalidCron, 'cron');
      return { cron: expression, nextRun: next.toISOString(), nextRunMillis: next.getTime() };
    },
  );

  for (const job of Object.keys(MAINTENANCE_JOBS) as MaintenanceJob[]) {
    app.post(`/ui/maintenance/${job}`, { config: admin }, async (request) => {
      const outcome = await scheduler.run(job, 'manual');
      if (!outcome.ran)
        throw new Conflict(MAINTENANCE_MESSAGES.alreadyRunning(MAINTENANCE_JOBS[job].title));
      request.log.info({ job, by: request.principal.name, ...outcome.result }, 'maintenance run');
      return outcome.result;
    });
  }
}
