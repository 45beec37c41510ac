import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/** The validators an upstream sent with a file, for a conditional request later. */
export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000);

/**
 * What remote repositories remember about their upstreams, in the database so that every
 * node of a cluster sees it: paths the upstream did not have (missed-retrieval cache), when
 * a cached file was last confirmed upstream, and whether an upstream is assumed offline.
 */
export function createUpstreamState(db: Database) {
  return {
    async recentlyMissed(repositoryId: number, path: string): Promise<boolean> {
      const miss = await db
        .selectFrom('remote_misses')
        .select('expires_at')
        .where('repository_id', '=', repositoryId)
        .where('path', '=', path)
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return miss !== undefined;
    },

    async rememberMiss(repositoryId: number, path: string, seconds: number): Promise<void> {
      if (seconds <= 0) return;
      const expires = inSeconds(seconds);
      await db
        .insertInto('remote_misses')
        .values({ repository_id: repositoryId, path, expires_at: expires })
        .onConflict((c) =>
          c.columns(['repository_id', 'path']).doUpdateSet({ expires_at: expires }),
        )
        .execute();
    },

    /** When the upstream last confirmed a cached file, and its validators; undefined if never recorded. */
    async cacheEntry(nodeId: number) {
      return db
        .selectFrom('remote_cache_entries')
        .select(['checked_at', 'etag', 'last_modified'])
        .where('node_id', '=', nodeId)
        .executeTakeFirst();
    },

    /** The upstream confirmed or supplied a cached file just now. */
    async recordCheck(nodeId: number, validators: Validators): Promise<void> {
      const values = {
        checked_at: new Date(),
        etag: validators.etag,
        last_modified: validators.lastModified,
      };
      await db
        .insertInto('remote_cache_entries')
        .values({ node_id: nodeId, ...values })
        .onConflict((c) => c.column('node_id').doUpdateSet(values))
        .execute();
    },

    /** Until when an upstream is assumed offline after a connection error, if it is. */
    async assumedOfflineUntil(repositoryId: number): Promise<Date | undefined> {
      const row = await db
        .selectFrom('remote_upstream_state')
        .select('offline_until')
        .where('repository_id', '=', repositoryId)
        .where('offline_until', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return row ? new Date(row.offline_until) : undefined;
    },

    async assumeOffline(repositoryId: number, seconds: number, reason: string): Promise<void> {
      if (seconds <= 0) return;
      const values = { offline_until: inSeconds(seconds), reason };
      await db
        .insertInto('remote_upstream_state')
        .values({ repository_id: repositoryId, ...values })
        .onConflict((c) => c.column('repository_id').doUpdateSet(values))
        .execute();
    },
  };
}

export type UpstreamState = ReturnType<typeof createUpstreamState>;
