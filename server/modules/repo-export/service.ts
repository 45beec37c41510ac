import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DepotConfig } from '../../config.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { allowedBackupPath } from '../backups/backup-paths.ts';
import { MAVEN_TYPES } from '../../formats/maven/layout.ts';
import { TRASH_REPO_KEY } from '../trash/trash-key.ts';
import { REPO_EXPORT_MESSAGES as M } from './messages.ts';
import { exportRepository, type RepositoryExport } from './repository-export.ts';
import { METADATA_DIR } from './metadata-xml.ts';
import {
  importRepository,
  verifyImport,
  type ImportSource,
  type RepositoryImport,
} from './repository-import.ts';

/** `POST /artifactory/api/export/repositories` (docs/repository-export.md). */
export interface RepositoriesExport {
  exportPath: string;
  /** Keys of local repositories; all of them when absent or empty. */
  repositories?: string[];
  includeMetadata?: boolean;
  m2?: boolean;
  excludeContent?: boolean;
  verbose?: boolean;
}

/** `POST /artifactory/api/import/repositories`. */
export interface RepositoriesImport {
  importPath: string;
  /** One repository, whose content is `importPath` itself; else one folder per repository. */
  repo?: string;
  includeMetadata?: boolean;
  verbose?: boolean;
}

type LocalRepository = { id: number; key: string; maven: boolean };

const isDirectory = (path: string) =>
  stat(path).then(
    (stats) => stats.isDirectory(),
    () => false,
  );

/**
 * Exports local repositories into Artifactory's repository layout and imports such a layout
 * into existing local repositories, within the directories the administrator allowed
 * (DEPOT_BACKUP_DIRS, as the system export). Every refusal comes before anything is written.
 */
export function createRepoExportService(services: Services, config: DepotConfig) {
  async function localRepository(key: string): Promise<LocalRepository> {
    const row = await services.repositories.findRow(key);
    if (!row || row.key === TRASH_REPO_KEY) throw new NotFound(M.notFound(key));
    if (row.rclass !== 'local') throw new BadRequest(M.notLocal(row.key));
    return { id: row.id, key: row.key, maven: MAVEN_TYPES.has(row.package_type) };
  }

  async function allLocal(): Promise<LocalRepository[]> {
    const configs = await services.repositories.list({ rclass: 'local' });
    const keys = configs.map((repo) => repo.key).filter((key) => key !== TRASH_REPO_KEY);
    return Promise.all(keys.map(localRepository));
  }

  /** The folders an import reads, each matched to its repository; 404 when one has none. */
  async function importSources(body: RepositoriesImport, dir: string): Promise<ImportSource[]> {
    if (!(await isDirectory(dir)))
      throw new BadRequest(M.notADirectory(body.importPath), 'importPath');
    if (body.repo) return [{ repo: await localRepository(body.repo), root: dir }];
    const folders = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && entry.name !== METADATA_DIR)
      .map((entry) => entry.name);
    if (folders.length === 0)
      throw new BadRequest(M.nothingToImport(body.importPath), 'importPath');
    const sources: ImportSource[] = [];
    const unknown: string[] = [];
    for (const folder of folders.sort()) {
      const row = await services.repositories.findRow(folder);
      if (row?.rclass === 'local' && row.key !== TRASH_REPO_KEY)
        sources.push({
          repo: { id: row.id, key: row.key, maven: MAVEN_TYPES.has(row.package_type) },
          root: join(dir, folder),
        });
      else unknown.push(folder);
    }
    if (unknown.length > 0) throw new NotFound(M.unknownRepositories(unknown));
    return sources;
  }

  return {
    async exportRepositories(body: RepositoriesExport, log: (item: string) => void) {
      const dir = allowedBackupPath(body.exportPath, config.backupDirs, 'exportPath');
      const repos = body.repositories?.length
        ? await Promise.all(body.repositories.map(localRepository))
        : await allLocal();
      const deps = {
        db: services.db,
        filestore: services.filestore,
        blobHold: services.blobHold,
        md5: (sha256: string) => services.artifacts.md5(sha256),
        mavenMetadata: (repositoryId: number, folder: string) =>
          services.maven.localMetadataXml(repositoryId, folder),
        log: body.verbose ? log : () => undefined,
      };
      const options = {
        includeMetadata: body.includeMetadata ?? true,
        m2: body.m2 ?? false,
        excludeContent: body.excludeContent ?? false,
      };
      const results: RepositoryExport[] = [];
      for (const repo of repos) results.push(await exportRepository(deps, repo, dir, options));
      return { path: dir, repositories: results };
    },

    async importRepositories(body: RepositoriesImport, user: string, log: (item: string) => void) {
      const dir = allowedBackupPath(body.importPath, config.backupDirs, 'importPath');
      const sources = await importSources(body, dir);
      await verifyImport(sources);
      const deps = {
        db: services.db,
        artifacts: services.artifacts,
        log: body.verbose ? log : () => undefined,
      };
      const results: RepositoryImport[] = [];
      const options = { includeMetadata: body.includeMetadata ?? true, user };
      for (const source of sources) results.push(await importRepository(deps, source, options));
      return { path: dir, repositories: results };
    },
  };
}

export type RepoExportService = ReturnType<typeof createRepoExportService>;
