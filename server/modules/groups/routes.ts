import type { FastifyInstance } from 'fastify';
import { createBodySchema, responseSchema, updateBodySchema } from '../../schemas/registry.ts';
import type { Services } from '../../services.ts';
import { namesBody } from '../users/routes.ts';
import type { GroupInput } from './service.ts';

const nameParams = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 64 } },
};
type NameParams = { Params: { name: string } };
const admin = { permission: 'admin' as const };

/** The console's group calls (spec 01 §7 Groups), under /ui/api/v1. Admin only. */
export async function groupsRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { groups } = services;
  const groupSchema = services.schemas.entities.get('group')!;

  const groupResponse = responseSchema(groupSchema);
  const one = { 200: groupResponse };

  app.get(
    '/ui/groups',
    { config: admin, schema: { response: { 200: { type: 'array', items: groupResponse } } } },
    async () => groups.list(),
  );

  app.post<{ Body: GroupInput }>(
    '/ui/groups',
    {
      config: admin,
      schema: { body: createBodySchema(groupSchema), response: { 201: groupResponse } },
    },
    async (request, reply) => reply.status(201).send(await groups.create(request.body)),
  );

  app.get<NameParams>(
    '/ui/groups/:name',
    { config: admin, schema: { params: nameParams, response: one } },
    async (request) => groups.get(request.params.name),
  );

  app.put<NameParams & { Body: Partial<GroupInput> }>(
    '/ui/groups/:name',
    {
      config: admin,
      schema: { params: nameParams, body: updateBodySchema(groupSchema), response: one },
    },
    async (request) => groups.update(request.params.name, request.body),
  );

  app.post<{ Body: { groupNames: string[] } }>(
    '/ui/groups/delete',
    { config: admin, schema: { body: namesBody('groupNames') } },
    async (request) => {
      await groups.deleteMany(request.body.groupNames);
      return { deleted: request.body.groupNames };
    },
  );
}
