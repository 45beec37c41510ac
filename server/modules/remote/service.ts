import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { SecretBox, UndecryptableSecret } from '../../crypto/secret-box.ts';
import { UpstreamError, UpstreamRateLimited } from './upstream-error.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import type { GeneralConfigService } from '../general-config/service.ts';
import {
  toRepositoryConfig,
  type RepositoryConfig,
  type RepositoriesService,
} from '../repositories/service.ts';
import type { SecurityConfigService } from '../security-config/service.ts';
import { teeIntoCache } from './cache-download.ts';
import { createCacheFill, streamingHeaders, validatorsOf } from './cache-fill.ts';
import { UnknownProxy, type ProxiesService } from '../proxies/service.ts';
import { createBearerTokens } from './bearer-challenge.ts';
import { UpstreamFailure } from './fetch-upstream.ts';
import { isMetadataPath } from './metadata-patterns.ts';
import { REMOTE_MESSAGES } from './messages.ts';
import { createUpstreamState, type Validators } from './upstream-state.ts';

type RepositoryRow = NonNullable<Awaited<ReturnType<RepositoriesService['findRow']>>>;
export type CachedNode = NonNullable<Awaited<ReturnType<ArtifactsService['findNode']>>>;

/** The upstream URL of a path: each segment encoded once, so the name fetched is the name cached. */
export function upstreamUrl(base: string, path: string): URL {
  const root = base.endsWith('/') ? base : `${base}/`;
  return new URL(path.split('/').map(encodeURIComponent).join('/'), root);
}

/**
 * Where the upstream has a path: segments encoded one by one, except a path given as
 * `upstreamPath`, which the format already wrote in the upstream's own escaping (or an
 * absolute URL an upstream index linked to).
 */
function upstreamUrlOf(config: RepositoryConfig, path: string, upstreamPath?: string): URL {
  if (upstreamPath === undefined) return upstreamUrl(config.url!, path);
  const root = config.url!.endsWith('/') ? config.url! : `${config.url!}/`;
  return new URL(upstreamPath, root);
}

/** The largest upstream JSON answer `askJson` reads. */
const MAX_JSON_ANSWER_BYTES = 8 * 1024 * 1024;

/** What a remote repository answers for a path. */
export type RemoteAnswer =
  | { kind: 'cached'; node: CachedNode }
  | { kind: 'streaming'; body: Readable; headers: Record<string, string> }
  | { kind: 'absent'; reason?: string };

export interface RemoteRequest {
  user: string;
  log: FastifyBaseLogger;
  /** Whether the client may get the body while it downloads (a plain GET, no range). */
  streaming: boolean;
  /**
   * Where the upstream has the file, when that is not where the cache keeps it, already
   * escaped as the upstream expects: npm's document is asked for at `@scope%2fname` and
   * cached at `.npm/@scope/name/package.json`.
   */
  upstreamPath?: string;
  /** Request headers the format needs upstream (a registry's manifest media types in Accept). */
  headers?: Record<string, string>;
  /**
   * The sha256 the body must have (a blob or manifest asked for by digest): a body with
   * another is not cached, and its client sees the download break off.
   */
  sha256?: string;
}

interface Dependencies {
  securityConfig: SecurityConfigService;
  generalConfig: GeneralConfigService;
  secrets: SecretBox;
  proxies: ProxiesService;
}

/**
 * Remote repositories. A path not in the cache is fetched from the upstream and streamed to
 * the client while it is written to the filestore; it is recorded only when whole and
 * verified. Concurrent requests for one path share one download. Cached metadata is checked
 * upstream again after the retrieval cache period; other cached files never change. Offline
 * (globally, per repository, or assumed after a connection error) the cache alone answers.
 */
/** A header's text, when the upstream sent it once. */
const headerText = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

