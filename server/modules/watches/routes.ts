import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.ts';
import { parseArtifactPath } from '../artifacts/paths.ts';

const reader = { permission: 'reader' as const };
const repoKey = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const path = { type: 'string', maxLength: 10000 } as const;

interface NodeParams {
  repoKey: string;
  path: string;
}

const nodeBody = (extra: Record<string, object> = {}) => ({
  type: 'object',
  additionalProperties: false,
  required: ['repoKey', 'path'],
  properties: { repoKey, path, ...extra },
});

/** A path as the console sends it, normalised like every artifact path; '' is the root. */
const artifactPath = (raw: string) => parseArtifactPath(raw).path;

/**
 * The tree browser's Watch tab (spec 02 §2, §7): who watches a node (or anything above it),
 * watch it, stop watching it. Anyone who may read a node may ask; watching takes a signed-in
 * user, and removing someone else's watch an admin, which the service checks.
 */
export async function watchesRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { watches } = services;
  /** The node's path, once the caller may read it: one watches only what one may read. */
  const readable = async (request: FastifyRequest, node: NodeParams): Promise<string> => {
    const path = artifactPath(node.path);
    await services.access.requireOn(request.principal, 'read', node.repoKey, path);
    return path;
  };

  app.get<{ Querystring: NodeParams }>(
    '/ui/artifactwatches',
    {
      config: reader,
      schema: { querystring: { ...nodeBody(), additionalProperties: true } },
    },
    async (request) =>
      watches.status(
        request.query.repoKey,
        await readable(request, request.query),
        request.principal,
      ),
  );

  app.post<{ Body: NodeParams }>(
    '/ui/artifactwatches',
    { config: reader, schema: { body: nodeBody() } },
    async (request) =>
      watches.watch(request.body.repoKey, await readable(request, request.body), request.principal),
  );

  app.post<{ Body: NodeParams & { name?: string } }>(
    '/ui/artifactwatches/remove',
    {
      config: reader,
      schema: { body: nodeBody({ name: { type: 'string', minLength: 1, maxLength: 1024 } }) },
    },
    async (request) =>
      watches.unwatch(
        request.body.repoKey,
        await readable(request, request.body),
        request.principal,
        request.body.name,
      ),
  );
}
