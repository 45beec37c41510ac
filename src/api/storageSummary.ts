import { call } from './client';

/** `GET /ui/api/v1/ui/storagesummary` (server/modules/storage-summary): sizes in bytes. */
export interface StorageSummary {
  binariesSummary: {
    binariesCount: number;
    binariesSize: number;
    artifactsCount: number;
    artifactsSize: number;
    itemsCount: number;
    /** binariesSize as a percentage of artifactsSize. */
    optimization: number;
  };
  fileStoreSummary: {
    storageType: string;
    storageDirectory: string;
    totalSpace: number;
    usedSpace: number;
    freeSpace: number;
  };
  /** One row per repository by key, then the TOTAL row. */
  repositoriesSummaryList: RepositoryUsage[];
}

export interface RepositoryUsage {
  repoKey: string;
  repoType: string;
  packageType: string;
  foldersCount: number;
  filesCount: number;
  itemsCount: number;
  usedSpace: number;
  /** Share of all artifacts' size, in percent. */
  percentage: number;
}

export const storageSummaryApi = {
  get: () => call<StorageSummary>('GET', '/ui/storagesummary'),
};
