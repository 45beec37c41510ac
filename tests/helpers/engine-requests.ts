import { expect } from 'vitest';
import {
  engineRoutes,
  storedScreens,
  type EngineRoute,
} from '../../server/modules/entities/descriptors.ts';
import {
  isSingleDocument,
  type CollectionDescriptor,
  type EntityDescriptor,
  type JsonSchema,
  type SchemaRegistry,
} from '../../server/schemas/registry.ts';
import { adminAuth, type TestDepot } from './test-app.ts';

/**
 * Requests for the routes the schema engine registers, learned from the descriptors: a new
 * descriptor with a `store` is called by the route table (and classified by the
 * excluded-child test) with no line written for it. Each collection gets two documents made
 * from its entity's first example: `matrix-<screen>` (read and updated) and `doomed-<screen>`
 * (deleted); creating names `matrix-<screen>-new`.
 */
export const matrixKey = (screen: EntityDescriptor) => `matrix-${screen.id}`;
export const doomedKey = (screen: EntityDescriptor) => `doomed-${screen.id}`;
const newKey = (screen: EntityDescriptor) => `matrix-${screen.id}-new`;

/** An entity's first example: schemas:check requires one for every stored entity. */
export function exampleOf(entity: JsonSchema): Record<string, unknown> {
  const example = (entity.examples as Record<string, unknown>[] | undefined)?.[0];
  if (!example) throw new Error(`Entity '${entity.$id}' has no examples`);
  return structuredClone(example);
}

/** The example under another key, as a create or update of that document sends it. */
export const documentNamed = (screen: CollectionDescriptor, entity: JsonSchema, key: string) => ({
  ...exampleOf(entity),
  [screen.key]: key,
});

const screenOf = (registry: SchemaRegistry, route: EngineRoute) =>
  storedScreens(registry).find((screen) => screen.id === route.screen)!;

/** A path of the descriptor's `api` with its key placeholder filled. */
const filled = (path: string, key: string) =>
  `/ui/api/v1${path.replace(/\{[^}]+\}/, encodeURIComponent(key))}`;

/** What the table sends to one engine route: its URL and JSON body. */
export function engineRequest(
  registry: SchemaRegistry,
  route: EngineRoute,
  singleDocuments: Map<string, object>,
): { url: string; body?: object } {
  const screen = screenOf(registry, route);
  const call = screen.api[route.operation]!;
  if (isSingleDocument(screen))
    // The document as it stands: saving it changes nothing the other routes rely on.
    return { url: filled(call.path, ''), body: singleDocuments.get(screen.entity) };
  const entity = registry.entities.get(screen.entity)!;
  switch (route.operation) {
    case 'create':
      return { url: filled(call.path, ''), body: documentNamed(screen, entity, newKey(screen)) };
    case 'update':
      return {
        url: filled(call.path, matrixKey(screen)),
        body: documentNamed(screen, entity, matrixKey(screen)),
      };
    case 'deleteMany': {
      const keys = [doomedKey(screen)];
      return { url: filled(call.path, ''), body: call.bodyKey ? { [call.bodyKey]: keys } : keys };
    }
    default:
      return { url: filled(call.path, matrixKey(screen)) };
  }
}

/**
 * Makes what the engine requests name, as the admin through the engine's own create call;
 * answers each single document as it stands, for the table to save back.
 */
export async function populateEngineDocuments(depot: TestDepot): Promise<Map<string, object>> {
  const registry = depot.services.schemas;
  const singles = new Map<string, object>();
  for (const route of engineRoutes(registry)) {
    const screen = screenOf(registry, route);
    if (isSingleDocument(screen) && route.operation === 'get') {
      const current = await depot.app.inject({
        url: filled(screen.api.get.path, ''),
        headers: adminAuth(),
      });
      expect(current.statusCode, current.body).toBe(200);
      singles.set(screen.entity, current.json());
    }
    if (isSingleDocument(screen) || route.operation !== 'create') continue;
    const entity = registry.entities.get(screen.entity)!;
    for (const key of [matrixKey(screen), doomedKey(screen)]) {
      const made = await depot.app.inject({
        method: 'POST',
        url: filled(screen.api.create.path, ''),
        headers: adminAuth(),
        payload: documentNamed(screen, entity, key),
      });
      expect(made.statusCode, `${screen.id} ${key}: ${made.body}`).toBe(201);
    }
  }
  return singles;
}
