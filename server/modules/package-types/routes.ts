import type { FastifyInstance } from 'fastify';
import { loadCatalogue, repoKind, type Catalogue } from '../../catalogue/catalogue.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { PACKAGE_TYPE_MESSAGES } from './messages.ts';

const reader = { permission: 'reader' as const };

interface PackageTypesOptions {
  /** Tests may hand in their own; the server loads schemas/catalogue at start. */
  catalogue?: Catalogue;
}

/**
 * The package-type catalogue and the repository layouts (spec 03 §3), under /ui/api/v1: the
 * repository form offers the types a kind allows and preselects the type's default layout.
 */
export async function packageTypesRoutes(
  app: FastifyInstance,
  { catalogue = loadCatalogue() }: PackageTypesOptions,
) {
  const { packageType, layout } = catalogue.itemSchemas;

  app.get<{ Querystring: { repoType?: string } }>(
    '/ui/admin/repositories/packagetypes',
    {
      config: reader,
      schema: {
        querystring: {
          type: 'object',
          properties: { repoType: { type: 'string', maxLength: 32 } },
        },
        response: { 200: { type: 'array', items: packageType } },
      },
    },
    async (request) => {
      const { repoType } = request.query;
      if (repoType === undefined) return catalogue.packageTypes;
      const kind = repoKind(repoType);
      if (!kind) throw new BadRequest(PACKAGE_TYPE_MESSAGES.unsupportedRepoType, 'repoType');
      return catalogue.packageTypesFor(kind);
    },
  );

  app.get(
    '/ui/admin/repositories/layouts',
    { config: reader, schema: { response: { 200: { type: 'array', items: layout } } } },
    async () => catalogue.layouts,
  );

  app.get<{ Params: { name: string } }>(
    '/ui/admin/repositories/layouts/:name',
    {
      config: reader,
      schema: {
        params: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', minLength: 1, maxLength: 64 } },
        },
        response: { 200: layout },
      },
    },
    async (request) => {
      const found = catalogue.layout(request.params.name);
      if (!found) throw new NotFound(PACKAGE_TYPE_MESSAGES.layoutNotFound(request.params.name));
      return found;
    },
  );
}
