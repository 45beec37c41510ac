import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Membership } from './project-targets.ts';
import type { ProjectRole, RoleAction } from './roles.ts';

/** A project's custom roles (the predefined ones live in code). */
export async function customRolesOf(db: Database, key: string): Promise<ProjectRole[]> {
  const rows = await db
    .selectFrom('project_roles')
    .selectAll()
    .where('project_key', '=', key)
    .orderBy('name')
    .execute();
  return rows.map((r) => ({
    name: r.name,
    description: r.description,
    type: 'CUSTOM' as const,
    environments: r.environments,
    actions: r.actions as RoleAction[],
  }));
}

/** The memberships of a user (by name or through groups), with their projects' custom roles. */
export async function projectMembershipsOf(
  db: Database,
  user: string,
  groups: readonly string[],
): Promise<Membership[]> {
  if (!user && groups.length === 0) return [];
  const rows = await db
    .selectFrom('project_members')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'user'), eb(sql`lower(name)`, '=', user.toLowerCase())]),
        ...(groups.length > 0
          ? [eb.and([eb('kind', '=', 'group'), eb('name', 'in', [...groups])])]
          : []),
      ]),
    )
    .execute();
  const keys = [...new Set(rows.map((r) => r.project_key))];
  const custom = new Map(
    await Promise.all(keys.map(async (k) => [k, await customRolesOf(db, k)] as const)),
  );
  return rows.map((r) => ({
    projectKey: r.project_key,
    kind: r.kind,
    name: r.name,
    roles: r.roles,
    customRoles: custom.get(r.project_key) ?? [],
  }));
}
