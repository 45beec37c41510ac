import type { FastifyInstance } from 'fastify';
import { loadCatalogue, repoKind, type Catalogue } from '../../catalogue/catalogue.ts';
import { BadRequest } from '../../errors.ts';
import { PACKAGE_TYPE_MESSAGES } from './messages.ts';

const reader = { permission: 'reader' as const };

interface PackageTypesOptions {
  /** Tests may hand in their own; the server loads schemas/catalogue at start. */
  catalogue?: Catalogue;
}

/**
 * The package-type catalogue (spec 03 §3), under /ui/api/v1: the repository form offers the
 * types a kind allows. The layouts moved to repositories/layouts-routes.ts, beside the
 * layouts admins add.
 */
export async function packageTypesRoutes(
  app: FastifyInstance,
  { catalogue = loadCatalogue() }: PackageTypesOptions,
) {
  const { packageType } = catalogue.itemSchemas;

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
}
