import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANONYMOUS } from '../../http/permissions.ts';
import type { FormatRouteOptions } from '../format.ts';
import {
  addressOf,
  registryHeaders,
  sendBlob,
  sendDownloadingBlob,
  sendRegistryError,
} from './http-answers.ts';
import { ownAddress } from '../../modules/general-config/own-address.ts';
import { imageRef, parseRegistryPath, type ImageRef, type RegistryPath } from './names.ts';
import { RegistryError, RegistryUnauthorized } from './protocol-errors.ts';
import { oauthTokenHandler } from './oauth-token.ts';
import type { RegistryCaller } from './registry-access.ts';
import { dockerRegistryOf, type DockerRegistry } from './service.ts';

/** Manifests are read whole; the distribution specification asks registries to take 4 MiB. */
const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;
const METHODS = ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'] as const;
const MANY: ReadonlySet<string> = new Set(['PUT', 'DELETE']);
// Authorization is the registry's own (tokens, scopes, the decider), answered in its protocol.
const PUBLIC = { config: { permission: 'public' as const } };

type Query = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Who calls: a signed-in principal (basic auth, a Depot access token), the holder of a
 * registry token, or anonymous. Credentials that prove nothing are refused with the
 * challenge, never taken for anonymous.
 */
async function callerOf(
  request: FastifyRequest,
  registry: DockerRegistry,
): Promise<RegistryCaller> {
  if (!request.principal.anonymous) return { principal: request.principal };
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) {
    const holder = await registry.tokens.verify(authorization.slice(7).trim());
    return { principal: holder.principal, granted: holder.access };
  }
  if (authorization) throw new RegistryUnauthorized('Bad credentials');
  return { principal: ANONYMOUS };
}