export function createRemoteService(
  db: Database,
  filestore: Filestore,
  artifacts: ArtifactsService,
  { securityConfig, generalConfig, secrets, proxies }: Dependencies,
) {
  const state = createUpstreamState(db);
  const cacheFill = createCacheFill(filestore, artifacts, state);
  const bearerTokens = createBearerTokens();
  /** Downloads in progress on this node, by repository and path, with how many wait on each. */
  const inFlight = new Map<string, { done: Promise<CachedNode | undefined>; waiters: number }>();
  const failureListeners: ((repoKey: string, kind: UpstreamFailure['kind']) => void)[] = [];

  /** Why the upstream must not be asked now, or undefined when it may be. */
  async function offlineReason(repo: RepositoryRow, config: RepositoryConfig, path: string) {
    if ((await generalConfig.get()).offlineMode)
      return REMOTE_MESSAGES.globalOffline(repo.key, path);
    if (config.offline || !config.url) return REMOTE_MESSAGES.repositoryOffline(repo.key, path);
    const until = await state.assumedOfflineUntil(repo.id);
    if (until) return REMOTE_MESSAGES.assumedOffline(repo.key, path, until);
    return undefined;
  }

  function credentialsOf(repo: RepositoryRow, config: RepositoryConfig) {
    const sealed = (repo.config as { password?: unknown }).password;
    if (!config.username) return undefined;
    if (typeof sealed !== 'string') return { username: config.username, password: '' };
    try {
      return { username: config.username, password: secrets.decrypt(sealed) };
    } catch (error) {
      if (error instanceof UndecryptableSecret)
        throw new UpstreamError(REMOTE_MESSAGES.undecryptablePassword(repo.key, error.message));
      throw error;
    }
  }

  async function ask(
    repo: RepositoryRow,
    config: RepositoryConfig,
    path: string,
    cached?: Validators,
    upstreamPath?: string,
    extra?: { body?: Buffer; headers?: Record<string, string> },
  ) {
    const { remoteAllowList } = await securityConfig.get();
    const conditional: Record<string, string> = {};
    if (cached?.etag) conditional['if-none-match'] = cached.etag;
    if (cached?.lastModified) conditional['if-modified-since'] = cached.lastModified;
    const url = upstreamUrlOf(config, path, upstreamPath);
    try {
      // An upstream that answers with a Bearer challenge (a container registry) is followed.
      return await bearerTokens.fetch(repo.id, url, {
        // The repository's own proxy, else the default one, unless it connects directly.
        proxy: config.disableProxy
          ? undefined
          : await proxies.resolve(config.proxy, 'remoteRepositories'),
        allowList: remoteAllowList,
        timeoutMs: config.socketTimeoutMillis ?? 15000,
        // A file an index links to on another host (PyPI's file host) gets no credentials.
        credentials:
          url.origin === new URL(config.url!).origin ? credentialsOf(repo, config) : undefined,
        headers: { ...conditional, ...extra?.headers },
        body: extra?.body,
      });
    } catch (error) {
      if (error instanceof UnknownProxy)
        throw new UpstreamError(`Remote repository '${repo.key}': ${error.message}`);
      if (!(error instanceof UpstreamFailure)) throw error;
      for (const listener of failureListeners) listener(repo.key, error.kind);
      if (error.kind === 'unreachable' || error.kind === 'timeout') {
        await state.assumeOffline(repo.id, config.assumedOfflinePeriodSecs ?? 300, error.message);
      }
      throw new UpstreamError(
        `Remote repository '${repo.key}': ${error.message}`,
        error.kind === 'timeout',
      );
    }
  }

  /**
   * Asks the upstream (conditionally when a cached copy exists) and caches a new body. The
   * leader of a download may get the body as it arrives; `done` is what every request
   * waiting on the same path serves once the download is over.
   */
  async function download(
    repo: RepositoryRow,
    config: RepositoryConfig,
    path: string,
    cached: CachedNode | undefined,
    request: RemoteRequest,
  ): Promise<{ done: Promise<CachedNode | undefined>; answer?: RemoteAnswer }> {
    const entry = cached ? await state.cacheEntry(cached.id) : undefined;
    let response: IncomingMessage;
    try {
      response = await ask(
        repo,
        config,
        path,
        entry && { etag: entry.etag, lastModified: entry.last_modified },
        request.upstreamPath,
        { headers: request.headers },
      );
    } catch (error) {
      if (!cached) throw error;
      // What users expect of a proxy: the copy they had, while the upstream is away.
      request.log.warn(
        { repository: repo.key, path, reason: (error as Error).message },
        'upstream unavailable: serving the cached copy',
      );
      return { done: Promise.resolve(cached) };
    }
    const status = response.statusCode ?? 0;
    if (status !== 200) {
      response.resume();
      return {
        done: Promise.resolve(await notFetched(repo, config, path, cached, response, request)),
      };
    }
    const tee = teeIntoCache(
      response,
      (body) => cacheFill.record(repo, path, response, body, request.user, request.sha256),
      request.streaming,
    );
    // A new copy of stale metadata that fails leaves the cached copy in service.
    const done = cached ? tee.done.catch((error) => servedInstead(error)) : tee.done;
    done.catch(() => undefined); // reported through the leader's answer and to waiters
    let body;
    try {
      body = await tee.client;
    } catch (error) {
      if (cached) return { done };
      throw error;
    }
    if (!body) return { done };
    return { done, answer: { kind: 'streaming', body, headers: streamingHeaders(response) } };

    function servedInstead(error: Error) {
      request.log.warn(
        { repository: repo.key, path, reason: error.message },
        'upstream sent a bad copy: serving the cached copy',
      );
      return cached;
    }
  }

  /** The upstream answered without a body to cache: 304, a miss, or a failure. */
  async function notFetched(
    repo: RepositoryRow,
    config: RepositoryConfig,
    path: string,
    cached: CachedNode | undefined,
    response: IncomingMessage,
    request: RemoteRequest,
  ): Promise<CachedNode | undefined> {
    const status = response.statusCode ?? 0;
    if (cached) {
      if (status === 304 || status === 404 || status === 410) {
        // Unchanged, or gone upstream: the cached copy stays until someone deletes it.
        const entry = await state.cacheEntry(cached.id);
        const sent = validatorsOf(response);
        await state.recordCheck(cached.id, {
          etag: (status === 304 && sent.etag) || entry?.etag || null,
          lastModified: (status === 304 && sent.lastModified) || entry?.last_modified || null,
        });
      } else {
        request.log.warn(
          { repository: repo.key, path, status },
          'upstream failed: serving the cached copy',
        );
      }
      return cached;
    }
    if (status === 404 || status === 410) {
      await state.rememberMiss(repo.id, path, config.missedRetrievalCachePeriodSecs ?? 1800);
      return undefined;
    }
    const upstreamPath = upstreamUrlOf(config, path, request.upstreamPath).pathname;
    if (status === 429)
      throw new UpstreamRateLimited(
        REMOTE_MESSAGES.rateLimited(repo.key, upstreamPath),
        headerText(response.headers['retry-after']),
      );
    throw new UpstreamError(REMOTE_MESSAGES.upstreamStatus(repo.key, status, upstreamPath));
  }

  /** Whether a cached file must be checked upstream before it is served. */
  async function isStale(config: RepositoryConfig, path: string, cached: CachedNode) {
    if (!isMetadataPath(config.packageType, path)) return false;
    const entry = await state.cacheEntry(cached.id);
    const checkedAt = new Date(entry?.checked_at ?? cached.modified_at).getTime();
    return Date.now() - checkedAt >= (config.retrievalCachePeriodSecs ?? 7200) * 1000;
  }

  /**
   * A download of a path the caller found uncached: unless a download that ended a moment
   * ago cached it meanwhile. A request that looked in the cache just before that download
   * was recorded, and comes here just after it left `inFlight`, is served that copy, not a
   * second fetch from the upstream (bench:docker's pulls through a remote found that).
   */
  async function firstDownload(
    repo: RepositoryRow,
    config: RepositoryConfig,
    path: string,
    cached: CachedNode | undefined,
    request: RemoteRequest,
  ): Promise<{ done: Promise<CachedNode | undefined>; answer?: RemoteAnswer }> {
    if (!cached) {
      const recorded = await artifacts.findNode(repo.id, path);
      if (recorded && !recorded.folder && recorded.sha256)
        return { done: Promise.resolve(recorded) };
    }
    return download(repo, config, path, cached, request);
  }

  /** One download per path on this node; others wait for it and are served from the cache. */
  async function coalesced(
    repo: RepositoryRow,
    config: RepositoryConfig,
    path: string,
    cached: CachedNode | undefined,
    request: RemoteRequest,
  ): Promise<RemoteAnswer> {
    const key = `${repo.id}:${path}`;
    const running = inFlight.get(key);
    if (running) {
      running.waiters++;
      const node = await running.done;
      return node ? { kind: 'cached', node } : { kind: 'absent' };
    }
    const started = firstDownload(repo, config, path, cached, request);
    const done = started.then((download) => download.done);
    inFlight.set(key, { done, waiters: 0 });
    done.finally(() => inFlight.delete(key)).catch(() => undefined);
    const { answer } = await started;
    if (answer) return answer;
    const node = await done;
    return node ? { kind: 'cached', node } : { kind: 'absent' };
  }

  /** A JSON 200 of the upstream and its `Link` header; undefined offline or for another answer. */
  async function askJsonAnswer(
    repo: RepositoryRow,
    upstreamPath: string,
    post?: { body: Buffer; headers: Record<string, string> },
  ): Promise<{ body: unknown; link?: string } | undefined> {
    const config = toRepositoryConfig(repo);
    if (await offlineReason(repo, config, upstreamPath)) return undefined;
    const response = await ask(repo, config, upstreamPath, undefined, upstreamPath, post);
    if (response.statusCode !== 200) {
      response.resume();
      return undefined;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      // A search answer is small; a huge one is refused rather than held in memory.
      if (size > MAX_JSON_ANSWER_BYTES) {
        response.destroy();
        throw new UpstreamError(`Remote repository '${repo.key}': the answer is too large`);
      }
      chunks.push(chunk);
    }
    const link = response.headers.link;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      return { body, link: typeof link === 'string' ? link : undefined };
    } catch {
      return undefined;
    }
  }

  return {
    /** Calls `listener` each time an upstream cannot be asked: blocked, unreachable, timed out. */
    onUpstreamFailure(listener: (repoKey: string, kind: UpstreamFailure['kind']) => void) {
      failureListeners.push(listener);
    },

    /**
     * What a remote repository serves for a path, given what its cache has (`cached`): the
     * cached copy (checked upstream first when it is stale metadata), a body streaming from
     * the upstream, or absent with the reason.
     */
    async resolve(
      repo: RepositoryRow,
      path: string,
      cached: CachedNode | undefined,
      request: RemoteRequest,
    ): Promise<RemoteAnswer> {
      const config = toRepositoryConfig(repo);
      if (cached) {
        // Most cached files are artifacts, never checked again: no further query for them.
        if (!(await isStale(config, path, cached))) return { kind: 'cached', node: cached };
        if (await offlineReason(repo, config, path)) return { kind: 'cached', node: cached };
        return coalesced(repo, config, path, cached, request);
      }
      const offline = await offlineReason(repo, config, path);
      if (offline) return { kind: 'absent', reason: offline };
      if (await state.recentlyMissed(repo.id, path)) return { kind: 'absent' };
      // The cache cannot hold a file under a cached file, nor in a folder's place: refused
      // before the upstream is asked (the recording decides again, under concurrency).
      await artifacts.assertPathFree(repo.id, path);
      return coalesced(repo, config, path, undefined, request);
    },

    /**
     * A JSON answer of the upstream at `upstreamPath` (relative to its URL, in the
     * upstream's own escaping, query included): the remote search asks upstream search APIs
     * this way, and npm audit posts its advisories request (`post`). Undefined when the
     * repository is offline or the answer is not a JSON 200.
     */
    async askJson(
      repo: RepositoryRow,
      upstreamPath: string,
      post?: { body: Buffer; headers: Record<string, string> },
    ): Promise<unknown> {
      return (await askJsonAnswer(repo, upstreamPath, post))?.body;
    },

    /** `askJson`'s answer with the upstream's `Link` header (a registry's next page). */
    askJsonAnswer,

    /** Downloads running on this node and how many requests wait on each (for logs and tests). */
    downloadsInFlight(): { key: string; waiters: number }[] {
      return [...inFlight].map(([key, slot]) => ({ key, waiters: slot.waiters }));
    },
  };
}

export type RemoteService = ReturnType<typeof createRemoteService>;
