import type { FastifyInstance } from 'fastify';
import { Forbidden, NotFound } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import { isEntityScreen, type ScreenDescriptor } from '../../schemas/registry.ts';
import type { Services } from '../../services.ts';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } },
};

const mayUse = (screen: ScreenDescriptor, principal: Principal) =>
  screen.permission !== 'admin' || principal.admin;

/**
 * What the console routes, guards and lists a screen by (the sidebar, the user menu, the
 * Project Settings menu); the rest of a descriptor is fetched when its page opens.
 */
function summaryOf(screen: ScreenDescriptor) {
  const { id, title, route, editRoute, permission, component, pages, anonymousTo } = screen;
  const { menu, projectMenu, userMenu } = screen;
  // Only the kind: whether the console routes one settings page or a list with its forms.
  const store = screen.store && { kind: screen.store.kind ?? 'collection' };
  return {
    id,
    title,
    route,
    editRoute,
    permission,
    component,
    pages,
    anonymousTo,
    menu,
    projectMenu,
    userMenu,
    store,
  };
}

/** Serves the screen descriptors and entity schemas the console's engine renders. */
export async function schemasRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { screens, entities } = services.schemas;
  const reader = { permission: 'reader' as const };

  app.get('/schemas/screens', { config: reader }, async (request) =>
    [...screens.values()].filter((screen) => mayUse(screen, request.principal)).map(summaryOf),
  );

  app.get<{ Params: { id: string } }>(
    '/schemas/screens/:id',
    { config: reader, schema: { params: idParams } },
    async (request) => {
      const screen = screens.get(request.params.id);
      if (!screen) throw new NotFound(`Screen '${request.params.id}' could not be found.`);
      if (!mayUse(screen, request.principal)) throw new Forbidden();
      if (!isEntityScreen(screen)) return withDialogSchemas(screen);
      // Bundled, not referenced: rjsf resolves $ref only inside the root schema.
      return { ...screen, entitySchema: entities.get(screen.entity) };
    },
  );

  /** A bespoke screen's dialogs, each with its entity schema bundled as a form's is. */
  function withDialogSchemas(screen: ScreenDescriptor) {
    if (!screen.dialogs) return screen;
    const dialogs = Object.fromEntries(
      Object.entries(screen.dialogs).map(([id, dialog]) => [
        id,
        { ...dialog, entitySchema: entities.get(dialog.entity) },
      ]),
    );
    return { ...screen, dialogs };
  }

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
