import type { FastifyInstance } from 'fastify';
import type { FormatRouteOptions } from '../format.ts';
import { createDockerPromotion, type PromotionRequest } from './promotion.ts';

const TAG_FIELD = { type: 'string', minLength: 1, maxLength: 128 } as const;

const promotionBody = {
  type: 'object',
  required: ['targetRepo', 'dockerRepository'],
  properties: {
    targetRepo: { type: 'string', minLength: 1, maxLength: 64 },
    dockerRepository: { type: 'string', minLength: 1, maxLength: 255 },
    tag: TAG_FIELD,
    targetTag: TAG_FIELD,
    copy: { type: 'boolean' },
  },
} as const;

/**
 * `POST /artifactory/api/docker/<repoKey>/v2/promote` (docs/docker.md, "Promotion"), as
 * Artifactory has it. Its errors are the REST API's, not the registry protocol's: scripts
 * call it, not registry clients.
 */
export async function dockerPromotionRoutes(app: FastifyInstance, options: FormatRouteOptions) {
  const { services, filestore } = options;
  const promotion = createDockerPromotion({ ...services, filestore });
  app.post<{ Params: { repoKey: string }; Body: PromotionRequest }>(
    '/:repoKey/v2/promote',
    {
      // It copies or moves whole tag folders: each item goes through the caller's walker.
      config: { permission: 'user', reach: 'many' },
      schema: { body: promotionBody },
    },
    async (request) => {
      const done = await promotion.promote(request.params.repoKey, request.body, request.principal);
      return {
        message: `Promotion ended successfully: ${done.tags} tag(s) ${request.body.copy ? 'copied' : 'moved'} to '${done.target}'`,
      };
    },
  );
}
