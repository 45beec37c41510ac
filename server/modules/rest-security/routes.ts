import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest } from '../../errors.ts';
import { createBodySchema, updateBodySchema, type JsonSchema } from '../../schemas/registry.ts';
import type { Services } from '../../services.ts';
import type { GroupInput, GroupView } from '../groups/service.ts';
import type { UserInput } from '../users/service.ts';

const BASE = '/artifactory/api/security';
const admin = { permission: 'admin' as const };
const nameParams = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 64 } },
};
type NameParams = { Params: { name: string } };

const uriOf = (request: FastifyRequest, path: string) =>
  `${request.protocol}://${request.host}${BASE}/${path}`;

/** The name may be left out of a REST body (the path has it) but must agree when given. */
function nameFromPath<T extends { name?: string }>(name: string, body: T): T & { name: string } {
  if (body.name !== undefined && body.name.toLowerCase() !== name.toLowerCase()) {
    throw new BadRequest(
      `The name in the body ('${body.name}') differs from the path ('${name}')`,
      'name',
    );
  }
  return { ...body, name };
}

const withoutRequiredName = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  required: (schema.required ?? []).filter((field) => field !== 'name'),
});

/** Artifactory's group JSON: members are `userNames`, not the console's `usersInGroup`. */
function toRestGroup(group: GroupView, includeUsers: boolean) {
  const { usersInGroup, ...rest } = group;
  return includeUsers ? { ...rest, userNames: usersInGroup } : rest;
}

function restGroupSchema(groupSchema: JsonSchema, body: (s: JsonSchema) => JsonSchema): JsonSchema {
  const schema = withoutRequiredName(body(groupSchema));
  const { usersInGroup, ...properties } = schema.properties ?? {};
  return { ...schema, properties: { ...properties, userNames: usersInGroup } };
}

function fromRestGroup(body: Partial<GroupInput> & { userNames?: string[] }): Partial<GroupInput> {
  const { userNames, ...rest } = body;
  return userNames === undefined ? rest : { ...rest, usersInGroup: userNames };
}

/** Users and groups on the scripted REST API, in Artifactory's JSON shapes. Admin only. */
export async function restSecurityRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { users, groups } = services;
  const userSchema = services.schemas.entities.get('user')!;
  const groupSchema = services.schemas.entities.get('group')!;

  app.get(`${BASE}/users`, { config: admin }, async (request) =>
    (await users.list()).map((u) => ({
      name: u.name,
      uri: uriOf(request, `users/${encodeURIComponent(u.name)}`),
      realm: u.realm,
    })),
  );

  app.get<NameParams>(
    `${BASE}/users/:name`,
    { config: admin, schema: { params: nameParams } },
    async (request) => {
      const {
        locked: _locked,
        passwordExpired: _expired,
        ...user
      } = await users.get(request.params.name);
      return user;
    },
  );

  // Artifactory: PUT creates the user or replaces an existing one.
  app.put<NameParams & { Body: Partial<UserInput> }>(
    `${BASE}/users/:name`,
    {
      config: admin,
      schema: { params: nameParams, body: withoutRequiredName(createBodySchema(userSchema)) },
    },
    async (request, reply) => {
      const input = nameFromPath(request.params.name, request.body) as UserInput;
      if (await users.exists(input.name)) {
        await users.update(input.name, input, request.principal);
        return reply.status(200).send();
      }
      await users.create(input);
      return reply.status(201).send();
    },
  );

  app.post<NameParams & { Body: Partial<UserInput> }>(
    `${BASE}/users/:name`,
    { config: admin, schema: { params: nameParams, body: updateBodySchema(userSchema) } },
    async (request, reply) => {
      await users.update(
        request.params.name,
        nameFromPath(request.params.name, request.body),
        request.principal,
      );
      return reply.status(200).send();
    },
  );

  app.delete<NameParams>(
    `${BASE}/users/:name`,
    { config: admin, schema: { params: nameParams } },
    async (request, reply) => {
      await users.deleteMany([request.params.name], request.principal);
      return reply
        .type('text/plain')
        .send(`The user: '${request.params.name}' has been removed successfully.`);
    },
  );

  app.get(`${BASE}/groups`, { config: admin }, async (request) =>
    (await groups.list()).map((g) => ({
      name: g.name,
      uri: uriOf(request, `groups/${encodeURIComponent(g.name)}`),
    })),
  );

  app.get<NameParams & { Querystring: { includeUsers?: boolean } }>(
    `${BASE}/groups/:name`,
    {
      config: admin,
      schema: {
        params: nameParams,
        querystring: { type: 'object', properties: { includeUsers: { type: 'boolean' } } },
      },
    },
    async (request) =>
      toRestGroup(await groups.get(request.params.name), request.query.includeUsers === true),
  );

  app.put<NameParams & { Body: Partial<GroupInput> & { userNames?: string[] } }>(
    `${BASE}/groups/:name`,
    {
      config: admin,
      schema: { params: nameParams, body: restGroupSchema(groupSchema, createBodySchema) },
    },
    async (request, reply) => {
      const input = nameFromPath(request.params.name, fromRestGroup(request.body));
      if (await groups.exists(input.name)) {
        await groups.update(input.name, input);
        return reply.status(200).send();
      }
      await groups.create(input);
      return reply.status(201).send();
    },
  );

  app.post<NameParams & { Body: Partial<GroupInput> & { userNames?: string[] } }>(
    `${BASE}/groups/:name`,
    {
      config: admin,
      schema: { params: nameParams, body: restGroupSchema(groupSchema, updateBodySchema) },
    },
    async (request, reply) => {
      await groups.update(
        request.params.name,
        nameFromPath(request.params.name, fromRestGroup(request.body)),
      );
      return reply.status(200).send();
    },
  );

  app.delete<NameParams>(
    `${BASE}/groups/:name`,
    { config: admin, schema: { params: nameParams } },
    async (request, reply) => {
      await groups.deleteMany([request.params.name]);
      return reply
        .type('text/plain')
        .send(`Group '${request.params.name}' has been removed successfully.`);
    },
  );
}
