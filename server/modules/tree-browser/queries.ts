import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/** Where a page of children starts: after `name` among folders (folder) or files. */
export interface ChildCursor {
  folder: boolean;
  after: string;
}

export interface ChildRow {
  name: string;
  path: string;
  folder: boolean;
  size: number;
  mime_type: string | null;
  modified_at: Date | string;
}

/** Up to `limit` children of one kind after the cursor's name, in byte order, from the index. */
function childrenOfKind(
  db: Database,
  repositoryId: number,
  parentPath: string,
  folder: boolean,
  after: string | undefined,
  limit: number,
) {
  return db
    .selectFrom('nodes')
    .select(['name', 'path', 'folder', 'size', 'mime_type', 'modified_at'])
    .where('repository_id', '=', repositoryId)
    .where('parent_path', '=', parentPath)
    .where('folder', '=', folder)
    .$if(after !== undefined, (q) => q.where(sql`name collate "C"`, '>', after!))
    .orderBy(sql`name collate "C"`)
    .limit(limit)
    .execute() as Promise<ChildRow[]>;
}

/**
 * One page of a folder's children, folders first, each kind by name, starting after
 * `cursor`. Answers `limit + 1` rows at most, so the caller knows whether more follow.
 */
export async function childrenPage(
  db: Database,
  repositoryId: number,
  parentPath: string,
  cursor: ChildCursor | undefined,
  limit: number,
): Promise<ChildRow[]> {
  const rows: ChildRow[] = [];
  if (!cursor || cursor.folder) {
    rows.push(
      ...(await childrenOfKind(db, repositoryId, parentPath, true, cursor?.after, limit + 1)),
    );
  }
  if (rows.length <= limit) {
    const after = cursor && !cursor.folder ? cursor.after : undefined;
    rows.push(
      ...(await childrenOfKind(
        db,
        repositoryId,
        parentPath,
        false,
        after,
        limit + 1 - rows.length,
      )),
    );
  }
  return rows;
}

/**
 * For each folder, any two of its children: enough to tell an empty folder from one with a
 * single folder inside (which the compacted tree shows merged) and from any other. One
 * query for a whole page of folders.
 */
export async function firstChildren(
  db: Database,
  repositoryId: number,
  folderPaths: string[],
): Promise<Map<string, { name: string; folder: boolean }[]>> {
  const found = new Map<string, { name: string; folder: boolean }[]>(
    folderPaths.map((path) => [path, []]),
  );
  if (folderPaths.length === 0) return found;
  const rows = await sql<{ parent: string; name: string; folder: boolean }>`
    select p.path as parent, c.name, c.folder
    from unnest(${folderPaths}::text[]) as p(path)
    cross join lateral (
      select name, folder from nodes
      where repository_id = ${repositoryId} and parent_path = p.path
      limit 2
    ) as c`.execute(db);
  for (const row of rows.rows) found.get(row.parent)?.push({ name: row.name, folder: row.folder });
  return found;
}
