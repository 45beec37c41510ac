import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Forbidden } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { PROJECT_MESSAGES as M } from './messages.ts';
import type { MemberKind, Project } from './service.ts';
import type { ProjectRole } from './roles.ts';
import { projectBody, roleBody } from './body-schemas.ts';
import { ENVIRONMENTS } from './environments.ts';

const BASE = '/access/api/v1/projects';
const admin = { permission: 'admin' as const };
const user = { permission: 'user' as const };

const name = { type: 'string', minLength: 1, maxLength: 64 };
const memberBody = {
  type: 'object',
  additionalProperties: false,
  required: ['roles'],
  properties: {
    name,
    roles: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 64 } },
  },
};
const params = (...keys: string[]) => ({
  type: 'object',
  required: keys,
  properties: Object.fromEntries(keys.map((key) => [key, name])),
});

type P<T extends string> = { Params: Record<T, string> };

/**
 * Projects in JFrog Access's REST shape (spec 03 §2 Projects; docs/projects.md). Admins do
 * everything; a project admin manages the members, roles and repositories of that project.
 */
export async function projectRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { projects } = services;
  const manager = (request: FastifyRequest, key: string, what: 'members' | 'resources') =>
    projects.requireManager(request.principal, key, what);

  // JFrog Access's environments call: the environments a repository or role may name.
  app.get('/access/api/v1/environments', { config: user }, async () =>
    ENVIRONMENTS.map((name) => ({ name })),
  );

  app.get(BASE, { config: user }, async (request) => {
    const visible = new Set(await projects.administeredBy(request.principal));
    return (await projects.list()).filter((p) => visible.has(p.project_key));
  });

  app.post<{ Body: Partial<Project> }>(
    BASE,
    { config: admin, schema: { body: projectBody } },
    async (request, reply) => {
      const created = await projects.create(request.body);
      request.log.info(
        { project: created.project_key, by: request.principal.name },
        'project created',
      );
      return reply.status(201).send(created);
    },
  );

  app.get<P<'key'>>(
    `${BASE}/:key`,
    { config: user, schema: { params: params('key') } },
    async (request) => {
      await manager(request, request.params.key, 'members');
      return projects.get(request.params.key);
    },
  );

  app.put<P<'key'> & { Body: Partial<Project> }>(
    `${BASE}/:key`,
    { config: admin, schema: { params: params('key'), body: projectBody } },
    async (request) => projects.update(request.params.key, request.body),
  );

  app.delete<P<'key'>>(
    `${BASE}/:key`,
    { config: admin, schema: { params: params('key') } },
    async (request, reply) => {
      await projects.delete(request.params.key);
      return reply.status(204).send();
    },
  );

  // Not in JFrog's API; the console's project Storage page reads it (docs/projects.md).
  app.get<P<'key'>>(
    `${BASE}/:key/storage`,
    { config: user, schema: { params: params('key') } },
    async (request) => {
      await manager(request, request.params.key, 'resources');
      return projects.storage(request.params.key);
    },
  );

  registerMemberRoutes(app, services, manager);
  registerRoleRoutes(app, services, manager);
  registerRepositoryRoutes(app, services, manager);
}

type Manager = (
  request: FastifyRequest,
  key: string,
  what: 'members' | 'resources',
) => Promise<void>;

function registerMemberRoutes(app: FastifyInstance, { projects }: Services, manager: Manager) {
  for (const [segment, kind] of [
    ['users', 'user'],
    ['groups', 'group'],
  ] as const satisfies ReadonlyArray<readonly [string, MemberKind]>) {
    app.get<P<'key'>>(
      `${BASE}/:key/${segment}`,
      { config: user, schema: { params: params('key') } },
      async (request) => {
        await manager(request, request.params.key, 'members');
        return { members: await projects.members(request.params.key, kind) };
      },
    );
    app.put<P<'key' | 'name'> & { Body: { roles: string[] } }>(
      `${BASE}/:key/${segment}/:name`,
      { config: user, schema: { params: params('key', 'name'), body: memberBody } },
      async (request) => {
        await manager(request, request.params.key, 'members');
        return projects.putMember(
          request.params.key,
          kind,
          request.params.name,
          request.body.roles,
        );
      },
    );
    app.delete<P<'key' | 'name'>>(
      `${BASE}/:key/${segment}/:name`,
      { config: user, schema: { params: params('key', 'name') } },
      async (request, reply) => {
        await manager(request, request.params.key, 'members');
        await projects.deleteMember(request.params.key, kind, request.params.name);
        return reply.status(204).send();
      },
    );
  }
}

