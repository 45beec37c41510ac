import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import { ACCESS_MESSAGES as M } from './messages.ts';
import { presentSections, type PermissionTarget } from './permission-target.ts';
import { COUNTRIES } from './countries.ts';
import { permissionTargetBody } from './rest-routes.ts';

const admin = { permission: 'admin' as const };
const nameParams = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 128 } },
};
type NameParams = { Params: { name: string } };

/** One row of the permissions list (spec 01 §2 Permission screens). */
export interface PermissionTargetRow {
  name: string;
  repositories: string[];
  users: string[];
  groups: string[];
}

export interface PrincipalChoice {
  name: string;
  /** Admins may do everything already; the editor shows them but cannot add them. */
  admin: boolean;
}

function rowOf(target: PermissionTarget): PermissionTargetRow {
  const sections = presentSections(target);
  const names = (kind: 'users' | 'groups') =>
    [...new Set(sections.flatMap((section) => Object.keys(section.actions[kind])))].sort();
  return {
    name: target.name,
    repositories: target.repo?.repositories ?? [],
    users: names('users'),
    groups: names('groups'),
  };
}

/**
 * The permissions editor's calls (spec 01 §7 Permissions; docs/access-control.md), under
 * `/ui/api/v1`: search the targets, read, create, replace and delete them, and the users,
 * groups and repositories a target can name. Admins only.
 */
export async function permissionTargetConsoleRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { access } = services;

  app.post<{ Body: { searchStr?: string } }>(
    '/access/permissions/search',
    {
      config: admin,
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { searchStr: { type: 'string', maxLength: 256 } },
        },
      },
    },
    async (request) => {
      const term = (request.body?.searchStr ?? '').trim().toLowerCase();
      return (await access.list())
        .filter((target) => target.name.toLowerCase().includes(term))
        .map(rowOf);
    },
  );

  app.get<NameParams>(
    '/access/permissions/:name',
    { config: admin, schema: { params: nameParams } },
    (request) => access.get(request.params.name),
  );

  app.post<{ Body: PermissionTarget }>(
    '/access/permissions',
    { config: admin, schema: { body: permissionTargetBody } },
    async (request) => {
      const target = await access.create(request.body);
      request.log.info({ permissionTarget: target.name, by: request.principal.name }, 'created');
      return { info: `Permission target '${target.name}' was created successfully`, target };
    },
  );

  app.put<NameParams & { Body: PermissionTarget }>(
    '/access/permissions/:name',
    { config: admin, schema: { params: nameParams, body: permissionTargetBody } },
    async (request) => {
      await access.get(request.params.name); // 404 before anything is written
      const { target } = await access.put({ ...request.body, name: request.params.name });
      request.log.info({ permissionTarget: target.name, by: request.principal.name }, 'saved');
      return { info: `Permission target '${target.name}' was updated successfully`, target };
    },
  );

  app.post<{ Body: { names: string[] } }>(
    '/access/permissions/delete',
    {
      config: admin,
      schema: {
        body: {
          type: 'object',
          required: ['names'],
          additionalProperties: false,
          properties: {
            names: {
              type: 'array',
              minItems: 1,
              maxItems: 500,
              items: { type: 'string', minLength: 1, maxLength: 128 },
            },
          },
        },
      },
    },
    async (request) => {
      for (const name of request.body.names) await access.get(name); // all exist, or none go
      for (const name of request.body.names) await access.delete(name);
      request.log.info(
        { permissionTargets: request.body.names, by: request.principal.name },
        'deleted',
      );
      return { info: M.deletedMany(request.body.names.length) };
    },
  );

  // Spec 01 §3: the country list that feeds destination rules (name and two-letter code).
  app.get('/ui/permissiontargets/countries', { config: admin }, async () => COUNTRIES);

  app.get('/ui/permissiontargets/allUsersGroups', { config: admin }, async () => {
    const [users, groups] = await Promise.all([services.users.list(), services.groups.list()]);
    const adminGroups = new Set(groups.filter((g) => g.adminPrivileges).map((g) => g.name));
    return {
      users: users.map((user): PrincipalChoice => ({
        name: user.name,
        admin: user.admin || user.groups.some((group) => adminGroups.has(group)),
      })),
      groups: groups.map((group): PrincipalChoice => ({
        name: group.name,
        admin: group.adminPrivileges,
      })),
    };
  });

  app.get<{ Querystring: { permission?: string } }>('/ui/repodata', { config: admin }, async () =>
    (await services.repositories.list())
      // Targets name storage: never a virtual repository, nor the trash can's inside.
      .filter((repo) => repo.rclass !== 'virtual' && repo.key !== TRASH_REPO_KEY)
      .map((repo) => ({ repoKey: repo.key, repoType: repo.rclass, packageType: repo.packageType })),
  );
}
