import { BadRequest } from '../../errors.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Filestore } from '../../storage/filestore.ts';
import type { Services } from '../../services.ts';
import type { BundleDeploys } from '../archives/bundle-deploy.ts';
import { parseArtifactPath } from './paths.ts';
import { createDownloadHandler } from './download-handler.ts';
import { MAVEN_TYPES } from '../../formats/maven/layout.ts';
import { noSuchApi } from '../../http/unknown-api.ts';
import { consoleUploadBody } from './console-upload-limit.ts';
import {
  BUILD_INFO_PACKAGE_TYPE,
  DEFAULT_BUILD_REPOSITORY,
  buildRepositoryOf,
} from '../builds/build-info.ts';
import { BUILD_MESSAGES } from '../builds/messages.ts';
import { placeOf } from '../builds/build-store.ts';

type ArtifactRequest = FastifyRequest<{ Params: { repoKey: string; '*'?: string } }>;
/** The body's size when the client declared it; 0 when unknown (chunked) or a checksum deploy. */
function declaredLength(request: FastifyRequest): number {
  const length = Number(request.headers['content-length']);
  return Number.isFinite(length) && length > 0 ? length : 0;
}

// Maven's metadata files are a few KiB; its checksum files a line.
const INTERCEPTED_BODY_LIMIT = 1024 * 1024;

