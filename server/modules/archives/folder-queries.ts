import type { Database } from '../../db/database.ts';
import { escapeLike } from '../artifacts/paths.ts';

/** A stored file below the downloaded folder, as the archive writer needs it. */
export interface FolderFile {
  path: string;
  size: number;
  sha256: string;
  sha1: string;
  md5: string | null;
  modifiedAt: Date;
}

/** Files only (folders are implied by the entries' paths), deep below `path` ('' = root). */
function filesBelow(db: Database, repositoryId: number, path: string) {
  return db
    .selectFrom('nodes')
    .where('nodes.repository_id', '=', repositoryId)
    .where('nodes.folder', '=', false)
    .$if(path !== '', (q) => q.where('nodes.path', 'like', `${escapeLike(path)}/%`));
}

/** How many files lie below a folder of one repository, and their total size in bytes. */
export async function folderTotals(db: Database, repositoryId: number, path: string) {
  const row = await filesBelow(db, repositoryId, path)
    .select((eb) => [eb.fn.countAll().as('files'), eb.fn.sum('nodes.size').as('bytes')])
    .executeTakeFirstOrThrow();
  return { files: Number(row.files), bytes: Number(row.bytes ?? 0) };
}

/** A page of the paths and sizes of the files below a folder, in path order, after `after`. */
export function folderFileSizes(
  db: Database,
  repositoryId: number,
  path: string,
  limit: number,
  after?: string,
): Promise<{ path: string; size: number }[]> {
  return filesBelow(db, repositoryId, path)
    .select(['nodes.path', 'nodes.size'])
    .$if(after !== undefined, (q) => q.where('nodes.path', '>', after!))
    .orderBy('nodes.path')
    .limit(limit)
    .execute();
}

/** Up to `limit` files below a folder of one repository, in path order, after `after`. */
export async function listFolderFiles(
  db: Database,
  repositoryId: number,
  path: string,
  limit: number,
  after?: string,
): Promise<FolderFile[]> {
  const rows = await filesBelow(db, repositoryId, path)
    .innerJoin('blobs', 'blobs.sha256', 'nodes.sha256')
    .select([
      'nodes.path',
      'nodes.size',
      'nodes.sha256',
      'nodes.modified_at',
      'blobs.sha1',
      'blobs.md5',
    ])
    .$if(after !== undefined, (q) => q.where('nodes.path', '>', after!))
    .orderBy('nodes.path')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    path: row.path,
    size: Number(row.size),
    sha256: row.sha256!,
    sha1: row.sha1,
    md5: row.md5,
    modifiedAt: new Date(row.modified_at),
  }));
}