function registerRoleRoutes(app: FastifyInstance, { projects }: Services, manager: Manager) {
  app.get<P<'key'>>(
    `${BASE}/:key/roles`,
    { config: user, schema: { params: params('key') } },
    async (request) => {
      await manager(request, request.params.key, 'members');
      return projects.roles(request.params.key);
    },
  );
  app.post<P<'key'> & { Body: Partial<ProjectRole> }>(
    `${BASE}/:key/roles`,
    { config: user, schema: { params: params('key'), body: roleBody } },
    async (request, reply) => {
      await manager(request, request.params.key, 'members');
      return reply.status(201).send(await projects.createRole(request.params.key, request.body));
    },
  );
  app.put<P<'key' | 'name'> & { Body: Partial<ProjectRole> }>(
    `${BASE}/:key/roles/:name`,
    { config: user, schema: { params: params('key', 'name'), body: roleBody } },
    async (request) => {
      await manager(request, request.params.key, 'members');
      return projects.updateRole(request.params.key, request.params.name, request.body);
    },
  );
  app.delete<P<'key' | 'name'>>(
    `${BASE}/:key/roles/:name`,
    { config: user, schema: { params: params('key', 'name') } },
    async (request, reply) => {
      await manager(request, request.params.key, 'members');
      await projects.deleteRole(request.params.key, request.params.name);
      return reply.status(204).send();
    },
  );
}

function registerRepositoryRoutes(app: FastifyInstance, services: Services, manager: Manager) {
  const { projects, repositories } = services;
  /** Who may act on a repository's project ties: an admin, or its current project's manager. */
  async function ownsRepository(request: FastifyRequest, repoKey: string) {
    const repo = await repositories.get(repoKey);
    if (request.principal.admin) return repo;
    if (!repo.projectKey) throw new Forbidden(M.notManager);
    await manager(request, repo.projectKey, 'resources');
    return repo;
  }

  app.put<P<'repo' | 'key'>>(
    `${BASE}/_/attach/repositories/:repo/:key`,
    { config: user, schema: { params: params('repo', 'key') } },
    async (request) => {
      // Taking a repository into a project is an admin's call: it may hold others' artifacts.
      if (!request.principal.admin) throw new Forbidden(M.notManager);
      await projects.assignRepository(request.params.repo, request.params.key);
      return { info: M.assigned(request.params.repo, request.params.key) };
    },
  );
  app.delete<P<'repo'>>(
    `${BASE}/_/attach/repositories/:repo`,
    { config: user, schema: { params: params('repo') } },
    async (request) => {
      const repo = await ownsRepository(request, request.params.repo);
      await projects.unassignRepository(repo.key);
      return { info: M.unassigned(repo.key, repo.projectKey ?? '') };
    },
  );
  for (const [method, shared] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route<P<'repo' | 'target'>>({
      method,
      url: `${BASE}/_/share/repositories/:repo/:target`,
      config: user,
      schema: { params: params('repo', 'target') },
      handler: async (request) => {
        const repo = await ownsRepository(request, request.params.repo);
        await projects.shareRepository(repo.key, request.params.target, shared);
        return repositories.get(repo.key);
      },
    });
  }
}

/**
 * The console's project calls under /ui/api/v1 (spec 01 §7 Projects: /projects/limit): how
 * many projects may exist and how many do, so the create page can say so before a try.
 */
export async function projectConsoleRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  app.get('/projects/limit', { config: admin }, async () => ({
    limit: services.projects.limit(),
    count: (await services.projects.list()).length,
  }));
}
