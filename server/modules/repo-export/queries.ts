import type { Database } from '../../db/database.ts';
import type { Properties } from '../artifacts/properties.ts';
import { NODE_WITH_CHECKSUMS } from '../artifacts/node-columns.ts';

/** Items read per statement: memory stays flat whatever the repository's size. */
export const EXPORT_PAGE = 500;

export type ExportedNode = Awaited<ReturnType<typeof nodesPage>>[number];

/** The next page of a repository's items (files and folders) after `afterId`, with checksums. */
export function nodesPage(db: Database, repositoryId: number, afterId: number) {
  return db
    .selectFrom('nodes')
    .leftJoin('blobs', 'blobs.sha256', 'nodes.sha256')
    .select(NODE_WITH_CHECKSUMS)
    .where('nodes.repository_id', '=', repositoryId)
    .where('nodes.id', '>', afterId)
    .orderBy('nodes.id')
    .limit(EXPORT_PAGE)
    .execute();
}

/** The properties of a page of items, by item id. */
export async function propertiesOfNodes(
  db: Database,
  nodeIds: number[],
): Promise<Map<number, Properties>> {
  const byNode = new Map<number, Properties>();
  if (nodeIds.length === 0) return byNode;
  const rows = await db
    .selectFrom('node_properties')
    .select(['node_id', 'key', 'value'])
    .where('node_id', 'in', nodeIds)
    .orderBy('node_id')
    .orderBy('key')
    .orderBy('value')
    .execute();
  for (const row of rows) {
    const properties = byNode.get(Number(row.node_id)) ?? {};
    (properties[row.key] ??= []).push(row.value);
    byNode.set(Number(row.node_id), properties);
  }
  return byNode;
}

/** The id of the folder at `path` in a repository, if there is one. */
export async function folderId(db: Database, repositoryId: number, path: string) {
  const row = await db
    .selectFrom('nodes')
    .select('id')
    .where('repository_id', '=', repositoryId)
    .where('path', '=', path)
    .where('folder', '=', true)
    .executeTakeFirst();
  return row ? Number(row.id) : undefined;
}
