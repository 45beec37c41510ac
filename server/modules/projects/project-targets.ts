import type { PermissionTarget } from '../access-control/permission-target.ts';
import type { RepositoryConfig } from '../repositories/service.ts';
import { PREDEFINED_ROLES, ROLE_TO_TARGET_ACTION, type ProjectRole } from './roles.ts';

/** A principal's membership of one project, with the custom roles the project defines. */
export interface Membership {
  projectKey: string;
  kind: 'user' | 'group';
  name: string;
  roles: string[];
  customRoles: ProjectRole[];
}

type Repo = Pick<RepositoryConfig, 'key' | 'projectKey' | 'sharedWithProjects'>;

/**
 * The permission targets a project membership amounts to, so that one decider judges both:
 * the roles' actions on the project's repositories, and read on repositories other projects
 * share with it (sharing is read-only).
 */
export function projectTargets(
  memberships: Membership[],
  repos: readonly Repo[],
): PermissionTarget[] {
  return memberships.flatMap((member) => {
    const roles = [...PREDEFINED_ROLES, ...member.customRoles].filter((role) =>
      member.roles.includes(role.name),
    );
    const actions = [
      ...new Set(
        roles.flatMap((role) => role.actions.flatMap((a) => ROLE_TO_TARGET_ACTION[a] ?? [])),
      ),
    ];
    const own = repos.filter((repo) => repo.projectKey === member.projectKey).map((r) => r.key);
    const shared = repos
      .filter((repo) => repo.projectKey !== member.projectKey)
      .filter((repo) => repo.sharedWithProjects?.some((p) => p === member.projectKey || p === '*'))
      .map((r) => r.key);
    const principals = (granted: string[]) =>
      member.kind === 'user'
        ? { users: { [member.name]: granted }, groups: {} }
        : { users: {}, groups: { [member.name]: granted } };
    const section = (repositories: string[], granted: string[]) => ({
      repositories,
      'include-patterns': ['**'],
      'exclude-patterns': [],
      actions: principals(granted),
    });
    return [
      ...(own.length > 0 && actions.length > 0
        ? [{ name: `project:${member.projectKey}`, repo: section(own, actions) }]
        : []),
      ...(shared.length > 0 && actions.length > 0
        ? [{ name: `project:${member.projectKey}:shared`, repo: section(shared, ['read']) }]
        : []),
    ];
  });
}
