import { call } from '../../api/client';

/** An archived item as the archive search answers it (server/modules/retention/views.ts). */
export interface ArchivedItem {
  name: string;
  repo: string;
  path: string;
  created: string;
  archived: string;
  size: number;
}

export interface Execution {
  executionId: number;
  policyName: string | null;
  action: string | null;
  state: string;
  startTime: number;
  endTime: number | null;
  items: number;
  errors: number;
  message: string;
}

export interface BinariesSummary {
  binariesSize: string;
  artifactsSize: string;
  optimization: string;
  binariesCount: number;
  artifactsCount: number;
  itemsCount: number;
}

export interface RestoreRequest {
  restoreToOriginal: boolean;
  fallbackDestinationPath?: string;
  centralDestinationPath?: string;
  itemsToRestore: { repo: string; path: string; name: string }[];
}

export interface RestoreOutcome {
  info: string;
  restored: number;
  failures: { item: string; reason: string }[];
}

/** The console's retention calls (spec 02 §7 "Retention"; docs/retention.md). */
export const retentionApi = {
  storageInfo: () =>
    call<{ binariesSummary: BinariesSummary }>('GET', '/ui/retention/archive/storageinfo'),
  executions: (kind: 'archive' | 'restore', from: number, to: number) =>
    call<Execution[]>('GET', `/ui/retention/${kind}/executions`, {
      searchParams: { from: String(from), to: String(to) },
    }),
  /** The AQL goes as text/plain (spec 02 §7). */
  search: (aql: string) =>
    call<{ data: { results: ArchivedItem[]; range: { total: number } } }>(
      'POST',
      '/ui/retention/search',
      { body: aql, headers: { 'content-type': 'text/plain' } },
    ),
  restore: (request: RestoreRequest) =>
    call<RestoreOutcome>('POST', '/ui/retention/restore', { json: request }),
  repositories: () => call<{ repoKey: string; repoType: string }[]>('GET', '/ui/repodata'),
};
