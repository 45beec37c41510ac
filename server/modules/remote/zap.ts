import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { escapeLike } from '../artifacts/paths.ts';

/**
 * Zaps a remote repository's cache below `path` ('' for all of it): every cached file counts
 * as never confirmed upstream, so its metadata is checked upstream on its next request
 * (files that are not metadata never expire, zapped or not), and the paths the upstream was
 * recently missing are forgotten, so they are asked for again. One transaction, set-based:
 * a cache of a million files is two statements, not a million rows in memory.
 * Answers how many cached files were zapped.
 */
export async function zapCache(db: Database, repositoryId: number, path: string) {
  const below = `${escapeLike(path)}/%`;
  return db.transaction().execute(async (tx) => {
    const zapped = await sql<{ count: string }>`
      with marked as (
        insert into remote_cache_entries (node_id, checked_at)
        select id, to_timestamp(0) from nodes
        where repository_id = ${repositoryId} and not folder
          and (${path} = '' or path = ${path} or path like ${below})
        on conflict (node_id) do update set checked_at = excluded.checked_at
        returning 1
      )
      select count(*)::text as count from marked`.execute(tx);
    await tx
      .deleteFrom('remote_misses')
      .where('repository_id', '=', repositoryId)
      .$if(path !== '', (q) =>
        q.where((eb) => eb.or([eb('path', '=', path), eb('path', 'like', below)])),
      )
      .execute();
    return Number(zapped.rows[0]?.count ?? 0);
  });
}
