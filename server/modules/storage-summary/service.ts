import { statfs } from 'node:fs/promises';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { Database } from '../../db/database.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import { binaryTotals, repositoryTotals, type RepositoryTotals } from './queries.ts';

/** The key of the last row of the per-repository list, which sums up all the others. */
export const TOTAL_ROW_KEY = 'TOTAL';
/** What the storage summary shows where a value does not apply (Artifactory's "NA"). */
export const NOT_APPLICABLE = 'NA';

export interface BinariesSummary {
  /** Distinct contents stored, and their size on disk. */
  binariesCount: number;
  binariesSize: number;
  /** Every file of every repository, and the size they add up to without deduplication. */
  artifactsCount: number;
  artifactsSize: number;
  /** Files and folders. */
  itemsCount: number;
  /** binariesSize as a percentage of artifactsSize (Artifactory's figure): lower saves more. */
  optimization: number;
}

export interface FileStoreSummary {
  storageType: 'filesystem';
  /** A server path: both calls that show it are for admins only. */
  storageDirectory: string;
  /** Of the disk the filestore lives on, in bytes. */
  totalSpace: number;
  usedSpace: number;
  freeSpace: number;
}

export interface RepositorySummary {
  repoKey: string;
  /** LOCAL, CACHE (a remote repository's cache), VIRTUAL, TRASH, ...; NA on the total row. */
  repoType: string;
  packageType: string;
  foldersCount: number;
  filesCount: number;
  itemsCount: number;
  usedSpace: number;
  /** Share of all artifacts' size, in percent with two decimals. */
  percentage: number;
}

export interface StorageSummary {
  binariesSummary: BinariesSummary;
  fileStoreSummary: FileStoreSummary;
  /** One row per repository, by key, then the TOTAL row. */
  repositoriesSummaryList: RepositorySummary[];
}

/** `part` as a percentage of `whole`, two decimals; 0 when there is no whole. */
export const percentOf = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100;

/**
 * The storage summary (spec 03 §2, Monitoring > Storage): what the filestore holds against
 * what the repositories refer to, per repository, and the filestore's disk. Computed live by
 * two aggregate queries, whatever the number of repositories; the console's page and
 * `/artifactory/api/storageinfo` both read it from here.
 */
export function createStorageSummaryService(
  db: Database,
  filestore: Filestore,
  catalogue: Catalogue,
) {
  /** How Artifactory names a repository in the summary: a remote one by its cache. */
  function identify(repo: RepositoryTotals): Pick<RepositorySummary, 'repoKey' | 'repoType'> {
    if (repo.key.toLowerCase() === TRASH_REPO_KEY) return { repoKey: repo.key, repoType: 'TRASH' };
    if (repo.rclass === 'remote') return { repoKey: `${repo.key}-cache`, repoType: 'CACHE' };
    return { repoKey: repo.key, repoType: repo.rclass.toUpperCase() };
  }

  function repositoryRow(repo: RepositoryTotals, artifactsSize: number): RepositorySummary {
    return {
      ...identify(repo),
      packageType: catalogue.packageType(repo.packageType)?.text ?? repo.packageType,
      foldersCount: repo.folders,
      filesCount: repo.files,
      itemsCount: repo.files + repo.folders,
      usedSpace: repo.used,
      percentage: percentOf(repo.used, artifactsSize),
    };
  }

  async function fileStoreSummary(): Promise<FileStoreSummary> {
    const disk = await statfs(filestore.root);
    const totalSpace = disk.blocks * disk.bsize;
    // Free as an unprivileged process sees it; blocks reserved for root count as used, so
    // used and free add up to the total.
    const freeSpace = disk.bavail * disk.bsize;
    return {
      storageType: 'filesystem',
      storageDirectory: filestore.root,
      totalSpace,
      usedSpace: totalSpace - freeSpace,
      freeSpace,
    };
  }

  return {
    async summarize(): Promise<StorageSummary> {
      const [binaries, repositories, fileStore] = await Promise.all([
        binaryTotals(db),
        repositoryTotals(db),
        fileStoreSummary(),
      ]);
      const sum = (pick: (repo: RepositoryTotals) => number) =>
        repositories.reduce((total, repo) => total + pick(repo), 0);
      const artifactsSize = sum((repo) => repo.used);
      const artifactsCount = sum((repo) => repo.files);
      const foldersCount = sum((repo) => repo.folders);
      const total: RepositorySummary = {
        repoKey: TOTAL_ROW_KEY,
        repoType: NOT_APPLICABLE,
        packageType: NOT_APPLICABLE,
        foldersCount,
        filesCount: artifactsCount,
        itemsCount: artifactsCount + foldersCount,
        usedSpace: artifactsSize,
        percentage: artifactsSize === 0 ? 0 : 100,
      };
      return {
        binariesSummary: {
          binariesCount: binaries.count,
          binariesSize: binaries.size,
          artifactsCount,
          artifactsSize,
          itemsCount: total.itemsCount,
          optimization: percentOf(binaries.size, artifactsSize),
        },
        fileStoreSummary: fileStore,
        repositoriesSummaryList: [
          ...repositories.map((repo) => repositoryRow(repo, artifactsSize)),
          total,
        ],
      };
    },
  };
}

export type StorageSummaryService = ReturnType<typeof createStorageSummaryService>;
