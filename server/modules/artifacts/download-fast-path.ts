import { noteCaller } from '../../logs/request-log.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { MAVEN_TYPES } from '../../formats/maven/layout.ts';
import { guardFastPath, logFastAnswer } from '../../http/fast-path.ts';
import type { KnownCallers } from '../../http/known-callers.ts';
import { ANONYMOUS, type Principal } from '../../http/permissions.ts';
import type { Services } from '../../services.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { RouteFamily } from '../metrics/request-metrics.ts';
import { allowsContentBrowsing, storedFileHeaders, storedFileOf } from './download.ts';

/**
 * `/artifactory/{repoKey}/{path}` with nothing to decode or interpret: no query, no matrix
 * parameters, no percent-escapes, no dot segments, no empty segments, no trailing slash.
 */
const PLAIN_DOWNLOAD =
  /^\/artifactory\/([A-Za-z0-9][\w.-]*)\/((?:[\w.+~!$&'()*,=:@-]+\/)*[\w.+~!$&'()*,=:@-]+)$/;
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

/** Request headers whose meaning only the full route knows: conditionals, ranges, sessions, API keys. */
const LONG_WAY_HEADERS = [
  'range',
  'if-none-match',
  'if-modified-since',
  'if-match',
  'if-unmodified-since',
  'if-range',
  'cookie',
  'x-jfrog-art-api',
] as const;

type CachedNode = NonNullable<ReturnType<Services['artifacts']['peekNodeForDownload']>>;
/** Name, value, name, value, ...: the form `writeHead` takes without copying an object. */
type Headers = string[];
type StoredNode = CachedNode & { sha256: string; sha1: string };

/** A file with its content stored (a folder, or a row still being written, has none). */
const isStoredFile = (node: CachedNode | undefined): node is StoredNode =>
  node !== undefined && !node.folder && node.sha256 !== null && node.sha1 !== null;

/**
 * Once an answer is sent, Node drains the request the handler left unread through the stream
 * machinery (resume, flow, end, destroy: several ticks, each a `nextTick` object). In a
 * process as large as Depot those shared paths run megamorphic: profiled under wrk, they
 * cost a small download more CPU than its whole answer, and skipping them raised the rate by
 * about a fifth (docs/architecture.md, "Storage"). A request without a body has nothing to
 * drain, so it is marked as read (`_consuming`, the flag Node's own `_read` sets; unchanged
 * since Node 0.10). A request that declares a body is left to Node.
 */
function skipDrainOfEmptyBody(request: IncomingMessage) {
  const { headers } = request;
  if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined)
    (request as IncomingMessage & { _consuming: boolean })._consuming = true;
}

interface FastPathDeps {
  services: Services;
  filestore: Filestore;
  knownCallers: KnownCallers;
  logger: Logger;
  /**
   * The metrics' family of the download route (`/artifactory/:repoKey/*`): a download
   * answered here is counted as the full route would count it. Absent when metrics are off.
   */
  downloads?: RouteFamily;
}

/**
 * The download a build repeats most: a whole small file from a local repository, by a
 * caller proved moments ago. It is answered here, before Fastify's routing and hooks, from
 * what the full route left in memory: the caller (KnownCallers), the repository row, the
 * permission decider, the node and the blob's bytes. Every one of them is a cache the full
 * route fills and every write empties, and the answer carries the same headers
 * (storedFileHeaders). Whatever is not in memory, or not plainly allowed, goes the full way,
 * which also gives every refusal and error its proper answer. Spares about two thirds of a
 * small download's CPU (docs/architecture.md, "Storage").
 *
 * Returns whether it answered the request.
 */
export function createDownloadFastPath({
  services,
  filestore,
  knownCallers,
  logger,
  downloads,
}: FastPathDeps) {
  let served = 0;
  // Cached nodes are frozen and replaced on any change: their answer's headers are built once.
  const preparedHeaders = new WeakMap<CachedNode, { browsing: boolean; headers: Headers }>();

  function headersFor(node: StoredNode, browsing: boolean) {
    const prepared = preparedHeaders.get(node);
    if (prepared?.browsing === browsing) return prepared.headers;
    const file = storedFileOf(node);
    const headers = Object.entries({
      ...storedFileHeaders(file, browsing),
      'content-type': file.mimeType,
      'content-length': String(file.size),
      'x-content-type-options': 'nosniff',
    }).flat();
    preparedHeaders.set(node, { browsing, headers });
    return headers;
  }

  function callerOf(request: IncomingMessage): Principal | undefined {
    const { authorization } = request.headers;
    return authorization === undefined ? ANONYMOUS : knownCallers.recall(authorization);
  }

  function answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const started = downloads ? performance.now() : 0;
    const match = PLAIN_DOWNLOAD.exec(request.url ?? '');
    if (!match || match[1] === 'api' || DOT_SEGMENT.test(match[2])) return false;
    if (LONG_WAY_HEADERS.some((name) => request.headers[name] !== undefined)) return false;
    const [, repoKey, path] = match;

    const caller = callerOf(request);
    const access = caller && services.access.peekForPrincipal(caller);
    const repo = access && services.repositories.peekRow(repoKey);
    // Only local repositories without answers of their own (Maven generates metadata).
    if (!repo || repo.rclass !== 'local' || MAVEN_TYPES.has(repo.package_type)) return false;
    if (!access.can('read', repo.key, path, 'folder') || !access.can('read', repo.key, path))
      return false;
    const node = services.artifacts.peekNodeForDownload(repo.id, path);
    if (!isStoredFile(node)) return false;
    const body = filestore.peekSmall(node.sha256);
    if (!body || body.length !== Number(node.size)) return false;

    skipDrainOfEmptyBody(request);
    noteCaller(request, caller.name);
    response.writeHead(200, headersFor(node, allowsContentBrowsing([repo])));
    if (request.method === 'GET') {
      response.end(body);
      services.downloadStats.record(node.id, caller.name);
    } else {
      response.end();
    }
    served += 1;
    downloads?.observe(request.method, 200, (performance.now() - started) / 1000);
    logFastAnswer(logger, request);
    return true;
  }

  return {
    /** Answers the request if it can; false leaves it untouched for Fastify. */
    answer: guardFastPath('download', logger, answer, { warnOnFallback: true }),
    /** How many requests it answered (tests and benchmarks read it). */
    get served() {
      return served;
    },
  };
}

export type DownloadFastPath = ReturnType<typeof createDownloadFastPath>;
