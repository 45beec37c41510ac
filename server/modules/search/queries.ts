import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import type { ItemQuery } from './criteria.ts';
import { orderSql, whereSql } from './item-sql.ts';

/** One item a search found, as the database answers it. */
export interface ItemRow {
  id: number;
  repo: string;
  /** The item's full path in its repository. */
  path: string;
  parent_path: string;
  name: string;
  folder: boolean;
  size: number;
  mime_type: string | null;
  created_at: Date;
  created_by: string;
  modified_at: Date;
  modified_by: string;
  sha256: string | null;
  sha1: string | null;
  md5: string | null;
}

export interface ItemBatch {
  query: ItemQuery;
  /** Lower-cased keys of the repositories to look in; undefined for all of them. */
  repoKeys?: readonly string[];
  offset: number;
  limit: number;
}

/** One batch of a search's rows, in the query's order, from `offset` on. */
export async function itemBatch(db: Database, batch: ItemBatch): Promise<ItemRow[]> {
  const { query, repoKeys, offset, limit } = batch;
  const inScope =
    query.scope === 'trash' ? sql`r.key = ${TRASH_REPO_KEY}` : sql`r.key <> ${TRASH_REPO_KEY}`;
  const inRepositories =
    repoKeys === undefined
      ? sql`true`
      : sql`lower(r.key) in (${sql.join(repoKeys.length > 0 ? repoKeys : [''])})`;
  const { rows } = await sql<ItemRow>`
    select n.id, r.key as repo, n.path, n.parent_path, n.name, n.folder, n.size, n.mime_type,
           n.created_at, n.created_by, n.modified_at, n.modified_by, n.sha256, b.sha1, b.md5
    from nodes n
    join repositories r on r.id = n.repository_id
    left join blobs b on b.sha256 = n.sha256
    where ${inScope} and ${inRepositories} and ${whereSql(query.where)}
    order by ${orderSql(query.sort)}
    limit ${limit} offset ${offset}`.execute(db);
  return rows.map((row) => ({ ...row, id: Number(row.id), size: Number(row.size) }));
}

/** Properties of the given items, for answers that include them. */
export async function propertiesOf(
  db: Database,
  nodeIds: readonly number[],
): Promise<Map<number, { key: string; value: string }[]>> {
  const byNode = new Map<number, { key: string; value: string }[]>();
  if (nodeIds.length === 0) return byNode;
  const rows = await db
    .selectFrom('node_properties')
    .select(['node_id', 'key', 'value'])
    .where('node_id', 'in', nodeIds)
    .orderBy('key')
    .orderBy('value')
    .execute();
  for (const row of rows) {
    const id = Number(row.node_id);
    byNode.set(id, [...(byNode.get(id) ?? []), { key: row.key, value: row.value }]);
  }
  return byNode;
}
