import type { RoutePermission } from '../../http/permissions.ts';
import {
  isEntityScreen,
  isSingleDocument,
  type EntityDescriptor,
  type SchemaRegistry,
} from '../../schemas/registry.ts';

/** Where the console's calls live on the server: descriptors' `api` paths are under it. */
export const CONSOLE_API_PREFIX = '/ui/api/v1';

/** The calls the engine serves for a stored entity. */
export type EntityOperation = 'list' | 'get' | 'create' | 'update' | 'deleteMany';

/** One route the engine registers, as the route catalogue and schemas:check see it. */
export interface EngineRoute {
  method: string;
  /** Fastify's form, under the console's prefix: `/ui/api/v1/ui/propertysets/:name`. */
  url: string;
  operation: EntityOperation;
  permission: RoutePermission;
  screen: string;
  entity: string;
}

/** The answers the engine gives where a descriptor words none (spec 01's generic ones). */
export const DEFAULT_ENTITY_MESSAGES = {
  exists: 'This name already exist',
  notFound: "'{key}' could not be found.",
  readOnlyOnEdit: '{field} cannot be changed',
  deleted: 'Successfully removed {count} item(s)',
  stale: 'This was changed since you opened it. Reload it to see the changes, then save again.',
} as const;

export const messagesOf = (screen: Pick<EntityDescriptor, 'store'>) => ({
  ...DEFAULT_ENTITY_MESSAGES,
  ...screen.store?.messages,
});

/** `{name}` placeholders of a descriptor path in Fastify's `:name` form. */
export const toRoutePattern = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/**
 * Who may write: the descriptor's `permission` as a route permission. A `manager` screen's
 * data is written by admins: what a manager may change is a feature's own rule.
 */
export function writePermissionOf(screen: EntityDescriptor): RoutePermission {
  if (screen.permission === 'anonymous') return 'reader';
  if (screen.permission === 'user') return 'user';
  return 'admin';
}

export const readPermissionOf = (screen: EntityDescriptor): RoutePermission =>
  screen.store?.readPermission ?? writePermissionOf(screen);

/** The descriptors whose entity the engine stores. */
export const storedScreens = (registry: SchemaRegistry): EntityDescriptor[] =>
  [...registry.screens.values()].filter(
    (screen): screen is EntityDescriptor => isEntityScreen(screen) && screen.store !== undefined,
  );

const OPERATIONS_OF = {
  collection: ['list', 'get', 'create', 'update', 'deleteMany'],
  single: ['get', 'update'],
} as const satisfies Record<string, EntityOperation[]>;

/** The routes the engine registers for a stored descriptor, from its `api` block alone. */
export function engineRoutesOf(screen: EntityDescriptor): EngineRoute[] {
  const operations = OPERATIONS_OF[isSingleDocument(screen) ? 'single' : 'collection'];
  return operations.flatMap((operation) => {
    const call = screen.api[operation];
    if (!call) return [];
    const reads = operation === 'list' || operation === 'get';
    return [
      {
        method: call.method,
        url: CONSOLE_API_PREFIX + toRoutePattern(call.path),
        operation,
        permission: reads ? readPermissionOf(screen) : writePermissionOf(screen),
        screen: screen.id,
        entity: screen.entity,
      },
    ];
  });
}

/** Every route the engine registers, in descriptor order. */
export const engineRoutes = (registry: SchemaRegistry) =>
  storedScreens(registry).flatMap(engineRoutesOf);
