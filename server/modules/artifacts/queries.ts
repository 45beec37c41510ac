import type { Database } from '../../db/database.ts';

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
