import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isSingleDocument, type EntityDescriptor } from '../../schemas/registry.ts';
import type { Services } from '../../services.ts';
import { createBody, deleteManyBody, listFields, listQuery, updateBody } from './body-schemas.ts';
import type { CollectionStore } from './collection-store.ts';
import {
  engineRoutesOf,
  storedScreens,
  toRoutePattern,
  type EntityOperation,
} from './descriptors.ts';
import type { EntityDocument } from './documents.ts';
import type { SingleStore } from './single-store.ts';
import type { Versioned } from './update.ts';

type Params = Record<string, string>;
type ListParams = {
  offset: number;
  limit?: number;
  sort?: string;
  order: 'asc' | 'desc';
  q?: string;
};

const keyParams = (path: string) => {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  return {
    type: 'object',
    required: names,
    properties: Object.fromEntries(
      names.map((name) => [name, { type: 'string', minLength: 1, maxLength: 255 }]),
    ),
  };
};
/** The document's key from the path: its one placeholder. */
const keyOf = (request: FastifyRequest) => Object.values(request.params as Params)[0]!;
const ifMatchOf = (request: FastifyRequest) => request.headers['if-match'];

function answer(reply: FastifyReply, { document, etag }: Versioned, status = 200) {
  return reply.status(status).header('ETag', etag).send(document);
}

function collectionHandlers(screen: EntityDescriptor, store: CollectionStore) {
  const filters = listFields(store.entity);
  return {
    list: async (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.query as ListParams & Params;
      const equals = Object.fromEntries(
        filters.filter((name) => query[name] !== undefined).map((name) => [name, query[name]!]),
      );
      const { items, total } = await store.list({
        offset: query.offset,
        limit: query.limit,
        sort: query.sort,
        descending: query.order === 'desc',
        search: query.q,
        equals,
      });
      return reply.header('X-Total-Count', String(total)).send(items);
    },
    get: async (request: FastifyRequest, reply: FastifyReply) =>
      answer(reply, await store.get(keyOf(request))),
    create: async (request: FastifyRequest, reply: FastifyReply) =>
      answer(
        reply,
        await store.create(request.body as EntityDocument, request.principal.name),
        201,
      ),
    update: async (request: FastifyRequest, reply: FastifyReply) =>
      answer(
        reply,
        await store.update(
          keyOf(request),
          request.body as EntityDocument,
          request.principal.name,
          ifMatchOf(request),
        ),
      ),
    deleteMany: async (request: FastifyRequest) => {
      const bodyKey = screen.api.deleteMany?.bodyKey;
      const body = request.body as string[] | Record<string, string[]>;
      const keys = bodyKey ? (body as Record<string, string[]>)[bodyKey]! : (body as string[]);
      return { info: await store.deleteMany(keys, request.principal.name) };
    },
  };
}

function singleHandlers(store: SingleStore) {
  return {
    get: async (_request: FastifyRequest, reply: FastifyReply) => answer(reply, await store.get()),
    update: async (request: FastifyRequest, reply: FastifyReply) =>
      answer(
        reply,
        await store.update(
          request.body as EntityDocument,
          request.principal.name,
          ifMatchOf(request),
        ),
      ),
  };
}

function schemaOf(screen: EntityDescriptor, operation: EntityOperation, entity: EntityDocument) {
  const path = screen.api[operation]!.path;
  const params = path.includes('{') ? { params: keyParams(path) } : {};
  switch (operation) {
    case 'list':
      return { querystring: listQuery(entity) };
    case 'create':
      return { body: createBody(entity, screen.form.requiredOnCreate) };
    case 'update':
      return { ...params, body: updateBody(entity) };
    case 'deleteMany':
      return { body: deleteManyBody(screen.api.deleteMany?.bodyKey) };
    default:
      return params;
  }
}

/**
 * The generic entity resource: for every descriptor with a `store`, the calls its `api`
 * block names, with the permission it declares (docs/adding-a-screen.md). Registered under
 * /ui/api/v1 like the console's other calls.
 */
export async function entityRoutes(app: FastifyInstance, { services }: { services: Services }) {
  for (const screen of storedScreens(services.schemas)) {
    const handlers = isSingleDocument(screen)
      ? singleHandlers(services.entities.single(screen.entity))
      : collectionHandlers(screen, services.entities.collection(screen.entity));
    const entity = services.schemas.entities.get(screen.entity)!;
    for (const route of engineRoutesOf(screen)) {
      const handler = (handlers as Record<string, (r: FastifyRequest, p: FastifyReply) => unknown>)[
        route.operation
      ]!;
      app.route({
        method: route.method as 'GET',
        url: toRoutePattern(screen.api[route.operation]!.path),
        config: { permission: route.permission, entity: screen.entity },
        schema: schemaOf(screen, route.operation, entity),
        handler,
      });
    }
  }
}
