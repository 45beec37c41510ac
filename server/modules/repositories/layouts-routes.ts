import type { FastifyInstance } from 'fastify';
import type { RepoLayout } from '../../catalogue/catalogue.ts';
import { BadRequest } from '../../errors.ts';
import { createBodySchema, responseSchema, updateBodySchema } from '../../schemas/registry.ts';
import type { Services } from '../../services.ts';
import { LAYOUT_MESSAGES } from './messages.ts';

const BASE = '/ui/admin/repositories/layouts';
const nameParams = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 64 } },
};
type NameParams = { Params: { name: string } };

/**
 * Repository layouts (spec 03 §2 Repositories: layouts list, new, edit). Reading them is
 * for every signed-in user, as the package-type catalogue is (package views need them);
 * adding, changing and deleting the admins' own layouts is for admins. Built-in layouts
 * answer with `builtIn: true` and refuse changes.
 */
export async function layoutsRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { repoLayouts } = services;
  const entity = services.schemas.entities.get('repo-layout')!;
  const layout = responseSchema(entity);

  app.get(
    BASE,
    {
      config: { permission: 'reader' },
      schema: { response: { 200: { type: 'array', items: layout } } },
    },
    async () => repoLayouts.list(),
  );

  app.get<NameParams>(
    `${BASE}/:name`,
    {
      config: { permission: 'reader' },
      schema: { params: nameParams, response: { 200: layout } },
    },
    async (request) => repoLayouts.get(request.params.name),
  );

  app.post<{ Body: RepoLayout }>(
    BASE,
    {
      config: { permission: 'admin' },
      schema: { body: createBodySchema(entity), response: { 201: layout } },
    },
    async (request, reply) => {
      const created = await repoLayouts.create(request.body);
      request.log.info({ layout: created.name, by: request.principal.name }, 'layout created');
      return reply.status(201).send(created);
    },
  );

  app.put<NameParams & { Body: Partial<RepoLayout> }>(
    `${BASE}/:name`,
    {
      config: { permission: 'admin' },
      // The name is the path's; a body may repeat it but never change it.
      schema: {
        params: nameParams,
        body: updateBodySchema(entity),
        response: { 200: layout },
      },
    },
    async (request) => {
      const { name, ...patterns } = request.body;
      const current = await repoLayouts.get(request.params.name);
      if (name !== undefined && name !== current.name)
        throw new BadRequest(LAYOUT_MESSAGES.rename, 'name');
      return repoLayouts.update(current.name, { ...current, ...patterns });
    },
  );

  app.post<{ Body: { layoutNames: string[] } }>(
    `${BASE}/delete`,
    {
      config: { permission: 'admin' },
      schema: {
        body: {
          type: 'object',
          required: ['layoutNames'],
          additionalProperties: false,
          properties: {
            layoutNames: {
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
      await repoLayouts.deleteMany(request.body.layoutNames);
      request.log.info(
        { layouts: request.body.layoutNames, by: request.principal.name },
        'layouts deleted',
      );
      return { info: LAYOUT_MESSAGES.deleted(request.body.layoutNames.length) };
    },
  );
}
