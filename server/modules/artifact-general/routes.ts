import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.ts';
import { parseArtifactPath } from '../artifacts/paths.ts';
import { BUILD_TOOLS, type BuildTool } from './dependency-declaration.ts';

const reader = { permission: 'reader' as const };
const repoKey = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const path = { type: 'string', maxLength: 10000 } as const;

interface NodeBody {
  type?: 'repository' | 'folder' | 'file';
  repoKey: string;
  path: string;
}

const nodeBody = (extra: Record<string, object> = {}) => ({
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['repoKey', 'path'],
    properties: { repoKey, path, ...extra },
  },
});

/** A path as the console sends it, normalised like every artifact path; '' is the root. */
const artifactPath = (raw: string) => parseArtifactPath(raw).path;

/**
 * The tree browser's General tab (spec 02 §7): a node's facts and checksums, the files
 * below a folder, and a file's dependency declaration for a build tool. Readers may ask.
 */
export async function artifactGeneralRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { artifactGeneral } = services;
  /** The node's path, once the caller may read it. */
  const readable = async (
    request: FastifyRequest,
    node: { repoKey: string; path: string },
  ): Promise<string> => {
    const path = artifactPath(node.path);
    await services.access.requireOn(request.principal, 'read', node.repoKey, path);
    return path;
  };

  app.post<{ Body: NodeBody }>(
    '/ui/artifactgeneral',
    // `type` is accepted as the console sends it; the node is looked up, not taken on trust.
    { config: reader, schema: nodeBody({ type: { enum: ['repository', 'folder', 'file'] } }) },
    async (request) => {
      const { repoKey: key } = request.body;
      const path = await readable(request, request.body);
      const access = await services.access.forPrincipal(request.principal);
      return artifactGeneral.general(key, path, access.can('deploy', key, path));
    },
  );

  // Spec 02 §7 `/ui/checksums/fix` (payload not shown: the node's repoKey and path). It
  // reads the whole file again, so it is for those who may deploy it.
  app.post<{ Body: NodeBody }>(
    '/ui/checksums/fix',
    { config: reader, schema: nodeBody() },
    async (request) => {
      const path = await readable(request, request.body);
      // Deploy is checked where the file is stored: a virtual repository's member.
      return artifactGeneral.fixChecksums(request.body.repoKey, path, (storedIn) =>
        services.access.requireOn(request.principal, 'deploy', storedIn, path),
      );
    },
  );

  // Counts only what the caller may read below the folder: the item walker's read.
  app.post<{ Body: NodeBody }>(
    '/ui/artifactgeneral/artifactsCount',
    { config: { ...reader, reach: 'many' }, schema: nodeBody() },
    async (request) =>
      artifactGeneral.artifactsCount(
        request.body.repoKey,
        await readable(request, request.body),
        await services.access.walker(request.principal),
      ),
  );

  app.get<{ Querystring: { buildtool: BuildTool; repoKey: string; path: string } }>(
    '/ui/dependencydeclaration',
    {
      config: reader,
      schema: {
        querystring: {
          type: 'object',
          required: ['buildtool', 'repoKey', 'path'],
          properties: { buildtool: { enum: [...BUILD_TOOLS] }, repoKey, path },
        },
      },
    },
    async (request) => {
      const { buildtool, repoKey: key } = request.query;
      return artifactGeneral.dependencyDeclaration(
        buildtool,
        key,
        await readable(request, request.query),
      );
    },
  );
}
