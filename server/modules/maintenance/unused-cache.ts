import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import type { DownloadStatsService } from './download-stats.ts';
import { humanBytes } from './human-bytes.ts';

export type UnusedCacheReport = {
  info: string;
  repositories: number;
  files: number;
  bytes: number;
};

const HOUR_MS = 3600 * 1000;

/**
 * Deletes files cached by remote repositories that nobody downloaded within the
 * repository's `unusedArtifactsCleanupPeriodHours` (0 or unset: kept for ever). A file
 * never downloaded counts from when it was cached. Folders left empty go too. The blobs
 * themselves are freed by the next garbage collection.
 */
export async function cleanUnusedCache(
  db: Database,
  downloadStats: DownloadStatsService,
  now = new Date(),
): Promise<UnusedCacheReport> {
  await downloadStats.flush(); // the counts this process holds decide what is unused
  const remotes = await db
    .selectFrom('repositories')
    .select(['id', 'key', 'config'])
    .where('rclass', '=', 'remote')
    .execute();
  const report = { repositories: 0, files: 0, bytes: 0 };
  for (const remote of remotes) {
    const hours = Number(
      (remote.config as { unusedArtifactsCleanupPeriodHours?: number })
        .unusedArtifactsCleanupPeriodHours ?? 0,
    );
    if (!(hours > 0)) continue;
    const removed = await removeUnused(db, remote.id, new Date(now.getTime() - hours * HOUR_MS));
    if (removed.files > 0) report.repositories += 1;
    report.files += removed.files;
    report.bytes += removed.bytes;
  }
  return {
    info: `Removed ${report.files} unused cached artifacts (${humanBytes(report.bytes)}) from ${report.repositories} remote repositories`,
    ...report,
  };
}

async function removeUnused(db: Database, repositoryId: number, cutoff: Date) {
  return retryTransaction(() => removeUnusedOnce(db, repositoryId, cutoff));
}

async function removeUnusedOnce(db: Database, repositoryId: number, cutoff: Date) {
  return db.transaction().execute(async (tx) => {
    const deleted = await tx
      .deleteFrom('nodes')
      .where('repository_id', '=', repositoryId)
      .where('folder', '=', false)
      .where(
        sql<boolean>`coalesce(
          (select last_downloaded from download_stats where download_stats.node_id = nodes.id),
          nodes.created_at) < ${cutoff}`,
      )
      .returning('size')
      .execute();
    // Folders with nothing left below them. Held first, as every removal is
    // (artifacts/tree-writes.ts): a cache fill writing below one commits before the delete
    // looks again, so its folder stays.
    const empty = sql<boolean>`not exists (select 1 from nodes below
          where below.repository_id = nodes.repository_id and below.folder = false
            and left(below.path, length(nodes.path) + 1) = nodes.path || '/')`;
    await tx
      .selectFrom('nodes')
      .select('id')
      .where('repository_id', '=', repositoryId)
      .where('folder', '=', true)
      .where(empty)
      .forUpdate()
      .execute();
    await tx
      .deleteFrom('nodes')
      .where('repository_id', '=', repositoryId)
      .where('folder', '=', true)
      .where(empty)
      .execute();
    return {
      files: deleted.length,
      bytes: deleted.reduce((sum, row) => sum + Number(row.size), 0),
    };
  });
}
