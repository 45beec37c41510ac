import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { parseArtifactPath } from '../artifacts/paths.ts';
import { createEffectivePermissionsService, type PermissionsQuery } from './service.ts';

/** Spec 02 §9: 25 rows a page, the first page, by principal ascending. */
export const EFFECTIVE_PERMISSIONS_PAGE = { numOfRows: 25, maxRows: 500 };

interface Query extends PermissionsQuery {
  repoKey: string;
  path: string;
  orderBy: 'principal';
}

/**
 * GET /ui/api/v1/ui/artifactpermissions (spec 02 §7): the Effective Permissions tab, a page
 * at a time. Admins only: it lists every user, which readers may not see.
 */
export async function effectivePermissionsRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const permissions = createEffectivePermissionsService(services);
  app.get<{ Querystring: Query }>(
    '/ui/artifactpermissions',
    {
      config: { permission: 'admin' },
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['repoKey'],
          properties: {
            repoKey: { type: 'string', minLength: 1, maxLength: 1024 },
            path: { type: 'string', maxLength: 10000, default: '' },
            pageNum: { type: 'integer', minimum: 1, default: 1 },
            numOfRows: {
              type: 'integer',
              minimum: 1,
              maximum: EFFECTIVE_PERMISSIONS_PAGE.maxRows,
              default: EFFECTIVE_PERMISSIONS_PAGE.numOfRows,
            },
            direction: { enum: ['asc', 'desc'], default: 'asc' },
            orderBy: { enum: ['principal'], default: 'principal' },
          },
        },
      },
    },
    async (request) => {
      const { repoKey, path, pageNum, numOfRows, direction } = request.query;
      return permissions.forNode(repoKey, parseArtifactPath(path).path, {
        pageNum,
        numOfRows,
        direction,
      });
    },
  );
}
