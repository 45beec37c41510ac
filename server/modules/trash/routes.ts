import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.ts';
import { parseArtifactPath } from '../artifacts/paths.ts';
import { TRASH_REPO_KEY, type TrashConfig } from './service.ts';

type TrashRequest = FastifyRequest<{ Params: { '*'?: string }; Querystring: { to?: string } }>;
const admin = { permission: 'admin' as const };
/** Restoring, emptying and cleaning act on whole subtrees of the trash: each item is walked. */
const adminOnMany = { permission: 'admin' as const, reach: 'many' as const };

/** Artifactory's trash can calls, and the console's trash can settings. */
export async function trashRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { trash, artifacts } = services;

  app.post(
    '/artifactory/api/trash/restore/*',
    { config: adminOnMany },
    async (request: TrashRequest) => {
      const { path } = parseArtifactPath(request.params['*'] ?? '');
      const to = request.query.to ? parseArtifactPath(request.query.to).path : undefined;
      const restoredTo = await trash.restore(
        path,
        to,
        await services.access.walker(request.principal),
      );
      return {
        messages: [
          { level: 'INFO', message: `Successfully restored trash items to ${restoredTo}` },
        ],
      };
    },
  );

  app.post('/artifactory/api/trash/empty', { config: adminOnMany }, async (request) => {
    await trash.empty(await services.access.walker(request.principal));
    return { messages: [{ level: 'INFO', message: 'The trash can was emptied' }] };
  });

  app.delete(
    '/artifactory/api/trash/clean/*',
    { config: adminOnMany },
    async (request: TrashRequest, reply) => {
      const { path } = parseArtifactPath(request.params['*'] ?? '');
      await artifacts.delete(TRASH_REPO_KEY, path, await services.access.walker(request.principal));
      return reply.status(204).send();
    },
  );

  app.get('/ui/api/v1/ui/trashcan', { config: admin }, async () => trash.config());
  app.put<{ Body: Partial<TrashConfig> }>(
    '/ui/api/v1/ui/trashcan',
    {
      config: admin,
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            enabled: { type: 'boolean' },
            retentionPeriodDays: {
              type: 'integer',
              minimum: 1,
              maximum: 3650,
              errorMessage: {
                minimum: 'Please enter a non-negative number',
                type: 'Please enter a whole number',
              },
            },
          },
        },
      },
    },
    async (request) => trash.updateConfig(request.body, request.principal.name),
  );
}
