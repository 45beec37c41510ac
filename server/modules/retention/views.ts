import type { executionsBetween } from './execution-queries.ts';
import type { ArchivedItem, archiveTotals } from './item-queries.ts';

/** How the console's retention calls show their rows (spec 02, "Retention (archive)"). */
export function searchResult(item: ArchivedItem) {
  return {
    name: item.name,
    repo: item.repo_key,
    path: item.path === '' ? '.' : item.path,
    created: new Date(item.item_created_at).toISOString(),
    archived: new Date(item.archived_at).toISOString(),
    size: Number(item.size),
    sha256: item.sha256,
    actual_sha1: item.sha1,
    actual_md5: item.md5,
    properties: Object.entries(item.properties).flatMap(([key, values]) =>
      values.map((value) => ({ key, value })),
    ),
  };
}

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${(bytes / MB).toFixed(2)} MB`;

/** The cold store's statistics cards: sizes as "number unit" strings the console splits. */
export function binariesSummary(totals: Awaited<ReturnType<typeof archiveTotals>>) {
  const saved = totals.artifactsSize - totals.binariesSize;
  return {
    binariesSize: megabytes(totals.binariesSize),
    artifactsSize: megabytes(totals.artifactsSize),
    optimization:
      totals.artifactsSize > 0 ? `${Math.round((saved / totals.artifactsSize) * 100)}%` : '0%',
    binariesCount: totals.binaries,
    artifactsCount: totals.items,
    itemsCount: totals.items,
  };
}

export function executionView(row: Awaited<ReturnType<typeof executionsBetween>>[number]) {
  return {
    executionId: Number(row.id),
    migrationIdentifier: String(row.id),
    policyName: row.policy_key,
    action: row.action,
    state: row.state,
    startTime: new Date(row.started_at).getTime(),
    endTime: row.finished_at ? new Date(row.finished_at).getTime() : null,
    startedBy: row.started_by,
    items: row.items,
    bytes: Number(row.bytes),
    freedBytes: Number(row.freed_bytes),
    errors: row.errors,
    message: row.message,
    undone: row.undone_at !== null,
  };
}
