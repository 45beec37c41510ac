import type { Database } from '../../db/database.ts';
import { escapeLike } from './paths.ts';

/** An item holding some content: where it is, and the content's checksums. */
export interface ContentHolder {
  id: number;
  repoKey: string;
  path: string;
  sha256: string;
  sha1: string;
  md5: string | null;
  size: number;
}

/**
 * One page of the files holding the content of a SHA-256 (or, without one, a SHA-1), by id
 * after `afterId`: a checksum deploy reuses the content only through one the caller may read.
 */
export function checksumHolders(
  db: Database,
  checksum: { sha256?: string; sha1?: string },
  afterId: number,
  limit: number,
): Promise<ContentHolder[]> {
  return db
    .selectFrom('nodes')
    .innerJoin('blobs', 'blobs.sha256', 'nodes.sha256')
    .innerJoin('repositories', 'repositories.id', 'nodes.repository_id')
    .select([
      'nodes.id',
      'repositories.key as repoKey',
      'nodes.path',
      'blobs.sha256',
      'blobs.sha1',
      'blobs.md5',
      'blobs.size',
    ])
    .$if(Boolean(checksum.sha256), (q) =>
      q.where('blobs.sha256', '=', checksum.sha256!.toLowerCase()),
    )
    .$if(!checksum.sha256, (q) => q.where('blobs.sha1', '=', (checksum.sha1 ?? '').toLowerCase()))
    .where('nodes.folder', '=', false)
    .where('nodes.id', '>', afterId)
    .orderBy('nodes.id')
    .limit(limit)
    .execute();
}

/** A file below a folder, newest first: what `?lastModified` looks through. */
export interface NewestFile {
  path: string;
  folder: boolean;
  modified_at: Date | string;
}

/**
 * One page of the files at or below `path` of a repository ('' is the whole repository),
 * newest change first (ties by path), from `offset`.
 */
export function newestFilesBelow(
  db: Database,
  repositoryId: number,
  path: string,
  offset: number,
  limit: number,
): Promise<NewestFile[]> {
  return db
    .selectFrom('nodes')
    .select(['path', 'folder', 'modified_at'])
    .where('repository_id', '=', repositoryId)
    .where('folder', '=', false)
    .$if(path !== '', (q) => q.where('path', 'like', `${escapeLike(path)}/%`))
    .orderBy('modified_at', 'desc')
    .orderBy('path')
    .offset(offset)
    .limit(limit)
    .execute();
}
