import type {
  RepositorySummary,
  StorageSummary,
} from '../../server/modules/storage-summary/service.ts';
import { call } from './client';

/** `GET /ui/api/v1/ui/storagesummary` (server/modules/storage-summary): sizes in bytes. */
export type { StorageSummary };
/** One row of the summary's repository list (the last one is the TOTAL row). */
export type RepositoryUsage = RepositorySummary;

export const storageSummaryApi = {
  get: () => call<StorageSummary>('GET', '/ui/storagesummary'),
};
