import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

/**
 * What property sets add to the schema engine's calls (schemas/screens/property-sets.screen.json,
 * docs/property-sets.md): the sets a repository offers, for the tree's Properties tab.
 */
export async function propertySetsRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const propertySets = services.entities.collection('property-set');

  app.get<{ Querystring: { repoKey: string } }>(
    '/ui/repopropertyset',
    {
      config: { permission: 'reader' },
      schema: {
        querystring: {
          type: 'object',
          required: ['repoKey'],
          properties: { repoKey: { type: 'string', minLength: 1 } },
        },
      },
    },
    async (request) => {
      // A repository's sets are for those who may read it (its root), as its tree is.
      await services.access.requireOn(request.principal, 'read', request.query.repoKey, '');
      // Every set applies to every repository, once the repository is known to exist.
      await services.repositories.get(request.query.repoKey);
      return (await propertySets.list({ offset: 0, descending: false, equals: {} })).items;
    },
  );
}
