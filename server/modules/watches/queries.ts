import type { Database } from '../../db/database.ts';
import { ancestorsOf } from '../artifacts/paths.ts';

export interface WatchRow {
  path: string;
  username: string;
  created_at: Date | string;
}

/** The repository itself (''), every folder above the path, and the path. */
const selfAndAncestors = (path: string) => (path === '' ? [''] : ['', ...ancestorsOf(path), path]);

/** Everyone watching the node or anything above it, outermost first, then by name. */
export function watchesCovering(db: Database, repositoryId: number, path: string) {
  return db
    .selectFrom('watches')
    .select(['path', 'username', 'created_at'])
    .where('repository_id', '=', repositoryId)
    .where('path', 'in', selfAndAncestors(path))
    .orderBy((eb) => eb.fn('length', ['path']))
    .orderBy('username')
    .execute() as Promise<WatchRow[]>;
}

export async function isWatching(
  db: Database,
  repositoryId: number,
  path: string,
  username: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('watches')
    .select('username')
    .where('repository_id', '=', repositoryId)
    .where('path', '=', path)
    .where('username', '=', username)
    .executeTakeFirst();
  return row !== undefined;
}

/** Watches a node; watching it again changes nothing (not even since when). */
export async function addWatch(db: Database, repositoryId: number, path: string, username: string) {
  await db
    .insertInto('watches')
    .values({ repository_id: repositoryId, path, username })
    .onConflict((c) => c.columns(['repository_id', 'path', 'username']).doNothing())
    .execute();
}

export async function removeWatch(
  db: Database,
  repositoryId: number,
  path: string,
  username: string,
) {
  await db
    .deleteFrom('watches')
    .where('repository_id', '=', repositoryId)
    .where('path', '=', path)
    .where('username', '=', username)
    .execute();
}
