import type { FastifyInstance } from 'fastify';
import { Conflict } from '../../errors.ts';
import { backupJobName, type Backups } from './backup-jobs.ts';
import { BACKUP_MESSAGES } from './messages.ts';
import { streamedExport } from './export-stream.ts';
import type { RestoreReport } from './restore.ts';
import type { SystemExport } from './service.ts';

const admin = { permission: 'admin' as const };
const keyParams = {
  type: 'object',
  required: ['key'],
  properties: { key: { type: 'string', maxLength: 64 } },
};
const path = { type: 'string', minLength: 1, maxLength: 4096 };
const exportBody = {
  type: 'object',
  required: ['exportPath'],
  properties: {
    exportPath: path,
    includeMetadata: { type: 'boolean' },
    excludeContent: { type: 'boolean' },
    incremental: { type: 'boolean' },
    createArchive: { type: 'boolean' },
    bypassFiltering: { type: 'boolean' },
    verbose: { type: 'boolean' },
    failOnError: { type: 'boolean' },
    failIfEmpty: { type: 'boolean' },
    m2: { type: 'boolean' },
  },
  additionalProperties: false,
};
const importBody = {
  type: 'object',
  required: ['importPath'],
  properties: {
    importPath: path,
    includeMetadata: { type: 'boolean' },
    verbose: { type: 'boolean' },
    failOnError: { type: 'boolean' },
    failIfEmpty: { type: 'boolean' },
  },
  additionalProperties: false,
};

/** The Backups screen's own calls: Run Now, and a run's progress and last result. */
export async function backupConsoleRoutes(app: FastifyInstance, { backups }: { backups: Backups }) {
  app.post<{ Params: { key: string } }>(
    '/ui/backup/:key/runnow',
    { config: admin, schema: { params: keyParams } },
    async (request) => {
      const { key } = request.params;
      await backups.backups.config(key); // 404 for a backup that does not exist
      if (!(await backups.runNow(key))) throw new Conflict(BACKUP_MESSAGES.alreadyRunning(key));
      return { info: BACKUP_MESSAGES.started(key) };
    },
  );

  app.get<{ Params: { key: string } }>(
    '/ui/backup/:key/status',
    { config: admin, schema: { params: keyParams } },
    async (request) => {
      await backups.backups.config(request.params.key); // 404 for a backup that does not exist
      const job = backupJobName(request.params.key);
      const lastRuns = await backups.scheduler.lastRuns();
      return {
        running: backups.scheduler.isRunning(job),
        progress: backups.backups.progressOf(request.params.key) ?? null,
        nextRun: backups.scheduler.nextRun(job)?.toISOString() ?? null,
        lastRun: lastRuns[job] ?? null,
        newestBackup: await backups.backups.newestOf(request.params.key),
      };
    },
  );

  // The backup form's directory picker (spec 03, "Backups, descriptors, keys").
  app.get<{ Querystring: { path?: string } }>(
    '/ui/browsefilesystem',
    {
      config: admin,
      schema: {
        querystring: {
          type: 'object',
          properties: { path: { type: 'string', maxLength: 4096 } },
          additionalProperties: false,
        },
      },
    },
    async (request) => backups.backups.browse(request.query.path),
  );

  // The console's Restore: the newest backup this backup wrote, into an empty Depot.
  app.post<{ Params: { key: string } }>(
    '/ui/backup/:key/restore',
    { config: admin, schema: { params: keyParams } },
    async (request) => restoreAnswer(await backups.backups.restoreNewest(request.params.key)),
  );
}

function restoreAnswer(report: RestoreReport) {
  return {
    info: `Restored ${report.manifest.counts.nodes ?? 0} items and ${report.blobs} binaries; sign in again with the restored accounts`,
    rows: report.rows,
    blobs: report.blobs,
    warnings: [...report.manifest.warnings, ...report.warnings],
  };
}

/** Artifactory's full system export and import, in its shapes (docs/backup.md). */
export async function systemExportRoutes(app: FastifyInstance, { backups }: { backups: Backups }) {
  app.post<{ Body: SystemExport }>(
    '/artifactory/api/export/system',
    { config: admin, schema: { body: exportBody } },
    async (request, reply) => {
      // Checked before the answer starts: a bad path or option is still a 400.
      const exportRequest = backups.backups.exportRequest(request.body);
      const body = streamedExport(
        request.body.exportPath,
        (onProgress) => backups.backups.exportSystem(exportRequest, onProgress),
        request.log,
      );
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no') // a proxy passes each line on as it comes
        .send(body);
    },
  );

  app.post<{ Body: { importPath: string } }>(
    '/artifactory/api/import/system',
    { config: admin, schema: { body: importBody } },
    async (request) => {
      return restoreAnswer(await backups.backups.importSystem(request.body.importPath));
    },
  );
}
