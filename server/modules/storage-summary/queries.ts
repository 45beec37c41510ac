import type { Database } from '../../db/database.ts';

export interface BinaryTotals {
  count: number;
  size: number;
}

export interface RepositoryTotals {
  key: string;
  rclass: string;
  packageType: string;
  files: number;
  folders: number;
  /** Sum of the sizes of the repository's files: what it would take without deduplication. */
  used: number;
}

/** What is stored on disk: each content once, whatever refers to it. One pass over `blobs`. */
export async function binaryTotals(db: Database): Promise<BinaryTotals> {
  const row = await db
    .selectFrom('blobs')
    .select((eb) => [
      eb.fn.countAll().as('count'),
      eb.fn.coalesce(eb.fn.sum('size'), eb.val(0)).as('size'),
    ])
    .executeTakeFirstOrThrow();
  // Drivers answer bigint and numeric as strings or numbers; both read the same here.
  return { count: Number(row.count), size: Number(row.size) };
}

/**
 * Files, folders and used space of every repository in one query: the nodes are grouped by
 * repository id first (a single scan of `nodes`), then joined to the repositories, so a
 * repository with nothing in it still has its row. Ordered by key.
 */
export async function repositoryTotals(db: Database): Promise<RepositoryTotals[]> {
  const perRepository = db
    .selectFrom('nodes')
    .select((eb) => [
      'repository_id',
      eb.fn.countAll().filterWhere('folder', '=', false).as('files'),
      eb.fn.countAll().filterWhere('folder', '=', true).as('folders'),
      eb.fn.sum('size').filterWhere('folder', '=', false).as('used'),
    ])
    .groupBy('repository_id')
    .as('totals');
  const rows = await db
    .selectFrom('repositories')
    .leftJoin(perRepository, 'totals.repository_id', 'repositories.id')
    .select([
      'repositories.key',
      'repositories.rclass',
      'repositories.package_type',
      'totals.files',
      'totals.folders',
      'totals.used',
    ])
    .orderBy('repositories.key')
    .execute();
  return rows.map((row) => ({
    key: row.key,
    rclass: row.rclass,
    packageType: row.package_type,
    files: Number(row.files ?? 0),
    folders: Number(row.folders ?? 0),
    used: Number(row.used ?? 0),
  }));
}
