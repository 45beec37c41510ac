import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import { ACCESS_MESSAGES as M } from './messages.ts';
import { presentSections, type PermissionTarget } from './permission-target.ts';
import { COUNTRIES } from './countries.ts';
import { lockedRows, managerChangeProblem } from './managers.ts';
import { Forbidden } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import { permissionTargetBody } from './rest-routes.ts';

const admin = { permission: 'admin' as const };
/** Admins, and users who manage a target: each route narrows to what the caller manages. */
const signedIn = { permission: 'user' as const };
const nameParams = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 128 } },
};
type NameParams = { Params: { name: string } };

/**
 * A target as the editor gets it. For a manager who is not an admin, the rows that are
 * theirs (spec 01 §3 isLoggedInAsManager): not editable, and neither are the resources.
 */
export type EditorTarget = PermissionTarget & {
  loggedInAsManager?: { users: string[]; groups: string[] };
};

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
 * groups and repositories a target can name. Admins may do all of it; a user who manages a
 * target (spec 01 §6) may open it and change the other principals' actions in it.
 */
export async function permissionTargetConsoleRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { access } = services;

  app.post<{ Body: { searchStr?: string } }>(
    '/access/permissions/search',
    {
      config: signedIn,
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
      return (await access.managedBy(request.principal))
        .filter((target) => target.name.toLowerCase().includes(term))
        .map(rowOf);
    },
  );

  app.get<NameParams>(
    '/access/permissions/:name',
    { config: signedIn, schema: { params: nameParams } },
    async (request): Promise<EditorTarget> => {
      const { principal } = request;
      if (principal.admin) return access.get(request.params.name);
      const target = await managedTarget(principal, request.params.name);
      return { ...target, loggedInAsManager: lockedRows(await access.grantee(principal)) };
    },
  );

  app.post<{ Body: PermissionTarget }>(
    '/access/permissions',
    { config: admin, schema: { body: permissionTargetBody } },
    async (request) => {
      const target = await access.create(request.body);
      request.log.info({ permissionTarget: target.name, by: request.principal.name }, 'created');
      return { info: M.created(target.name), target };
    },
  );

  app.put<NameParams & { Body: PermissionTarget }>(
    '/access/permissions/:name',
    { config: signedIn, schema: { params: nameParams, body: permissionTargetBody } },
    async (request) => {
      const { principal } = request;
      const name = request.params.name;
      const proposed = { ...request.body, name };
      // 404 (403 for a manager) before anything is written.
      if (principal.admin) await access.get(name);
      const managerCheck = principal.admin ? undefined : await managerChangeCheck(principal, name);
      const { target } = await access.put(proposed, managerCheck);
      request.log.info({ permissionTarget: target.name, by: request.principal.name }, 'saved');
      return { info: M.updated(target.name), target };
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
  app.get('/ui/permissiontargets/countries', { config: signedIn }, async () => COUNTRIES);

  app.get('/ui/permissiontargets/allUsersGroups', { config: signedIn }, async (request) => {
    await requireManager(request.principal);
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

  app.get<{ Querystring: { permission?: string } }>(
    '/ui/repodata',
    { config: signedIn },
    async (request) => {
      // A manager sees the repositories their targets name: all they cannot change anyway.
      const managed = await requireManager(request.principal);
      const named = managed && new Set(managed.flatMap((t) => t.repo?.repositories ?? []));
      return (
        (await services.repositories.list())
          // Targets name storage: never a virtual repository, nor the trash can's inside.
          .filter((repo) => repo.rclass !== 'virtual' && repo.key !== TRASH_REPO_KEY)
          .filter((repo) => !named || named.has(repo.key))
          .map((repo) => ({
            repoKey: repo.key,
            repoType: repo.rclass,
            packageType: repo.packageType,
          }))
      );
    },
  );

  /** A target the caller manages; 403 alike for one they do not manage and one not there. */
  async function managedTarget(principal: Principal, name: string): Promise<PermissionTarget> {
    const target = (await access.managedBy(principal)).find((t) => t.name === name);
    if (!target) throw new Forbidden(M.notManaged(name));
    return target;
  }

  /** The targets a non-admin manages (403 when none); undefined for an admin, who has all. */
  async function requireManager(principal: Principal): Promise<PermissionTarget[] | undefined> {
    if (principal.admin) return undefined;
    const managed = await access.managedBy(principal);
    if (managed.length === 0) throw new Forbidden(M.notAManager);
    return managed;
  }

  /**
   * For a manager's save: the check that it changes other principals' actions only (spec 01
   * §6), run on the target as it would be stored.
   */
  async function managerChangeCheck(principal: Principal, name: string) {
    const stored = await managedTarget(principal, name);
    const who = await access.grantee(principal);
    return (checked: PermissionTarget) => {
      const problem = managerChangeProblem(stored, checked, who);
      if (problem === 'resources') throw new Forbidden(M.managerResources(name));
      if (problem === 'own-rows') throw new Forbidden(M.managerOwnRows(name));
    };
  }
}