async function readManifestBody(request: FastifyRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > MANIFEST_MAX_BYTES)
      throw new RegistryError(
        'SIZE_INVALID',
        `A manifest may be ${MANIFEST_MAX_BYTES} bytes at most`,
        undefined,
        413,
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Whether a request comes with a body: a length above 0, or chunks. */
const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined ||
  Number(request.headers['content-length'] ?? 0) > 0;

/** Where an upload continues, and how much of it has arrived. */
function uploadAnswer(
  reply: FastifyReply,
  prefix: string,
  ref: ImageRef,
  id: string,
  size: number,
) {
  return registryHeaders(reply)
    .header('Location', `${prefix}/v2/${ref.name}/blobs/uploads/${id}`)
    .header('Docker-Upload-UUID', id)
    .header('Range', size > 0 ? `0-${size - 1}` : '0-0')
    .header('Content-Length', '0');
}

function blobCreated(reply: FastifyReply, prefix: string, ref: ImageRef, digest: string) {
  return registryHeaders(reply)
    .status(201)
    .header('Location', `${prefix}/v2/${ref.name}/blobs/${digest}`)
    .header('Docker-Content-Digest', digest)
    .header('Content-Length', '0')
    .send();
}

/** A page's `Link` to the next one, as the specification writes it. */
function linkNext(
  reply: FastifyReply,
  url: string,
  n: number | undefined,
  names: string[],
  more: boolean,
) {
  if (more && n !== undefined && names.length > 0)
    reply.header('Link', `<${url}?n=${n}&last=${encodeURIComponent(names.at(-1)!)}>; rel="next"`);
}

function pageOf(query: Query) {
  const n = first(query.n);
  const count = n === undefined || n === '' ? undefined : Number(n);
  if (count !== undefined && (!Number.isInteger(count) || count < 0))
    throw new RegistryError('UNSUPPORTED', `n must be a whole number, not '${n}'`, undefined, 400);
  return { n: count, last: first(query.last) || undefined };
}

/** One request of the protocol, by what its path names and its method. */
async function answer(
  registry: DockerRegistry,
  request: FastifyRequest<{ Params: { '*': string }; Querystring: Query }>,
  reply: FastifyReply,
) {
  const address = addressOf(request.url);
  const path: RegistryPath | undefined = parseRegistryPath(request.params['*'] ?? '');
  const caller = await callerOf(request, registry);
  const method = request.method;
  const query = request.query;
  if (!path)
    throw new RegistryError(
      'NAME_INVALID',
      'Not an address of the registry protocol',
      undefined,
      404,
    );
  if (path.kind === 'base') {
    // Clients ping here first and read how to authenticate from the answer: a caller that
    // brought no credentials hears the challenge, also where anonymous pulls are allowed.
    if (caller.principal.anonymous && caller.granted === undefined)
      throw new RegistryUnauthorized('Authentication is required');
    return registryHeaders(reply).type('application/json').send('{}');
  }
  if (path.kind === 'catalog') {
    if (method !== 'GET') throw unsupported(method);
    const page = pageOf(query);
    const { names, more } = await registry.listings.catalog(address, page, caller, request.log);
    linkNext(reply, `${address.prefix}/v2/_catalog`, page.n, names, more);
    return registryHeaders(reply).send({ repositories: names });
  }
  const ref = imageRef(address, path.name);
  const { prefix } = address;
  switch (path.kind) {
    case 'manifest':
      return manifestRequest(registry, request, reply, ref, path.reference, caller);
    case 'blob': {
      if (method === 'DELETE') {
        await registry.blobs.delete(ref, path.digest, caller);
        return registryHeaders(reply).status(202).header('Content-Length', '0').send();
      }
      if (method !== 'GET' && method !== 'HEAD') throw unsupported(method);
      const blob = await registry.blobs.locate(ref, path.digest, caller, pullContext(request));
      if (blob.kind === 'streaming')
        return sendDownloadingBlob(reply, { ...blob, digest: path.digest });
      return sendBlob(request, reply, registry.filestore, {
        ...blob,
        digest: path.digest,
        contentType: 'application/octet-stream',
      });
    }
    case 'uploads':
      return uploadRequest(registry, request, reply, ref, path.uploadId, caller);
    case 'tags': {
      if (method !== 'GET') throw unsupported(method);
      const page = pageOf(query);
      const { names, more } = await registry.listings.tags(ref, page, caller, request.log);
      linkNext(reply, `${prefix}/v2/${ref.name}/tags/list`, page.n, names, more);
      return registryHeaders(reply).send({ name: ref.name, tags: names });
    }
    case 'referrers': {
      if (method !== 'GET') throw unsupported(method);
      const artifactType = first(query.artifactType);
      const index = await registry.listings.referrers(ref, path.digest, artifactType, caller);
      if (artifactType !== undefined) reply.header('OCI-Filters-Applied', 'artifactType');
      // A Buffer, so that the media type goes out as it is, without a charset.
      return registryHeaders(reply)
        .type(index.mediaType)
        .send(Buffer.from(JSON.stringify(index)));
    }
  }
}

/** Who a pull is for; a blob may go out while a remote downloads it only to a plain GET. */
const pullContext = (request: FastifyRequest) => ({
  user: request.principal.name,
  log: request.log,
  streaming: request.method === 'GET' && request.headers.range === undefined,
});

const unsupported = (method: string, message = `${method} is not supported here`) =>
  new RegistryError('UNSUPPORTED', message);

async function manifestRequest(
  registry: DockerRegistry,
  request: FastifyRequest,
  reply: FastifyReply,
  ref: ImageRef,
  reference: string,
  caller: RegistryCaller,
) {
  const { prefix } = addressOf(request.url);
  switch (request.method) {
    case 'GET':
    case 'HEAD': {
      const manifest = await registry.manifests.get(ref, reference, caller, pullContext(request));
      const { filestore } = registry;
      // Read through the small-blob cache, so that the next GET takes the fast path.
      const whole =
        request.method === 'GET' &&
        request.headers.range === undefined &&
        filestore.isSmall(manifest.size)
          ? await filestore.readSmall(manifest.hex)
          : undefined;
      return sendBlob(request, reply, filestore, {
        hex: manifest.hex,
        digest: manifest.digest,
        size: manifest.size,
        contentType: manifest.mediaType,
        whole,
      });
    }
    case 'PUT': {
      const bytes = await readManifestBody(request);
      const stored = await registry.manifests.put(
        ref,
        reference,
        bytes,
        request.headers['content-type'],
        caller,
      );
      if (stored.subject) reply.header('OCI-Subject', stored.subject);
      return registryHeaders(reply)
        .status(201)
        .header('Location', `${prefix}/v2/${ref.name}/manifests/${stored.digest}`)
        .header('Docker-Content-Digest', stored.digest)
        .header('Content-Length', '0')
        .send();
    }
    case 'DELETE':
      await registry.manifests.delete(ref, reference, caller);
      return registryHeaders(reply).status(202).header('Content-Length', '0').send();
    default:
      throw unsupported(request.method);
  }
}

async function uploadRequest(
  registry: DockerRegistry,
  request: FastifyRequest<{ Querystring: Query }>,
  reply: FastifyReply,
  ref: ImageRef,
  uploadId: string | undefined,
  caller: RegistryCaller,
) {
  const { prefix, repoKey } = addressOf(request.url);
  const digest = first(request.query.digest);
  const { blobs } = registry;
  if (uploadId === undefined) {
    if (request.method !== 'POST') throw unsupported(request.method);
    if (digest) {
      await blobs.pushMonolithic(ref, digest, request.raw, caller);
      return blobCreated(reply, prefix, ref, digest);
    }
    const mount = first(request.query.mount);
    const from = first(request.query.from);
    if (mount && from) {
      const source = imageRef({ prefix, repoKey }, from);
      if (await blobs.mount(ref, source, mount, caller))
        return blobCreated(reply, prefix, ref, mount);
    }
    const session = await blobs.startUpload(ref, caller);
    return uploadAnswer(reply, prefix, ref, session.id, 0).status(202).send();
  }
  const upload = await blobs.findUpload(ref, uploadId, caller);
  const { session } = upload;
  switch (request.method) {
    case 'GET':
      return uploadAnswer(reply, prefix, ref, session.id, session.size).status(204).send();
    case 'PATCH': {
      const range = /^(\d+)-(\d+)$/.exec(String(request.headers['content-range'] ?? ''));
      const size = await registry.uploads.append(
        session,
        request.raw,
        range ? Number(range[1]) : undefined,
      );
      return uploadAnswer(reply, prefix, ref, session.id, size).status(202).send();
    }
    case 'PUT': {
      if (!digest)
        throw new RegistryError('DIGEST_INVALID', 'Completing an upload needs its digest');
      // Clients end most uploads with an empty PUT: nothing to append then.
      if (hasBody(request)) await registry.uploads.append(session, request.raw);
      await blobs.completeUpload(upload, ref, digest, caller);
      return blobCreated(reply, prefix, ref, digest);
    }
    case 'DELETE':
      await registry.uploads.cancel(session);
      return registryHeaders(reply).status(204).send();
    default:
      throw unsupported(request.method);
  }
}

/**
 * The registry protocol (docs/docker.md) below `base`, with the token endpoint at
 * `base/token`: `/v2` (the image's first component names the repository), which app.ts
 * registers, and `/:repoKey/v2` under the format's own `/artifactory/api/docker`, as
 * Artifactory has it. Bodies are read by the handlers as streams, never parsed.
 */
export function registryRoutesAt(base: '/v2' | '/:repoKey/v2') {
  return async function dockerRegistryRoutes(app: FastifyInstance, options: FormatRouteOptions) {
    const registry = dockerRegistryOf(options);
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    app.setErrorHandler((error, request, reply) =>
      sendRegistryError(error, request, reply, () =>
        ownAddress(request, options.services.generalConfig),
      ),
    );

    const token = async (request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply) => {
      const caller = await callerOf(request, registry);
      if (caller.granted !== undefined)
        throw new RegistryUnauthorized('A registry token cannot be exchanged for another');
      const scope = request.query.scope;
      const scopes = scope === undefined ? [] : [scope].flat();
      const service = first(request.query.service) ?? request.host;
      const address = addressOf(request.url);
      const answer = await registry.issueToken(caller.principal, address, scopes, service);
      return reply.header('Cache-Control', 'no-store').send(answer);
    };
    const handle = (
      request: FastifyRequest<{ Params: { '*': string }; Querystring: Query }>,
      reply: FastifyReply,
    ) => answer(registry, request, reply);
    app.get(`${base}/token`, PUBLIC, token);
    app.post(`${base}/token`, PUBLIC, oauthTokenHandler(app, registry, options.services.users));
    // The version check (the router ignores the trailing slash of `/v2/`).
    for (const method of ['GET', 'HEAD'] as const)
      app.route({ method, url: base, ...PUBLIC, exposeHeadRoute: false, handler: handle });
    for (const method of METHODS)
      app.route({
        method,
        url: `${base}/*`,
        // PUT of a manifest over a tag and DELETE of one remove what its folders hold, each
        // item through the caller's walker (manifest-writes.ts, manifest-deletes.ts).
        config: { permission: 'public', ...(MANY.has(method) ? { reach: 'many' as const } : {}) },
        exposeHeadRoute: false,
        handler: handle,
      });
  };
}
