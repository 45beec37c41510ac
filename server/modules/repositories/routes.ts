import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest, Forbidden } from '../../errors.ts';
import { PROJECT_MESSAGES } from '../projects/messages.ts';
import { createBodySchema, updateBodySchema, type JsonSchema } from '../../schemas/registry.ts';
import type { Services } from '../../services.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import { REPO_MESSAGES } from './messages.ts';
import type { RepositoryClass, RepositoryConfig } from './service.ts';

const BASE = '/artifactory/api/repositories';
const keyParams = {
  type: 'object',
  required: ['key'],
  properties: { key: { type: 'string', minLength: 1, maxLength: 64 } },
};
const listQuery = {
  type: 'object',
  properties: {
    type: { type: 'string', maxLength: 16 },
    packageType: { type: 'string', maxLength: 32 },
  },
};
type KeyParams = { Params: { key: string } };

const withoutRequiredKey = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  required: (schema.required ?? []).filter((field) => field !== 'key'),
});

function keyFromPath(key: string, body: Partial<RepositoryConfig>): RepositoryConfig {
  if (body.key !== undefined && body.key !== key) {
    throw new BadRequest(
      `The key in the body ('${body.key}') differs from the path ('${key}')`,
      'key',
    );
  }
  return { ...body, key } as RepositoryConfig;
}

const repositoryUrl = (request: FastifyRequest, key: string) =>
  `${request.protocol}://${request.host}/artifactory/${encodeURIComponent(key)}`;

/** Repositories on the scripted REST API, in Artifactory's JSON shapes. */
export async function repositoriesRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  /** Admins manage every repository; a project admin those of the project (docs/projects.md). */
  const requireRepositoryManager = (request: FastifyRequest, projectKey?: string) =>
    services.projects.requireRepositoryManager(request.principal, projectKey);

  const { repositories } = services;
  const entity = services.schemas.entities.get('repository')!;
  const newKeyParams = { ...keyParams, properties: { key: entity.properties!.key } };

  app.get<{ Querystring: { type?: string; packageType?: string } }>(
    BASE,
    { config: { permission: 'reader' }, schema: { querystring: listQuery } },
    async (request) => {
      const rclass = request.query.type?.toLowerCase();
      if (rclass && !['local', 'remote', 'virtual'].includes(rclass)) {
        throw new BadRequest(REPO_MESSAGES.unsupportedType, 'type');
      }
      const list = await repositories.list({
        rclass: rclass as RepositoryClass,
        packageType: request.query.packageType,
      });
      // The trash can is a repository inside, not one scripts configure; callers see the
      // repositories they may read something in.
      const access = await services.access.forPrincipal(request.principal);
      return list
        .filter((repo) => repo.key !== TRASH_REPO_KEY)
        .filter((repo) => access.can('read', repo.key, '', 'folder'))
        .map((repo) => ({
          key: repo.key,
          type: repo.rclass.toUpperCase(),
          description: repo.description,
          url: repo.rclass === 'remote' ? repo.url : repositoryUrl(request, repo.key),
          packageType: repo.packageType,
        }));
    },
  );

  app.get<KeyParams>(
    `${BASE}/:key`,
    { config: { permission: 'reader' }, schema: { params: keyParams } },
    async (request) => {
      await services.access.require(request.principal, 'read', request.params.key, '', 'folder');
      return repositories.get(request.params.key);
    },
  );

  app.put<KeyParams & { Body: Partial<RepositoryConfig> }>(
    `${BASE}/:key`,
    {
      // Admins, and project admins for their project's repositories (checked below).
      config: { permission: 'user' },
      // A new key must follow the key rules; other calls only look one up.
      schema: { params: newKeyParams, body: withoutRequiredKey(createBodySchema(entity)) },
    },
    async (request, reply) => {
      await requireRepositoryManager(request, request.body.projectKey);
      const created = await repositories.create(keyFromPath(request.params.key, request.body));
      request.log.info(
        { repository: created.key, by: request.principal.name },
        'repository created',
      );
      return reply
        .status(200)
        .type('text/plain')
        .send(`Successfully created repository '${created.key}'`);
    },
  );

  app.post<KeyParams & { Body: Partial<RepositoryConfig> }>(
    `${BASE}/:key`,
    {
      config: { permission: 'user' },
      schema: { params: keyParams, body: updateBodySchema(entity) },
    },
    async (request, reply) => {
      const current = await repositories.get(request.params.key);
      await requireRepositoryManager(request, current.projectKey);
      // Moving a repository between projects goes through the projects API.
      if (!request.principal.admin && request.body.projectKey !== undefined) {
        if (request.body.projectKey !== current.projectKey)
          throw new Forbidden(PROJECT_MESSAGES.notManager);
      }
      const updated = await repositories.update(request.params.key, request.body);
      return reply.type('text/plain').send(`Repository '${updated.key}' update successful.`);
    },
  );

  app.delete<KeyParams>(
    `${BASE}/:key`,
    { config: { permission: 'user' }, schema: { params: keyParams } },
    async (request, reply) => {
      await requireRepositoryManager(
        request,
        (await repositories.get(request.params.key)).projectKey,
      );
      await repositories.delete(request.params.key, request.principal.name);
      request.log.info(
        { repository: request.params.key, by: request.principal.name },
        'repository deleted',
      );
      return reply.type('text/plain').send(REPO_MESSAGES.removed(request.params.key));
    },
  );
}