/** A small request body as text; a larger one is refused rather than read on. */
async function readText(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new BadRequest(`The body is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/**
 * Deploy, download and delete at `/artifactory/{repoKey}/{path}`, the URL shape curl, CI
 * scripts and build tools already use. Bodies are streamed to the filestore, never parsed.
 * Every action is checked against the permission targets (services.access): reads skip what
 * the caller may not read, deploy needs Deploy and overwriting Delete/Overwrite as well.
 */
export async function artifactsRoutes(
  app: FastifyInstance,
  {
    services,
    filestore,
    bundleDeploys,
    buildInfoMaxMb,
  }: {
    services: Services;
    filestore: Filestore;
    bundleDeploys: BundleDeploys;
    buildInfoMaxMb: number;
  },
) {
  const { artifacts } = services;
  const downloadHandler = createDownloadHandler({ services, filestore });
  /** Downloads, after a package format's own answer (Maven's generated metadata). */
  async function download(request: ArtifactRequest, reply: FastifyReply) {
    const { path } = parseArtifactPath(request.params['*'] ?? '');
    const repo = await artifacts.repository(request.params.repoKey);
    // `.../zz/` asks for the folder zz, never for a file of that name (the router drops the '/').
    const asksFolder = path !== '' && request.url.split('?')[0]!.endsWith('/');
    // Only Maven-layout repositories have answers of their own; other downloads go straight on.
    if (!path || asksFolder || !MAVEN_TYPES.has(repo.package_type))
      return downloadHandler(request, reply, repo.key, path, asksFolder);
    const caller = { principal: request.principal, log: request.log };
    const access = await services.access.forPrincipal(request.principal);
    const answer = await services.maven.answer(repo, path, caller, access);
    if (answer?.kind === 'document') return reply.type(answer.contentType).send(answer.body);
    return downloadHandler(request, reply, repo.key, answer?.path ?? path);
  }
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  async function deploy(request: ArtifactRequest, reply: FastifyReply) {
    const { path, properties } = parseArtifactPath(request.params['*'] ?? '');
    const expected = {
      sha256: header(request, 'x-checksum-sha256'),
      sha1: header(request, 'x-checksum-sha1') ?? header(request, 'x-checksum'),
      md5: header(request, 'x-checksum-md5'),
    };
    // The storage quota refuses before a byte of the body is read.
    await services.storageQuota.assertRoomFor(declaredLength(request), (message) =>
      request.log.warn(message),
    );
    const target = await artifacts.deployTarget(request.params.repoKey);
    if (target.package_type === BUILD_INFO_PACKAGE_TYPE)
      return deployBuildInfo(request, reply, target.key);
    const access = await services.access.require(request.principal, 'deploy', target.key, path);
    const body = await consoleUploadBody(request, declaredLength(request), services.generalConfig);
    // Maven's own metadata and checksum files are answered, not stored (docs/maven.md).
    const intercepted = await services.maven.interceptDeploy(target, path, () =>
      readText(request.raw, INTERCEPTED_BODY_LIMIT),
    );
    if (intercepted) return reply.status(intercepted).send();
    const exploding = header(request, 'x-explode-archive')?.toLowerCase() === 'true';
    // Overwriting needs Delete/Overwrite as well (spec 01 §3): refused early here, and by the
    // write itself for a file that appears meanwhile.
    const mayOverwrite = access.can('delete', target.key, path);
    const overwriteDenied = () =>
      services.access.denied(request.principal, 'overwrite', target.key, path);
    if (!exploding && !mayOverwrite && (await artifacts.findNode(target.id, path)))
      throw overwriteDenied();
    if (exploding) {
      // Deploy bundle: the archive's entries are deployed into its folder (docs/archives.md).
      const summary = await bundleDeploys.explode({
        repoKey: request.params.repoKey,
        path,
        content: body,
        expected,
        properties,
        atomic: header(request, 'x-explode-archive-atomic')?.toLowerCase() === 'true',
        user: request.principal.name,
        walker: await services.access.walker(request.principal),
      });
      request.log.info({ ...summary, by: request.principal.name }, 'archive exploded');
      return reply.status(201).send(summary);
    }
    const byChecksum = header(request, 'x-checksum-deploy') === 'true';
    const { repo, node, blob } = await artifacts.deploy({
      repoKey: request.params.repoKey,
      path,
      content: body,
      expected,
      byChecksum,
      // Content found by checksum is reused only from an item the caller may read.
      walker: byChecksum ? await services.access.walker(request.principal) : undefined,
      properties,
      user: request.principal.name,
      refuseExistingFile: mayOverwrite ? undefined : overwriteDenied,
      declaredLength: declaredLength(request),
    });
    const base = `${request.protocol}://${request.host}/artifactory`;
    request.log.info(
      { repository: repo.key, path, size: blob.size, by: request.principal.name },
      'deployed',
    );
    return reply.status(201).send({
      repo: repo.key,
      path: `/${path}`,
      created: node.created_at,
      createdBy: node.created_by,
      downloadUri: `${base}/${repo.key}/${path.split('/').map(encodeURIComponent).join('/')}`,
      mimeType: node.mime_type,
      size: String(blob.size),
      checksums: { sha1: blob.sha1, md5: blob.md5, sha256: blob.sha256 },
      originalChecksums: Object.fromEntries(Object.entries(expected).filter(([, value]) => value)),
      uri: `${base}/api/storage/${repo.key}/${path}`,
    });
  }

  /**
   * A file deployed to a build-info repository is a build, as in Artifactory: the document is
   * checked and stored as `PUT /api/build` stores it, at `{name}/{number}-{started}.json`
   * whatever the URL's path, judged by the build permissions. A file that is no build-info
   * document is refused, so the repository never holds a file that is not a build.
   */
  async function deployBuildInfo(request: ArtifactRequest, reply: FastifyReply, repoKey: string) {
    const limit = buildInfoMaxMb * 1024 * 1024;
    const text = await readText(request.raw, limit).catch(() => {
      throw new BadRequest(BUILD_MESSAGES.tooLarge(buildInfoMaxMb));
    });
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      throw new BadRequest(BUILD_MESSAGES.notBuildInfo);
    }
    const info = services.builds.validate(document);
    const project =
      repoKey === DEFAULT_BUILD_REPOSITORY ? undefined : repoKey.replace(/-build-info$/, '');
    if (buildRepositoryOf(project) !== repoKey) throw new BadRequest(BUILD_MESSAGES.notBuildInfo);
    await services.builds.upload(request.principal, info, project);
    const place = placeOf(info, project);
    request.log.info(
      { repository: repoKey, path: place.path, by: request.principal.name },
      'build deployed',
    );
    return reply.status(201).send({ repo: repoKey, path: `/${place.path}` });
  }

  async function remove(request: ArtifactRequest, reply: FastifyReply) {
    const { path } = parseArtifactPath(request.params['*'] ?? '');
    await services.access.require(request.principal, 'delete', request.params.repoKey, path);
    // To the trash can when it is on; for good when it is off or the item is already there.
    // Delete on everything below too: the walker refuses the whole delete otherwise.
    const walker = await services.access.walker(request.principal);
    await services.trash.delete(request.params.repoKey, path, walker);
    request.log.info(
      { repository: request.params.repoKey, path, by: request.principal.name },
      'deleted',
    );
    return reply.status(204).send();
  }

  const reader = { config: { permission: 'reader' as const } };
  // A deploy may take its content from items elsewhere (by checksum) or explode an archive
  // over many paths; a delete takes a folder's whole subtree: both walk what they touch.
  const walking = { config: { permission: 'reader' as const, reach: 'many' as const } };
  // Who may deploy and delete where is the permission targets' call (services.access).
  // 'api' is reserved: below it, what no REST route serves is an unknown API (unknown-api.ts).
  app.addHook('preHandler', async (request) => {
    if ((request.params as { repoKey?: string }).repoKey === 'api')
      throw noSuchApi(request.method, request.url);
  });
  for (const url of ['/artifactory/:repoKey', '/artifactory/:repoKey/*']) {
    app.get(url, reader, download);
    app.put(url, walking, deploy);
    app.delete(url, walking, remove);
  }
}
