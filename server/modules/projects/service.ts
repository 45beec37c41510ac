import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import { AUTH_MESSAGES } from '../auth/messages.ts';
import { ENVIRONMENTS, isEnvironment, unknownEnvironment } from './environments.ts';
import { PROJECT_MESSAGES as M } from './messages.ts';
import { projectUsedBytes } from './quota.ts';
import { customRolesOf, projectMembershipsOf } from './queries.ts';
import {
  PREDEFINED_ROLES,
  PROJECT_ADMIN_ROLE,
  ROLE_ACTIONS,
  type ProjectRole,
  type RoleAction,
} from './roles.ts';

/** A project in JFrog Access's JSON shape. */
export interface Project {
  project_key: string;
  display_name: string;
  description: string;
  admin_privileges: {
    manage_members: boolean;
    manage_resources: boolean;
    index_resources: boolean;
  };
  storage_quota_bytes: number | null;
}

export type MemberKind = 'user' | 'group';

/** A project's storage: -1 as the quota means none (spec 03 §8: shown as infinity). */
export interface ProjectStorage {
  projectKey: string;
  displayName: string;
  quotaBytes: number;
  usedBytes: number;
  repositories: Array<{
    repoKey: string;
    repoType: string;
    packageType: string;
    filesCount: number;
    usedSpace: number;
  }>;
}

/** Spec 03 §5: 3-10 lowercase letters and digits, starting with a letter; names up to 32. */
export function checkProjectKey(key: string): void {
  if (!/^[a-z]/.test(key)) throw new BadRequest(M.keyStart, 'project_key');
  if (!/^[a-z][a-z0-9]{2,9}$/.test(key)) throw new BadRequest(M.keyChars, 'project_key');
}

function checkDisplayName(name: string | undefined): void {
  if (!name?.trim()) throw new BadRequest(M.nameRequired, 'display_name');
  if (name.length > 32) throw new BadRequest(M.tooLong, 'display_name');
}

type ProjectRow = {
  key: string;
  display_name: string;
  description: string;
  storage_quota_bytes: string | null;
  manage_members: boolean;
  manage_resources: boolean;
  index_resources: boolean;
};

/** A projects row in JFrog Access's shape (the REST API and configuration as code). */
export const toProject = (row: ProjectRow): Project => ({
  project_key: row.key,
  display_name: row.display_name,
  description: row.description,
  admin_privileges: {
    manage_members: row.manage_members,
    manage_resources: row.manage_resources,
    index_resources: row.index_resources,
  },
  storage_quota_bytes: row.storage_quota_bytes === null ? null : Number(row.storage_quota_bytes),
});

