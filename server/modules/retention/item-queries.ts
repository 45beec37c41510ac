import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

export type ArchivedItem = Awaited<ReturnType<typeof archivedBatch>>[number];

/** Items of the archive not restored, in id order after `afterId` (for search and restore). */
export function archivedBatch(db: Database, afterId: number, limit: number) {
  return db
    .selectFrom('retention_items')
    .selectAll()
    .where('restored_at', 'is', null)
    .where('cold_released', '=', false)
    .where('action', '=', 'archive')
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The archived (not restored) record of an item at repo/path/name, newest first. */
export function archivedAt(db: Database, repo: string, path: string, name: string) {
  return db
    .selectFrom('retention_items')
    .selectAll()
    .where('restored_at', 'is', null)
    .where('action', '=', 'archive')
    .where('repo_key', '=', repo)
    .where('path', '=', path)
    .where('name', '=', name)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** The items a run took out that are not back yet. */
export function itemsOfExecution(db: Database, executionId: number) {
  return db
    .selectFrom('retention_items')
    .selectAll()
    .where('execution_id', '=', executionId)
    .where('restored_at', 'is', null)
    .where('cold_released', '=', false)
    .orderBy('id')
    .execute();
}

export async function markRestored(db: Database, id: number) {
  await db
    .updateTable('retention_items')
    .set({ restored_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/**
 * Contents of the cold store no record needs any more: every record holding them is restored,
 * or is a delete run's whose undo window (`undoCutoff`) has passed.
 */
export async function unneededContents(db: Database, undoCutoff: Date, limit: number) {
  const { rows } = await sql<{ sha256: string }>`
    select distinct i.sha256 from retention_items i
    where not i.cold_released and not exists (
      select 1 from retention_items k
      where k.sha256 = i.sha256 and k.restored_at is null
        and (k.action = 'archive' or k.archived_at >= ${undoCutoff}))
    limit ${limit}`.execute(db);
  return rows.map((row) => row.sha256);
}

/** Records that the cold store let these contents go: their records can no longer restore. */
export async function markReleased(db: Database, sha256s: string[]) {
  if (sha256s.length === 0) return;
  await db
    .updateTable('retention_items')
    .set({ cold_released: true })
    .where('sha256', 'in', sha256s)
    .execute();
}

/** What the cold store holds for the archive (spec's binariesSummary, as numbers). */
export async function archiveTotals(db: Database) {
  const { rows } = await sql<Record<string, string | number | null>>`
    select count(*) as items, coalesce(sum(size), 0) as artifacts_size,
           count(distinct sha256) as binaries,
           (select coalesce(sum(s.size), 0) from (
              select distinct sha256, size from retention_items
              where restored_at is null and action = 'archive') s) as binaries_size
    from retention_items where restored_at is null and action = 'archive'`.execute(db);
  const row = rows[0];
  return {
    items: Number(row.items),
    artifactsSize: Number(row.artifacts_size),
    binaries: Number(row.binaries),
    binariesSize: Number(row.binaries_size),
  };
}
