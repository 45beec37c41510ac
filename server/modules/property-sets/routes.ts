import type { FastifyInstance } from 'fastify';
import type { PropertySetProperty } from '../../db/tables.ts';
import { BadRequest } from '../../errors.ts';
import { createBodySchema, updateBodySchema } from '../../schemas/registry.ts';
import type { Services } from '../../services.ts';
import { PROPERTY_SET_MESSAGES } from './messages.ts';
import type { PropertySet } from './queries.ts';

const BASE = '/ui/propertysets';
const nameParams = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 64 } },
};
type NameParams = { Params: { name: string } };

// Spelled out rather than derived from the entity: its if/then rule is for bodies only, and
// the serializer would evaluate it (with warnings) on every answer.
const propertySet = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    properties: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          propertyType: { type: 'string' },
          predefinedValues: {
            type: 'array',
            items: {
              type: 'object',
              properties: { value: { type: 'string' }, defaultValue: { type: 'boolean' } },
            },
          },
        },
      },
    },
  },
};
const propertySetList = { type: 'array', items: propertySet };

/**
 * Property sets (spec 03, Property sets; docs/property-sets.md). Reading them is for every
 * reader, since the tree's Properties tab offers them; adding, changing and deleting them is
 * for admins.
 */
export async function propertySetsRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { propertySets } = services;
  const entity = services.schemas.entities.get('property-set')!;

  app.get(
    BASE,
    { config: { permission: 'reader' }, schema: { response: { 200: propertySetList } } },
    async () => propertySets.list(),
  );

  app.get<NameParams>(
    `${BASE}/:name`,
    {
      config: { permission: 'reader' },
      schema: { params: nameParams, response: { 200: propertySet } },
    },
    async (request) => propertySets.get(request.params.name),
  );

  app.post<{ Body: PropertySet }>(
    BASE,
    {
      config: { permission: 'admin' },
      schema: { body: createBodySchema(entity), response: { 201: propertySet } },
    },
    async (request, reply) => {
      const created = await propertySets.create(request.body);
      request.log.info({ propertySet: created.name, by: request.principal.name }, 'created');
      return reply.status(201).send(created);
    },
  );

  app.put<NameParams & { Body: { name?: string; properties?: PropertySetProperty[] } }>(
    `${BASE}/:name`,
    {
      config: { permission: 'admin' },
      // The name is the path's; a body may repeat it but never change it.
      schema: {
        params: nameParams,
        body: updateBodySchema(entity),
        response: { 200: propertySet },
      },
    },
    async (request) => {
      const { name, properties } = request.body;
      if (name !== undefined && name !== request.params.name)
        throw new BadRequest(PROPERTY_SET_MESSAGES.rename, 'name');
      const current = await propertySets.get(request.params.name);
      return propertySets.update(current.name, properties ?? current.properties);
    },
  );

  app.post<{ Body: { propertySetNames: string[] } }>(
    `${BASE}/delete`,
    {
      config: { permission: 'admin' },
      schema: {
        body: {
          type: 'object',
          required: ['propertySetNames'],
          additionalProperties: false,
          properties: {
            propertySetNames: {
              type: 'array',
              minItems: 1,
              maxItems: 100,
              items: { type: 'string', minLength: 1, maxLength: 64 },
            },
          },
        },
      },
    },
    async (request) => {
      const names = request.body.propertySetNames;
      await propertySets.deleteMany(names);
      request.log.info({ propertySets: names, by: request.principal.name }, 'deleted');
      return { info: PROPERTY_SET_MESSAGES.deleted(names.length) };
    },
  );

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
        response: { 200: propertySetList },
      },
    },
    async (request) => {
      // A repository's sets are for those who may read it (its root), as its tree is.
      await services.access.requireOn(request.principal, 'read', request.query.repoKey, '');
      return propertySets.forRepository(request.query.repoKey);
    },
  );
}
