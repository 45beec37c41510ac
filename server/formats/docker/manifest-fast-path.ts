import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { KnownCallers } from '../../http/known-callers.ts';
import { ANONYMOUS } from '../../http/permissions.ts';
import { guardFastPath, logFastAnswer } from '../../http/fast-path.ts';
import { noteCaller } from '../../logs/request-log.ts';
import type { Services } from '../../services.ts';
import { API_VERSION_HEADER } from './http-answers.ts';
import { imageRef, isTag } from './names.ts';
import type { RegistryCaller } from './registry-access.ts';
import type { DockerRegistry } from './service.ts';

/** `/v2/<repoKey>/<image>/manifests/<tag or sha256 digest>`, with nothing else to read. */
const PLAIN_MANIFEST = /^\/v2\/([a-z0-9][a-z0-9._/-]*)\/manifests\/([\w][\w.:-]{0,127})$/;
const SHA256_DIGEST = /^sha256:([a-f0-9]{64})$/;
/** Request headers whose meaning only the full route knows. */
const LONG_WAY_HEADERS = ['range', 'cookie', 'x-jfrog-art-api'] as const;

/**
 * The call every pull starts with, and repeats for each image it checks: a manifest HEAD (or
 * GET) by tag or digest of a local Docker repository, answered before Fastify's routing and
 * hooks from what the full route left in memory: the caller (a registry token it verified,
 * or a basic header the identity plugin proved moments ago), the repository row, the
 * permission decider, and the manifest a tag names (local-manifests.ts). Each is a cache
 * that the writes concerned empty, on every node of a cluster. The decision is the full
 * route's (token scope, then the decider); whatever is not in memory, or not plainly
 * allowed, goes the full way, which also gives every refusal its protocol answer.
 */
export function createManifestFastPath(deps: {
  services: Services;
  registry: DockerRegistry;
  knownCallers: KnownCallers;
  logger: Logger;
}) {
  const { services, registry, knownCallers, logger } = deps;
  let served = 0;

  function callerOf(request: IncomingMessage): RegistryCaller | undefined {
    const { authorization } = request.headers;
    if (authorization === undefined) return { principal: ANONYMOUS };
    if (authorization.startsWith('Bearer ')) {
      const holder = registry.tokens.peek(authorization.slice(7).trim());
      return holder && { principal: holder.principal, granted: holder.access };
    }
    const principal = knownCallers.recall(authorization);
    return principal && { principal };
  }

  function answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'HEAD' && request.method !== 'GET') return false;
    const match = PLAIN_MANIFEST.exec(request.url ?? '');
    if (!match || LONG_WAY_HEADERS.some((name) => request.headers[name] !== undefined))
      return false;
    const [, name, reference] = match;
    const digest = SHA256_DIGEST.exec(reference);
    if (!digest && !isTag(reference)) return false;
    const caller = callerOf(request);
    if (!caller) return false;
    const ref = imageRef({ prefix: '' }, name);
    const repo = services.repositories.peekRow(ref.repoKey);
    if (!repo || repo.package_type !== 'docker' || repo.rclass !== 'local') return false;
    if (!registry.rules.tokenGrants(caller, ref.name, 'pull')) return false;
    const access = services.access.peekForPrincipal(caller.principal);
    if (!access?.can('read', repo.key, ref.image, 'folder')) return false;
    const manifest = registry.localManifests.peek(
      repo.id,
      ref.image,
      digest ? { hex: digest[1] } : { tag: reference },
    );
    if (!manifest) return false;
    const body = request.method === 'GET' ? registry.filestore.peekSmall(manifest.hex) : undefined;
    if (request.method === 'GET' && body?.length !== manifest.size) return false;

    const contentDigest = `sha256:${manifest.hex}`;
    noteCaller(request, caller.principal.name);
    // The full route's headers (sendBlob, and app.ts's nosniff), in the same order.
    response.writeHead(200, [
      API_VERSION_HEADER,
      'registry/2.0',
      'Docker-Content-Digest',
      contentDigest,
      'ETag',
      `"${contentDigest}"`,
      'Accept-Ranges',
      'bytes',
      'content-type',
      manifest.mediaType,
      'content-length',
      String(manifest.size),
      'X-Content-Type-Options',
      'nosniff',
    ]);
    response.end(body);
    served += 1;
    logFastAnswer(logger, request);
    return true;
  }

  return {
    /** Answers the request if it can; false leaves it untouched for Fastify. */
    answer: guardFastPath('manifest', logger, answer, { warnOnFallback: false }),
    /** How many requests it answered (tests and benchmarks read it). */
    get served() {
      return served;
    },
  };
}

export type ManifestFastPath = ReturnType<typeof createManifestFastPath>;
