import type { Database } from '../../db/database.ts';
import { NotFound } from '../../errors.ts';
import { newestFilesBelow } from './queries.ts';

const PAGE = 100;
const iso = (date: Date | string) => new Date(date).toISOString();

interface Located {
  repo: { id: number; key: string };
  path: string;
  node?: { folder: boolean; modified_at: Date | string };
  /** The storage URI of the repository's root. */
  rootUri: string;
  readable: (entry: { path: string; folder: boolean }) => boolean;
}

/**
 * `GET /api/storage/{repo}/{path}?lastModified` as Artifactory answers it: for a file, the
 * file; for a folder (or the repository), the most recently changed file anywhere below it
 * that the caller may read, `{uri, lastModified}`. A folder with no such file answers with
 * itself; a repository with none has no item to name (404).
 */
export async function lastModifiedBelow(db: Database, item: Located) {
  const { repo, path, node, rootUri } = item;
  const answer = (itemPath: string, modified: Date | string) => ({
    uri: itemPath === '' ? rootUri : `${rootUri}/${itemPath}`,
    lastModified: iso(modified),
  });
  if (node && !node.folder) return answer(path, node.modified_at);
  for (let offset = 0; ; offset += PAGE) {
    const page = await newestFilesBelow(db, repo.id, path, offset, PAGE);
    const newest = page.find(item.readable);
    if (newest) return answer(newest.path, newest.modified_at);
    if (page.length < PAGE) break;
  }
  if (node) return answer(path, node.modified_at);
  throw new NotFound(`Unable to find an item in '${repo.key}'`);
}
