import { BadRequest } from '../../errors.ts';
import { isValidCron } from '../../jobs/cron.ts';
import type { HookServices } from '../entities/hook-registry.ts';
import type { EntityHooks } from '../entities/hooks.ts';
import { allowedBackupPath } from './backup-paths.ts';
import { BACKUP_MESSAGES } from './messages.ts';

/** Where a backup's runs go: its `dir`, or a folder named after its key. */
export const backupTarget = (document: { key: string; dir?: string }, allowedDirs: string[]) =>
  allowedBackupPath(document.dir || document.key, allowedDirs, 'dir');

/**
 * Backups on the schema engine (docs/backup.md): the cron must be one, the path must be in
 * the allowed list, and "exclude new repositories" records which repositories exist now.
 */
export function backupHooks(services: () => HookServices): EntityHooks {
  return {
    async beforeWrite({ document }) {
      if (!isValidCron(String(document.cronExp)))
        throw new BadRequest('The cron expression is invalid', 'cronExp');
      backupTarget(document as { key: string; dir?: string }, services().backupDirs);
      if (document.createArchive && document.incremental)
        throw new BadRequest(BACKUP_MESSAGES.zipIsFull, 'createArchive');
      if (!document.excludeNewRepositories) return { ...document, repositoriesAtSave: [] };
      const repositories = await services().repositories.list();
      return { ...document, repositoriesAtSave: repositories.map((repo) => repo.key) };
    },
  };
}
