import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Logger } from 'pino';
import type { DepotConfig } from '../../config.ts';
import { browseFilesystem } from './browse-filesystem.ts';
import { loadMasterKey } from '../../crypto/secret-box.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { humanBytes } from '../maintenance/human-bytes.ts';
import { allowedBackupPath } from './backup-paths.ts';
import { readManifest } from './backup-manifest.ts';
import { BUILD_INFO_PACKAGE_TYPE } from '../builds/build-info.ts';
import {
  writeBackup,
  type BackupDeps,
  type BackupProgress,
  type BackupRequest,
  type RepositoryRow,
} from './backup-writer.ts';
import { backupTarget } from './hooks.ts';
import { BACKUP_MESSAGES } from './messages.ts';
import { requireEmpty, restoreBackup } from './restore.ts';
import { openZipBackup, ZIP_SUFFIX } from './zip-backup.ts';
import { newestBackupIn } from './retention.ts';

/**
 * An incremental directory backup reads beside itself (the shared `../packs`, the earlier
 * backups of its chain), so its parent must be an allowed directory too: a manifest placed
 * in an allowed directory itself must not lead the restore one level above it.
 */
async function requireNeighboursAllowed(path: string, importPath: string, allowedDirs: string[]) {
  const manifest = await readManifest(path, importPath);
  if (manifest.packsDir !== '../packs' && manifest.metadata !== 'delta') return;
  try {
    allowedBackupPath(dirname(path), allowedDirs, 'importPath');
  } catch {
    throw new BadRequest(BACKUP_MESSAGES.layoutOutside(importPath), 'importPath');
  }
}

/** A backup as the console saves it (schemas/entities/backup.schema.json). */
export interface BackupConfig {
  key: string;
  enabled: boolean;
  cronExp: string;
  dir: string;
  retentionPeriodHours: number;
  incremental: boolean;
  /** One zip file per run instead of a directory (a full backup). */
  createArchive?: boolean;
  excludedRepositories: string[];
  excludeBuilds: boolean;
  excludeNewRepositories: boolean;
  sendMailNotification: boolean;
  precalculate: boolean;
  exportMasterKey: boolean;
  repositoriesAtSave?: string[];
}

/** Artifactory's system export body; the options that do not apply to Depot are accepted. */
export interface SystemExport {
  exportPath: string;
  includeMetadata?: boolean;
  excludeContent?: boolean;
  incremental?: boolean;
  createArchive?: boolean;
}

/** Which repositories a configured backup covers (docs/backup.md, "What is included"). */
export function repositoriesOf(backup: BackupConfig) {
  const excluded = new Set(backup.excludedRepositories ?? []);
  const known = new Set(backup.repositoriesAtSave ?? []);
  return (repositories: RepositoryRow[]) =>
    repositories
      .filter((repo) => !excluded.has(repo.key))
      .filter((repo) => !(backup.excludeBuilds && repo.package_type === BUILD_INFO_PACKAGE_TYPE))
      .filter((repo) => !backup.excludeNewRepositories || known.has(repo.key))
      .map((repo) => repo.id);
}

/**
 * Backups, system export and import (docs/backup.md): runs a configured backup, keeps its
 * progress while it runs, removes expired ones, mails the admins when one fails.
 */
