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
  const pageQuery = {
    pageNum: { type: 'integer', minimum: 1, default: 1 },
    numOfRows: {
      type: 'integer',
      minimum: 1,
      maximum: EFFECTIVE_PERMISSIONS_PAGE.maxRows,
      default: EFFECTIVE_PERMISSIONS_PAGE.numOfRows,
    },
    direction: { enum: ['asc', 'desc'], default: 'asc' },
    orderBy: { enum: ['principal'], default: 'principal' },
  } as const;

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
            ...pageQuery,
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

  // The build's Effective Permissions tab: admins only, as the node's (it lists every user).
  app.get<{
    Params: { name: string; number: string; startTime: string };
    Querystring: PermissionsQuery & { projectKey?: string };
  }>(
    '/ui/builds/buildEffectivePermission/:name/:number/:startTime',
    {
      config: { permission: 'admin' },
      schema: {
        params: {
          type: 'object',
          required: ['name', 'number', 'startTime'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 1024 },
            number: { type: 'string', minLength: 1, maxLength: 1024 },
            startTime: { type: 'string', pattern: '^[0-9]{1,15}$' },
          },
        },
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { projectKey: { type: 'string', maxLength: 64 }, ...pageQuery },
        },
      },
    },
    async (request) => {
      const { name, number, startTime } = request.params;
      const { projectKey, pageNum, numOfRows, direction } = request.query;
      const { row } = await services.builds.find(request.principal, name, number, {
        started: startTime,
        projectKey: projectKey || undefined,
      });
      return permissions.forBuild(
        { repositoryKey: row.repository_key, path: row.path },
        { pageNum, numOfRows, direction },
      );
    },
  );
}
