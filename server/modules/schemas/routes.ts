import type { FastifyInstance } from 'fastify';
import { Forbidden, NotFound } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { ScreenDescriptor } from '../../schemas/registry.ts';
import type { Services } from '../../services.ts';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } },
};

const mayUse = (screen: ScreenDescriptor, principal: Principal) =>
  screen.permission !== 'admin' || principal.admin;

/** Serves the screen descriptors and entity schemas the console's engine renders. */
export async function schemasRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { screens, entities } = services.schemas;
  const reader = { permission: 'reader' as const };

  app.get('/schemas/screens', { config: reader }, async (request) =>
    [...screens.values()]
      .filter((screen) => mayUse(screen, request.principal))
      .map(({ id, title, route, menu, permission }) => ({ id, title, route, menu, permission })),
  );

  app.get<{ Params: { id: string } }>(
    '/schemas/screens/:id',
    { config: reader, schema: { params: idParams } },
    async (request) => {
      const screen = screens.get(request.params.id);
      if (!screen) throw new NotFound(`Screen '${request.params.id}' could not be found.`);
      if (!mayUse(screen, request.principal)) throw new Forbidden();
      // Bundled, not referenced: rjsf resolves $ref only inside the root schema.
      return { ...screen, entitySchema: entities.get(screen.entity) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/schemas/entities/:id',
    { config: reader, schema: { params: idParams } },
    async (request) => {
      const entity = entities.get(request.params.id);
      if (!entity) throw new NotFound(`Schema '${request.params.id}' could not be found.`);
      return entity;
    },
  );
}
