import type { FastifyInstance } from 'fastify';
import { createBodySchema, responseSchema, updateBodySchema } from '../../schemas/registry.ts';
import type { Services } from '../../services.ts';
import type { UserInput } from './service.ts';

const nameParams = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 64 } },
};

export const namesBody = (key: string) => ({
  type: 'object',
  additionalProperties: false,
  required: [key],
  properties: {
    [key]: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', maxLength: 64 } },
  },
});

type NameParams = { Params: { name: string } };
const admin = { permission: 'admin' as const };

/** The console's user calls (spec 01 §7 Users), under /ui/api/v1. Admin only. */
export async function usersRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { users } = services;
  const userSchema = services.schemas.entities.get('user')!;
  const createBody = createBodySchema(userSchema);
  const updateBody = updateBodySchema(userSchema);
  const userResponse = responseSchema(userSchema);
  const one = { 200: userResponse };

  app.get(
    '/ui/users',
    { config: admin, schema: { response: { 200: { type: 'array', items: userResponse } } } },
    async () => users.list(),
  );

  app.get('/ui/users/groups', { config: admin }, async () => users.groupChoices());

  app.get<NameParams>(
    '/ui/users/:name',
    { config: admin, schema: { params: nameParams, response: one } },
    async (request) => users.get(request.params.name),
  );

  app.post<{ Body: UserInput }>(
    '/ui/users',
    { config: admin, schema: { body: createBody, response: { 201: userResponse } } },
    async (request, reply) => {
      const created = await users.create(request.body);
      request.log.info({ user: created.name, by: request.principal.name }, 'user created');
      return reply.status(201).send(created);
    },
  );

  app.put<NameParams & { Body: Partial<UserInput> }>(
    '/ui/users/:name',
    { config: admin, schema: { params: nameParams, body: updateBody, response: one } },
    async (request) => users.update(request.params.name, request.body, request.principal),
  );

  app.post<{ Body: { userNames: string[] } }>(
    '/ui/users/userDelete',
    { config: admin, schema: { body: namesBody('userNames') } },
    async (request) => {
      await users.deleteMany(request.body.userNames, request.principal);
      request.log.info(
        { users: request.body.userNames, by: request.principal.name },
        'users deleted',
      );
      return { deleted: request.body.userNames };
    },
  );

  for (const [action, expired] of [
    ['expirePassword', true],
    ['unexpirePassword', false],
  ] as const) {
    app.post<NameParams>(
      `/ui/users/:name/${action}`,
      { config: admin, schema: { params: nameParams } },
      async (request) => {
        await users.setPasswordExpired(request.params.name, expired);
        return { name: request.params.name, passwordExpired: expired };
      },
    );
  }

  // Spec 01 §7 names both calls (the security configuration's and the access entities');
  // each takes the user names to unlock.
  for (const url of ['/ui/securityconfig/unlockUsers', '/access/entities/users/unlockUsers']) {
    app.post<{ Body: string[] }>(
      url,
      {
        config: admin,
        schema: {
          body: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 64 } },
        },
      },
      async (request) => {
        await users.unlock(request.body);
        return { unlocked: request.body };
      },
    );
  }
}