/** Projects, their roles and members, and the repositories they own or share (docs/projects.md). */
export function createProjectsService(deps: {
  db: Database;
  repositories: RepositoriesService;
  /** DEPOT_PROJECTS_LIMIT: how many projects may exist. */
  limit: number;
  userExists: (name: string) => Promise<boolean>;
  groupExists: (name: string) => Promise<boolean>;
}) {
  const { db, repositories } = deps;

  const projectRow = (key: string) =>
    db.selectFrom('projects').selectAll().where('key', '=', key).executeTakeFirst();

  async function mustExist(key: string): Promise<ProjectRow> {
    const row = await projectRow(key);
    if (!row) throw new NotFound(M.notFound(key));
    return row;
  }

  const customRoles = (key: string) => customRolesOf(db, key);

  async function allRoles(key: string): Promise<ProjectRole[]> {
    return [...PREDEFINED_ROLES, ...(await customRoles(key))];
  }

  function checkRole(role: Partial<ProjectRole>): void {
    if (!role.name?.trim()) throw new BadRequest(M.nameRequired, 'name');
    if (role.name.length > 64) throw new BadRequest(M.tooLong, 'name');
    for (const action of role.actions ?? []) {
      if (!ROLE_ACTIONS.includes(action)) throw new BadRequest(M.unknownAction(action), 'actions');
    }
    const unknown = role.environments?.find((name) => !isEnvironment(name));
    if (unknown !== undefined) throw new BadRequest(unknownEnvironment(unknown), 'environments');
  }

  const membershipsOf = (user: string, groups: readonly string[]) =>
    projectMembershipsOf(db, user, groups);

  return {
    membershipsOf,

    async list(): Promise<Project[]> {
      return (await db.selectFrom('projects').selectAll().orderBy('key').execute()).map(toProject);
    },

    async get(key: string): Promise<Project> {
      return toProject(await mustExist(key));
    },

    limit: () => deps.limit,

    async create(input: Partial<Project>): Promise<Project> {
      const key = input.project_key ?? '';
      checkProjectKey(key);
      checkDisplayName(input.display_name);
      const [{ count }] = await db
        .selectFrom('projects')
        .select(sql<string>`count(*)`.as('count'))
        .execute();
      if (Number(count) >= deps.limit) throw new BadRequest(M.limitReached);
      try {
        await db
          .insertInto('projects')
          .values({
            key,
            display_name: input.display_name!.trim(),
            description: input.description ?? '',
            storage_quota_bytes: input.storage_quota_bytes ?? null,
            manage_members: input.admin_privileges?.manage_members ?? true,
            manage_resources: input.admin_privileges?.manage_resources ?? true,
            index_resources: input.admin_privileges?.index_resources ?? true,
          })
          .execute();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw (await projectRow(key))
          ? new Conflict(M.exists(key), 'project_key')
          : new Conflict(M.nameExists(input.display_name!), 'display_name');
      }
      return this.get(key);
    },

    async update(key: string, change: Partial<Project>): Promise<Project> {
      const current = toProject(await mustExist(key));
      if (change.display_name !== undefined) checkDisplayName(change.display_name);
      const privileges = { ...current.admin_privileges, ...change.admin_privileges };
      try {
        await db
          .updateTable('projects')
          .set({
            display_name: change.display_name?.trim(),
            description: change.description,
            storage_quota_bytes:
              change.storage_quota_bytes === undefined ? undefined : change.storage_quota_bytes,
            ...privileges,
          })
          .where('key', '=', key)
          .execute();
      } catch (error) {
        if (isUniqueViolation(error))
          throw new Conflict(M.nameExists(change.display_name!), 'display_name');
        throw error;
      }
      return this.get(key);
    },

    async delete(key: string): Promise<void> {
      await mustExist(key);
      const owned = (await repositories.list()).filter((repo) => repo.projectKey === key);
      if (owned.length > 0) throw new Conflict(M.hasRepositories(key));
      await db.deleteFrom('projects').where('key', '=', key).execute();
    },

    roles: async (key: string) => {
      await mustExist(key);
      return allRoles(key);
    },

    async createRole(key: string, role: Partial<ProjectRole>): Promise<ProjectRole> {
      await mustExist(key);
      checkRole(role);
      if ((await allRoles(key)).some((r) => r.name === role.name))
        throw new Conflict(M.roleExists(role.name!), 'name');
      await db
        .insertInto('project_roles')
        .values({
          project_key: key,
          name: role.name!,
          description: role.description ?? '',
          actions: JSON.stringify(role.actions ?? []),
          environments: JSON.stringify(role.environments ?? ENVIRONMENTS),
        })
        .execute();
      return (await allRoles(key)).find((r) => r.name === role.name)!;
    },

    async updateRole(key: string, name: string, role: Partial<ProjectRole>): Promise<ProjectRole> {
      await mustExist(key);
      if (PREDEFINED_ROLES.some((r) => r.name === name))
        throw new BadRequest(M.predefinedRole(name));
      const current = (await customRoles(key)).find((r) => r.name === name);
      if (!current) throw new NotFound(M.roleNotFound(name));
      const next = { ...current, ...role, name };
      checkRole(next);
      await db
        .updateTable('project_roles')
        .set({
          description: next.description,
          actions: JSON.stringify(next.actions),
          environments: JSON.stringify(next.environments),
        })
        .where('project_key', '=', key)
        .where('name', '=', name)
        .execute();
      return next;
    },

    /** Deletes a custom role, and takes it from every member who had it. */
    async deleteRole(key: string, name: string): Promise<void> {
      await mustExist(key);
      if (PREDEFINED_ROLES.some((r) => r.name === name))
        throw new BadRequest(M.predefinedRole(name));
      const removed = await db
        .deleteFrom('project_roles')
        .where('project_key', '=', key)
        .where('name', '=', name)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) throw new NotFound(M.roleNotFound(name));
      const members = await db
        .selectFrom('project_members')
        .selectAll()
        .where('project_key', '=', key)
        .execute();
      for (const member of members.filter((m) => m.roles.includes(name))) {
        await db
          .updateTable('project_members')
          .set({ roles: JSON.stringify(member.roles.filter((r) => r !== name)) })
          .where('project_key', '=', key)
          .where('kind', '=', member.kind)
          .where('name', '=', member.name)
          .execute();
      }
    },

    async members(key: string, kind: MemberKind) {
      await mustExist(key);
      const rows = await db
        .selectFrom('project_members')
        .select(['name', 'roles'])
        .where('project_key', '=', key)
        .where('kind', '=', kind)
        .orderBy('name')
        .execute();
      return rows.map((r) => ({ name: r.name, roles: r.roles }));
    },

    /** Adds a member or replaces its roles; the user or group and every role must exist. */
    async putMember(key: string, kind: MemberKind, name: string, roles: string[]) {
      await mustExist(key);
      const exists = kind === 'user' ? await deps.userExists(name) : await deps.groupExists(name);
      if (!exists) throw new NotFound(M.unknownMember(kind, name));
      const known = new Set((await allRoles(key)).map((r) => r.name));
      const unknown = roles.find((role) => !known.has(role));
      if (unknown) throw new BadRequest(M.roleNotFound(unknown), 'roles');
      await db
        .insertInto('project_members')
        .values({ project_key: key, kind, name, roles: JSON.stringify([...new Set(roles)]) })
        .onConflict((c) =>
          c
            .columns(['project_key', 'kind', 'name'])
            .doUpdateSet({ roles: JSON.stringify([...new Set(roles)]) }),
        )
        .execute();
      return { name, roles: [...new Set(roles)] };
    },

    async deleteMember(key: string, kind: MemberKind, name: string): Promise<void> {
      await mustExist(key);
      const removed = await db
        .deleteFrom('project_members')
        .where('project_key', '=', key)
        .where('kind', '=', kind)
        .where('name', '=', name)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) throw new NotFound(M.unknownMember(kind, name));
    },

    /**
     * Whether the caller may manage the project's members or resources: an admin, or a member
     * holding the Project Admin role (or a custom role with the action) while the project
     * lets its admins do so.
     */
    async canManage(
      principal: Principal,
      key: string,
      what: 'members' | 'resources',
    ): Promise<boolean> {
      if (principal.admin) return true;
      if (principal.anonymous) return false;
      const project = await projectRow(key);
      if (!project) return false;
      if (what === 'members' ? !project.manage_members : !project.manage_resources) return false;
      const action: RoleAction = what === 'members' ? 'MANAGE_MEMBERS' : 'MANAGE_RESOURCES';
      const memberships = (
        await membershipsOf(principal.name, principal.groups ?? (await groupsOf(principal)))
      ).filter((m) => m.projectKey === key);
      return memberships.some((m) =>
        [...PREDEFINED_ROLES, ...m.customRoles].some(
          (role) => m.roles.includes(role.name) && role.actions.includes(action),
        ),
      );
    },

    async requireManager(principal: Principal, key: string, what: 'members' | 'resources') {
      await mustExist(key);
      if (!(await this.canManage(principal, key, what))) throw new Forbidden(M.notManager);
    },

    /**
     * Admins manage every repository; a project admin those of the project whose key is
     * given. Anyone else is refused, as repository management was once admin-only.
     */
    async requireRepositoryManager(principal: Principal, projectKey: string | undefined) {
      if (principal.admin) return;
      if (!projectKey) throw new Forbidden(AUTH_MESSAGES.notAuthorized);
      await this.requireManager(principal, projectKey, 'resources');
    },

    /** The keys of the projects a user administers (the console's project selector). */
    async administeredBy(principal: Principal): Promise<string[]> {
      if (principal.admin) return (await this.list()).map((p) => p.project_key);
      const memberships = await membershipsOf(
        principal.name,
        principal.groups ?? (await groupsOf(principal)),
      );
      return [
        ...new Set(
          memberships.filter((m) => m.roles.includes(PROJECT_ADMIN_ROLE)).map((m) => m.projectKey),
        ),
      ];
    },

    async assignRepository(repoKey: string, key: string): Promise<void> {
      await mustExist(key);
      const repo = await repositories.get(repoKey);
      if (repo.projectKey && repo.projectKey !== key)
        throw new Conflict(M.alreadyAssigned(repo.key, repo.projectKey));
      await repositories.update(repo.key, { projectKey: key });
    },

    async unassignRepository(repoKey: string): Promise<string | undefined> {
      const repo = await repositories.get(repoKey);
      // An explicit undefined drops the field from the stored configuration.
      await repositories.update(repo.key, { projectKey: undefined });
      return repo.projectKey;
    },

    /** What a project stores: its quota, the bytes used, and each of its repositories' share. */
    async storage(key: string): Promise<ProjectStorage> {
      const project = toProject(await mustExist(key));
      const rows = await db
        .selectFrom('repositories')
        .leftJoin('nodes', (join) =>
          join.onRef('nodes.repository_id', '=', 'repositories.id').on('nodes.folder', '=', false),
        )
        .select([
          'repositories.key',
          'repositories.rclass',
          'repositories.package_type',
          sql<string>`count(nodes.id)`.as('files'),
          sql<string>`coalesce(sum(nodes.size), 0)`.as('bytes'),
        ])
        .where(sql`repositories.config->>'projectKey'`, '=', key)
        .groupBy(['repositories.key', 'repositories.rclass', 'repositories.package_type'])
        .orderBy('repositories.key')
        .execute();
      const repos = rows.map((row) => ({
        repoKey: row.key,
        repoType: row.rclass.toUpperCase(),
        packageType: row.package_type,
        filesCount: Number(row.files),
        usedSpace: Number(row.bytes),
      }));
      return {
        projectKey: key,
        displayName: project.display_name,
        quotaBytes: project.storage_quota_bytes ?? -1,
        // Each content once, as the quota counts it; a repository's share counts its files.
        usedBytes: await projectUsedBytes(db, key),
        repositories: repos,
      };
    },

    /** Shares a repository read-only with a project, or with all of them ('*'). */
    async shareRepository(repoKey: string, target: string, shared: boolean): Promise<void> {
      if (target !== '*') await mustExist(target);
      const repo = await repositories.get(repoKey);
      const current = new Set(repo.sharedWithProjects ?? []);
      if (shared) current.add(target);
      else current.delete(target);
      await repositories.update(repo.key, { sharedWithProjects: [...current].sort() });
    },
  };

  async function groupsOf(principal: Principal): Promise<string[]> {
    if (principal.userId === undefined) return [];
    const rows = await db
      .selectFrom('user_groups')
      .innerJoin('groups', 'groups.id', 'user_groups.group_id')
      .select('groups.name')
      .where('user_groups.user_id', '=', principal.userId)
      .execute();
    return rows.map((r) => r.name);
  }
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
