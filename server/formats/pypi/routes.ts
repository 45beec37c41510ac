import type { FormatRouteOptions } from '../format.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createDownloadHandler } from '../../modules/artifacts/download-handler.ts';
import { normalizeName } from './names.ts';
import {
  projectHtml,
  projectJson,
  rootHtml,
  rootJson,
  SIMPLE_JSON,
  wantsJson,
  type SimpleFile,
} from './simple-page.ts';
import { readUpload } from './upload.ts';

// Registered under /artifactory/api/pypi (the format's own path, server/formats/format.ts).
const PREFIX = '/:repoKey';
// Distributions are streamed to the filestore; the limit is the form's, not the file's.
const UPLOAD_BODY_LIMIT = 8 * 1024 * 1024 * 1024;

type RepoRequest = FastifyRequest<{ Params: { repoKey: string } }>;
type ProjectRequest = FastifyRequest<{ Params: { repoKey: string; project: string } }>;

const repoBase = (request: FastifyRequest, repoKey: string) =>
  `${request.protocol}://${request.host}/artifactory/api/pypi/${encodeURIComponent(repoKey)}`;

const caller = (request: FastifyRequest) => ({ principal: request.principal, log: request.log });

/** Sends a simple-API answer in the form the client prefers (pip asks for PEP 691 JSON). */
function sendSimple(
  request: FastifyRequest,
  reply: FastifyReply,
  json: () => unknown,
  html: () => string,
) {
  reply.header('Vary', 'Accept');
  if (wantsJson(request.headers.accept))
    return reply.type(SIMPLE_JSON).send(JSON.stringify(json()));
  return reply.type('text/html; charset=utf-8').send(html());
}

/**
 * PyPI at `/artifactory/api/pypi/{repoKey}` (docs/pypi.md): twine uploads to the base URL,
 * pip reads `simple/` and downloads from `packages/`.
 */
export async function pypiRoutes(
  app: FastifyInstance,
  { services, filestore }: FormatRouteOptions,
) {
  const { pypi } = services;
  const download = createDownloadHandler({ services, filestore });
  const reader = { config: { permission: 'reader' as const } };
  // The form is read as a stream by the upload, not by a body parser.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

  async function uploadHandler(request: RepoRequest, reply: FastifyReply) {
    const form = await readUpload(request.raw, request.headers, (content, expected) =>
      filestore.stage(content, expected),
    );
    await pypi.upload(request.params.repoKey, form, caller(request));
    return reply.status(200).type('text/plain').send('OK');
  }
  const uploading = { ...reader, bodyLimit: UPLOAD_BODY_LIMIT };
  // The router ignores a trailing slash: `{repoKey}` and `{repoKey}/` are one route.
  app.post(PREFIX, uploading, uploadHandler);

  app.get(`${PREFIX}/simple/`, reader, async (request: RepoRequest, reply) => {
    const base = repoBase(request, request.params.repoKey);
    const projects = await pypi.projects(request.params.repoKey, caller(request));
    return sendSimple(
      request,
      reply,
      () => rootJson(projects),
      () => rootHtml(projects, (p) => `${base}/simple/${p}/`),
    );
  });

  // PEP 503: a project's URL is its normalized name; other spellings are redirected there.
  app.get(`${PREFIX}/simple/:project/`, reader, async (request: ProjectRequest, reply) => {
    const { repoKey, project } = request.params;
    const base = repoBase(request, repoKey);
    if (project !== normalizeName(project))
      return reply.redirect(`${base}/simple/${normalizeName(project)}/`, 301);
    const files = await pypi.projectPage(repoKey, project, caller(request));
    const fileUrl = (file: SimpleFile) =>
      `${base}/packages/${file.path.split('/').map(encodeURIComponent).join('/')}`;
    return sendSimple(
      request,
      reply,
      () => projectJson(project, files, fileUrl),
      () => projectHtml(project, files, fileUrl),
    );
  });

  app.get(
    `${PREFIX}/packages/*`,
    reader,
    async (request: FastifyRequest<{ Params: { repoKey: string; '*': string } }>, reply) => {
      const path = request.params['*'];
      const serving = await pypi.locateFile(request.params.repoKey, path, caller(request));
      return download(request, reply, serving, path);
    },
  );
}