export function createBackupsService(services: Services, config: DepotConfig, logger: Logger) {
  const masterKey = loadMasterKey(config);
  const deps: BackupDeps = {
    db: services.db,
    filestore: services.filestore,
    blobHold: services.blobHold,
    sharedDatabase: Boolean(config.databaseUrl),
    depotVersion: services.version.version,
    masterKey,
  };
  const progress = new Map<string, BackupProgress>();
  const store = () => services.entities.collection('backup');

  async function backupConfig(key: string): Promise<BackupConfig> {
    if (!(await store().exists(key))) throw new NotFound(BACKUP_MESSAGES.notFound(key));
    return (await store().get(key)).document as unknown as BackupConfig;
  }

  async function mailAdmins(key: string, error: Error) {
    const admins = (await services.users.list()).filter((user) => user.admin && user.email);
    for (const admin of admins)
      await services.mail
        .send({
          to: admin.email,
          subject: `Depot backup '${key}' failed`,
          text: `The backup '${key}' failed: ${error.message}`,
        })
        .catch((mailError: Error) =>
          logger.warn({ err: mailError, backup: key }, 'mailing a backup failure failed'),
        );
  }

  return {
    /** A saved backup, or 404. */
    config: backupConfig,

    /** What a running backup has done so far, or undefined. */
    progressOf: (key: string) => progress.get(key),

    /** Runs a configured backup now; answers the job's sentence. */
    async run(key: string, stopping?: AbortSignal) {
      const backup = await backupConfig(key);
      const dir = backupTarget(backup, config.backupDirs);
      const request: BackupRequest = {
        dir,
        incremental: backup.incremental,
        createArchive: backup.createArchive ?? false,
        excludeContent: false,
        includeProperties: true,
        excludeBuilds: backup.excludeBuilds,
        includeMasterKey: backup.exportMasterKey,
        precalculate: backup.precalculate,
        retentionPeriodHours: backup.retentionPeriodHours,
        chooseRepositories: repositoriesOf(backup),
      };
      try {
        const written = await writeBackup(
          deps,
          request,
          (step) => progress.set(key, step),
          stopping,
        );
        const { removed } = written;
        const { blobs } = written.manifest;
        return {
          info:
            `Backup '${key}' wrote ${blobs.count} binaries (${blobs.copied} copied, ` +
            `${humanBytes(blobs.copiedBytes)}) and removed ${removed} expired backups`,
          path: written.path,
          copied: blobs.copied,
          removed,
        };
      } catch (error) {
        if (backup.sendMailNotification) await mailAdmins(key, error as Error);
        throw error;
      } finally {
        progress.delete(key);
      }
    },

    /**
     * `POST /artifactory/api/export/system`, checked: the backup it asks for, or 400 (a path
     * outside the allowed directories, a zip asked to be incremental). Nothing is written yet.
     */
    exportRequest(body: SystemExport): BackupRequest {
      if (body.createArchive && body.incremental)
        throw new BadRequest(BACKUP_MESSAGES.zipIsFull, 'createArchive');
      return {
        dir: allowedBackupPath(body.exportPath, config.backupDirs, 'exportPath'),
        incremental: body.incremental ?? false,
        createArchive: body.createArchive ?? false,
        excludeContent: body.excludeContent ?? false,
        includeProperties: body.includeMetadata ?? true,
        excludeBuilds: false,
        includeMasterKey: false,
        precalculate: true,
        chooseRepositories: (repositories) => repositories.map((repo) => repo.id),
      };
    },

    /** Writes the backup `exportRequest` checked, telling its progress. */
    exportSystem(request: BackupRequest, onProgress?: (progress: BackupProgress) => void) {
      return writeBackup(deps, request, onProgress);
    },

    /** The backup form's directory picker: the allowed directories, or one's subdirectories. */
    browse(path: string | undefined) {
      return browseFilesystem(config.backupDirs, path);
    },

    /** The name of the newest backup a configured backup wrote (a directory or a zip), or null. */
    async newestOf(key: string): Promise<string | null> {
      const newest = await newestBackupIn(backupTarget(await backupConfig(key), config.backupDirs));
      return newest ? basename(newest) : null;
    },

    /** The console's Restore: the newest backup of a configured backup, into an empty Depot. */
    async restoreNewest(key: string) {
      const dir = backupTarget(await backupConfig(key), config.backupDirs);
      const newest = await newestBackupIn(dir);
      if (!newest) throw new NotFound(BACKUP_MESSAGES.noneYet(key));
      return this.importSystem(newest);
    },

    /**
     * `POST /artifactory/api/import/system`: restores a backup (a directory or a zip, or the
     * newest of either in a directory of backups) into a Depot without repositories.
     */
    async importSystem(importPath: string) {
      let path = allowedBackupPath(importPath, config.backupDirs, 'importPath');
      if (!existsSync(join(path, 'manifest.json')) && !path.endsWith(ZIP_SUFFIX))
        path = (await newestBackupIn(path)) ?? path;
      const restoreDeps = {
        db: services.db,
        filestore: services.filestore,
        changes: services.tableChanges,
        masterKey,
      };
      if (!path.endsWith(ZIP_SUFFIX) || !statSync(path, { throwIfNoEntry: false })?.isFile()) {
        await requireNeighboursAllowed(path, importPath, config.backupDirs);
        return restoreBackup(restoreDeps, path, importPath);
      }
      await requireEmpty(services.db); // before the zip's metadata is extracted
      const zip = await openZipBackup(path, services.filestore.tmpDir, importPath);
      try {
        return await restoreBackup(restoreDeps, zip.dir, importPath, zip.openBlob);
      } finally {
        await zip.close();
      }
    },
  };
}

export type BackupsService = ReturnType<typeof createBackupsService>;
