import type { FastifyInstance } from 'fastify';
import type { FormatRouteOptions } from '../format.ts';
import { dockerPromotionRoutes } from './promotion-routes.ts';
import { registryRoutesAt } from './registry-routes.ts';

/**
 * Everything under `/artifactory/api/docker`: the registry protocol at `<repoKey>/v2/` and
 * the REST calls beside it (promotion). Each is its own plugin, so the protocol's error
 * answers and raw bodies stay its own.
 */
export async function dockerApiRoutes(app: FastifyInstance, options: FormatRouteOptions) {
  // The prefix app.ts gave this plugin applies to its children already.
  const { services, filestore, config } = options;
  const shared = { services, filestore, config };
  await app.register(registryRoutesAt('/:repoKey/v2'), shared);
  await app.register(dockerPromotionRoutes, shared);
}
