import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseArtifactPath } from '../artifacts/paths.ts';
import type { AccessService } from '../access-control/service.ts';
import type { FolderArchive, FolderDownloadRequest, FolderDownloads } from './folder-download.ts';

type FolderQuery = { archiveType?: string; includeChecksumFiles?: boolean };
type ConsoleFolderRequest = { repoKey: string; path?: string } & FolderQuery;

/** A folder's files, each left out unless the caller may read it (the item walker's read). */
const reader = { permission: 'reader' as const, reach: 'many' as const };
// A HEAD would build and drain a whole archive into the void: these are GET only.
const readerGet = { config: reader, exposeHeadRoute: false };

const folderQuery = {
  type: 'object',
  properties: {
    archiveType: { type: 'string' },
    includeChecksumFiles: { type: 'boolean', default: false },
  },
} as const;

const consoleFolderProperties = {
  repoKey: { type: 'string', minLength: 1 },
  path: { type: 'string' },
  ...folderQuery.properties,
} as const;

function sendArchive(reply: FastifyReply, archive: FolderArchive) {
  const asciiName = archive.fileName.replace(/[^\w.-]/g, '_');
  return reply
    .type(archive.contentType)
    .header(
      'Content-Disposition',
      `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(archive.fileName)}`,
    )
    .header('Cache-Control', 'no-store')
    .send(archive.stream);
}

/**
 * Folder downloads: Artifactory's scripted call and the console's calls (spec 02 §7). The
 * console's download is offered as GET too, so a browser can save it straight to disk
 * instead of holding the archive in the page's memory.
 */
export async function archiveDownloadRoutes(
  app: FastifyInstance,
  { folderDownloads, access }: { folderDownloads: FolderDownloads; access: AccessService },
) {
  /**
   * The caller's item walker, once it may read the folder: the files it may not read are
   * left out of the archive, silently, as a listing leaves them out.
   */
  const folderAccess = async (request: FastifyRequest, repoKey: string, path: string) => {
    await access.require(request.principal, 'read', repoKey, path, 'folder');
    return access.walker(request.principal);
  };

  for (const url of [
    '/artifactory/api/archive/download/:repoKey',
    '/artifactory/api/archive/download/:repoKey/*',
  ]) {
    app.get<{ Params: { repoKey: string; '*'?: string }; Querystring: FolderQuery }>(
      url,
      { ...readerGet, schema: { querystring: folderQuery } },
      async (request, reply) => {
        const { path } = parseArtifactPath(request.params['*'] ?? '');
        const archive = await folderDownloads.open({
          repoKey: request.params.repoKey,
          path,
          archiveType: request.query.archiveType,
          includeChecksumFiles: request.query.includeChecksumFiles === true,
          walker: await folderAccess(request, request.params.repoKey, path),
        });
        return sendArchive(reply, archive);
      },
    );
  }

  /** A console call's parameters as a download request, once the caller may read the folder. */
  async function consoleFolderRequest(
    request: FastifyRequest,
    params: ConsoleFolderRequest,
  ): Promise<FolderDownloadRequest> {
    const path = parseArtifactPath(params.path ?? '').path;
    return {
      repoKey: params.repoKey,
      path,
      archiveType: params.archiveType,
      includeChecksumFiles: params.includeChecksumFiles === true,
      walker: await folderAccess(request, params.repoKey, path),
    };
  }

  async function downloadFolder(
    request: FastifyRequest,
    params: ConsoleFolderRequest,
    reply: FastifyReply,
  ) {
    const archive = await folderDownloads.open(await consoleFolderRequest(request, params));
    return sendArchive(reply, archive);
  }

  const consoleUrl = '/ui/api/v1/ui/artifactactions/downloadfolder';
  app.get<{ Querystring: ConsoleFolderRequest }>(
    consoleUrl,
    {
      ...readerGet,
      schema: {
        querystring: { type: 'object', required: ['repoKey'], properties: consoleFolderProperties },
      },
    },
    (request, reply) => downloadFolder(request, request.query, reply),
  );
  // The console asks with a HEAD before it lets the browser save the archive: a refusal (for
  // load, limits or access) can then be told in the page. Checks only; no archive is built.
  app.head<{ Querystring: ConsoleFolderRequest }>(
    consoleUrl,
    {
      config: reader,
      schema: {
        querystring: { type: 'object', required: ['repoKey'], properties: consoleFolderProperties },
      },
    },
    async (request, reply) => {
      await folderDownloads.check(await consoleFolderRequest(request, request.query));
      return reply.header('Cache-Control', 'no-store').code(200).send();
    },
  );
  app.post<{ Body: ConsoleFolderRequest }>(
    consoleUrl,
    {
      config: reader,
      schema: {
        body: {
          type: 'object',
          required: ['repoKey'],
          additionalProperties: false,
          properties: consoleFolderProperties,
        },
      },
    },
    (request, reply) => downloadFolder(request, request.body, reply),
  );

  app.get<{ Querystring: { repoKey: string; path?: string } }>(
    '/ui/api/v1/ui/artifactactions/downloadfolderinfo',
    {
      ...readerGet,
      schema: {
        querystring: {
          type: 'object',
          required: ['repoKey'],
          properties: { repoKey: { type: 'string', minLength: 1 }, path: { type: 'string' } },
        },
      },
    },
    async (request) => {
      const { repoKey } = request.query;
      const path = parseArtifactPath(request.query.path ?? '').path;
      return folderDownloads.info(repoKey, path, await folderAccess(request, repoKey, path));
    },
  );
}
