import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import type { GeneralConfig } from './service.ts';

/**
 * The general configuration page's call (spec 03 §7 `generalConfig`): for now the global
 * offline mode. Admins only; a change applies at once on every node.
 */
export async function generalConfigRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { generalConfig } = services;
  app.get('/ui/generalConfig', { config: { permission: 'admin' } }, async () =>
    generalConfig.get(),
  );

  app.put<{ Body: Partial<GeneralConfig> }>(
    '/ui/generalConfig',
    {
      config: { permission: 'admin' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { offlineMode: { type: 'boolean' } },
        },
      },
    },
    async (request) => {
      const next = await generalConfig.update(request.body);
      request.log.info(
        { offlineMode: next.offlineMode, by: request.principal.name },
        'general configuration changed',
      );
      return next;
    },
  );
}
