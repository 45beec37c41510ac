import type { PermissionTarget } from '../access-control/permission-target.ts';
import type { RepositoryConfig } from '../repositories/service.ts';
import { DEFAULT_REPOSITORY_ENVIRONMENTS, type Environment } from './environments.ts';
import { PREDEFINED_ROLES, ROLE_TO_TARGET_ACTION, type ProjectRole } from './roles.ts';

/** A principal's membership of one project, with the custom roles the project defines. */
export interface Membership {
  projectKey: string;
  kind: 'user' | 'group';
  name: string;
  roles: string[];
  customRoles: ProjectRole[];
}

type Repo = Pick<RepositoryConfig, 'key' | 'projectKey' | 'sharedWithProjects' | 'environments'>;

/**
 * The permission targets a project membership amounts to, so that one decider judges both:
 * the roles' actions on the project's repositories, each role only on the repositories in
 * its environments, and read on repositories other projects share with it (sharing is
 * read-only, whatever the environment).
 */
export function projectTargets(
  memberships: Membership[],
  repos: readonly Repo[],
): PermissionTarget[] {
  return memberships.flatMap((member) => {
    const roles = [...PREDEFINED_ROLES, ...member.customRoles].filter((role) =>
      member.roles.includes(role.name),
    );
    const own = repos.filter((repo) => repo.projectKey === member.projectKey);
    const shared = repos
      .filter((repo) => repo.projectKey !== member.projectKey)
      .filter((repo) => repo.sharedWithProjects?.some((p) => p === member.projectKey || p === '*'))
      .map((r) => r.key);
    const principals = (granted: string[]) =>
      member.kind === 'user'
        ? { users: { [member.name]: granted }, groups: {} }
        : { users: {}, groups: { [member.name]: granted } };
    const target = (name: string, repositories: string[], granted: string[]) => ({
      name,
      repo: {
        repositories,
        'include-patterns': ['**'],
        'exclude-patterns': [],
        actions: principals(granted),
      },
    });
    const base = `project:${member.projectKey}`;
    return [
      ...[...reposByActions(own, roles)].map(([actions, keys]) =>
        target(`${base}:${actions}`, keys, actions.split(',')),
      ),
      ...(shared.length > 0 && targetActions(roles).length > 0
        ? [target(`${base}:shared`, shared, ['read'])]
        : []),
    ];
  });
}

/** The project's repositories grouped by what the roles grant on each (its environments). */
function reposByActions(own: readonly Repo[], roles: ProjectRole[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const repo of own) {
    const environments = repo.environments ?? DEFAULT_REPOSITORY_ENVIRONMENTS;
    const applying = roles.filter((role) =>
      role.environments.some((environment) => environments.includes(environment as Environment)),
    );
    const actions = targetActions(applying);
    if (actions.length === 0) continue;
    const key = actions.join(',');
    groups.set(key, [...(groups.get(key) ?? []), repo.key]);
  }
  return groups;
}

function targetActions(roles: ProjectRole[]): string[] {
  const actions = roles.flatMap((role) =>
    role.actions.flatMap((action) => ROLE_TO_TARGET_ACTION[action] ?? []),
  );
  return [...new Set(actions)].sort();
}
