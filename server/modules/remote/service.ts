import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { DepotError } from '../../errors.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import type { RepositoryConfig, RepositoriesService } from '../repositories/service.ts';
import type { SecurityConfigService } from '../security-config/service.ts';
import { fetchUpstream, UpstreamFailure } from './fetch-upstream.ts';

type RepositoryRow = NonNullable<Awaited<ReturnType<RepositoriesService['findRow']>>>;

/** The upstream failed or could not be asked: 502, or 504 for a timeout. Nothing is cached. */
export class UpstreamError extends DepotError {
  constructor(message: string, timeout = false) {
    super(timeout ? 504 : 502, message);
  }
}

/** The upstream URL of a path: each segment encoded once, so the name fetched is the name cached. */
export function upstreamUrl(base: string, path: string): URL {
  const root = base.endsWith('/') ? base : `${base}/`;
  return new URL(path.split('/').map(encodeURIComponent).join('/'), root);
}

/**
 * Remote repositories: a path not in the cache is fetched from the upstream, stored whole in
 * the filestore (verified by its own hashes), recorded in the remote repository, then served
 * from there. A path the upstream does not have is remembered for the missed-retrieval period.
 */
export function createRemoteService(
  db: Database,
  filestore: Filestore,
  artifacts: ArtifactsService,
  securityConfig: SecurityConfigService,
) {
  async function recentlyMissed(repositoryId: number, path: string) {
    const miss = await db
      .selectFrom('remote_misses')
      .select('expires_at')
      .where('repository_id', '=', repositoryId)
      .where('path', '=', path)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return miss !== undefined;
  }

  async function rememberMiss(repositoryId: number, path: string, seconds: number) {
    if (seconds <= 0) return;
    const expires = new Date(Date.now() + seconds * 1000);
    await db
      .insertInto('remote_misses')
      .values({ repository_id: repositoryId, path, expires_at: expires })
      .onConflict((c) => c.columns(['repository_id', 'path']).doUpdateSet({ expires_at: expires }))
      .execute();
  }

  return {
    /** Fetches a file into the cache; undefined when the upstream does not have it. */
    async fetchIntoCache(
      repo: RepositoryRow,
      config: RepositoryConfig,
      path: string,
      user: string,
    ) {
      if (config.offline || !config.url) return undefined;
      if (await recentlyMissed(repo.id, path)) return undefined;
      const url = upstreamUrl(config.url, path);
      const { remoteAllowList } = await securityConfig.get();
      let response;
      try {
        response = await fetchUpstream(url, {
          allowList: remoteAllowList,
          timeoutMs: config.socketTimeoutMillis ?? 15000,
        });
      } catch (error) {
        if (error instanceof UpstreamFailure)
          throw new UpstreamError(
            `Remote repository '${repo.key}': ${error.message}`,
            error.kind === 'timeout',
          );
        throw error;
      }
      const status = response.statusCode ?? 0;
      if (status === 404 || status === 410) {
        response.resume();
        await rememberMiss(repo.id, path, config.missedRetrievalCachePeriodSecs ?? 1800);
        return undefined;
      }
      if (status !== 200) {
        response.resume();
        throw new UpstreamError(
          `Remote repository '${repo.key}': the upstream answered ${status} for ${url.pathname}`,
        );
      }
      let staged;
      try {
        staged = await filestore.stage(response);
      } catch (error) {
        throw new UpstreamError(
          `Remote repository '${repo.key}': the download from the upstream broke off (${(error as Error).message})`,
        );
      }
      await artifacts.recordCachedFile(repo.id, path, staged, user);
      return artifacts.findNode(repo.id, path);
    },
  };
}

export type RemoteService = ReturnType<typeof createRemoteService>;
