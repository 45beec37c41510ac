import type { RepositorySummary, StorageSummary } from './service.ts';
import { percentOf, TOTAL_ROW_KEY } from './service.ts';

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Sizes as Artifactory writes them: "0 bytes", "512 bytes", "1.50 MB" (powers of 1024). */
export function readableSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(2)} ${UNITS[unit]}`;
}

/** Counts with thousands separators ("2,084,408"), as Artifactory writes them. */
const readableCount = (count: number) => count.toLocaleString('en-US');
const readablePercent = (percent: number) => `${percent}%`;

function repositoryEntry(row: RepositorySummary) {
  const common = {
    repoKey: row.repoKey,
    repoType: row.repoType,
    foldersCount: row.foldersCount,
    filesCount: row.filesCount,
    usedSpace: readableSize(row.usedSpace),
    usedSpaceInBytes: row.usedSpace,
    itemsCount: row.itemsCount,
  };
  // Artifactory's TOTAL row has no package type and no percentage.
  if (row.repoKey === TOTAL_ROW_KEY) return common;
  return { ...common, packageType: row.packageType, percentage: readablePercent(row.percentage) };
}

/**
 * `GET /artifactory/api/storageinfo` in Artifactory's shape: the same summary as the console's,
 * with sizes and counts as display strings, for the scripts written against it.
 */
export function toStorageInfo(summary: StorageSummary) {
  const { binariesSummary: binaries, fileStoreSummary: fileStore } = summary;
  return {
    binariesSummary: {
      binariesCount: readableCount(binaries.binariesCount),
      binariesSize: readableSize(binaries.binariesSize),
      artifactsSize: readableSize(binaries.artifactsSize),
      optimization: readablePercent(binaries.optimization),
      itemsCount: readableCount(binaries.itemsCount),
      artifactsCount: readableCount(binaries.artifactsCount),
    },
    fileStoreSummary: {
      storageType: fileStore.storageType,
      storageDirectory: fileStore.storageDirectory,
      totalSpace: readableSize(fileStore.totalSpace),
      usedSpace: `${readableSize(fileStore.usedSpace)} (${readablePercent(percentOf(fileStore.usedSpace, fileStore.totalSpace))})`,
      freeSpace: `${readableSize(fileStore.freeSpace)} (${readablePercent(percentOf(fileStore.freeSpace, fileStore.totalSpace))})`,
    },
    repositoriesSummaryList: summary.repositoriesSummaryList.map(repositoryEntry),
  };
}
