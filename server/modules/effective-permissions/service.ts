import type { AccessService } from '../access-control/service.ts';
import { sectionActions, sectionReaches } from '../access-control/grants.ts';
import type { RepoAction } from '../access-control/decider.ts';
import { buildDeciderFrom, type JudgedBuild } from '../access-control/build-decider.ts';
import type { PermissionSection } from '../access-control/permission-target.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import type { GroupsService } from '../groups/service.ts';
import type { SecurityConfigService } from '../security-config/service.ts';
import { locateNode } from '../tree-browser/locate-node.ts';
import type { UsersService } from '../users/service.ts';

/** Spec 01 §3 permission actions, as the Effective Permissions tab shows them. */
export type EffectiveActions = Record<RepoAction, boolean>;
export interface EffectivePermission {
  principal: string;
  type: 'user' | 'group';
  actions: EffectiveActions;
}
export interface EffectivePermissionsPage {
  totalCount: number;
  pageNum: number;
  numOfRows: number;
  data: EffectivePermission[];
}
export interface PermissionsQuery {
  pageNum: number;
  numOfRows: number;
  direction: 'asc' | 'desc';
}

const EVERYTHING: EffectiveActions = {
  read: true,
  annotate: true,
  deploy: true,
  delete: true,
  manage: true,
};
const ANONYMOUS = 'anonymous';

const asFlags = (actions: Set<RepoAction>): EffectiveActions => ({
  read: actions.has('read'),
  annotate: actions.has('annotate'),
  deploy: actions.has('deploy'),
  delete: actions.has('delete'),
  manage: actions.has('manage'),
});

interface Deps {
  artifacts: ArtifactsService;
  users: UsersService;
  groups: GroupsService;
  securityConfig: SecurityConfigService;
  access: AccessService;
}

/**
 * Who may do what on a node (the tree's Effective Permissions tab): administrators (users
 * flagged admin, members of admin groups, and those groups) everything; every other user
 * and group what the permission targets reaching the node grant them, a user's own grants
 * and its groups' together; the anonymous user while anonymous access is on. Principals
 * granted nothing there are left out.
 */
export function createEffectivePermissionsService(deps: Deps) {
  return {
    async forNode(
      repoKey: string,
      path: string,
      query: PermissionsQuery,
    ): Promise<EffectivePermissionsPage> {
      const node = await locateNode(deps.artifacts, repoKey, path); // 404 when not there
      const kind = node.type === 'file' ? 'file' : 'folder';
      const targets = await deps.access.list();
      const sections = targets
        .flatMap((target) => (target.repo ? [target.repo] : []))
        .filter((section) => sectionReaches(section, node.repo, node.path, kind));
      return paged(
        await principals(deps, (name, groups) => granted(sections, name, groups)),
        query,
      );
    },

    /**
     * The build's Effective Permissions tab (spec 02 §7 `buildEffectivePermission`): who may
     * do what on one build by the permission targets' build sections (docs/builds.md), with
     * the same rules for administrators and anonymous as a node's.
     */
    async forBuild(build: JudgedBuild, query: PermissionsQuery): Promise<EffectivePermissionsPage> {
      const targets = await deps.access.list();
      const grantedOnBuild = (name: string, groups: string[]) => {
        const decider = buildDeciderFrom(targets, { name, groups });
        return new Set(BUILD_ACTIONS.filter((action) => decider.can(action, build)));
      };
      return paged(await principals(deps, grantedOnBuild), query);
    },
  };
}

const BUILD_ACTIONS: RepoAction[] = ['read', 'annotate', 'deploy', 'delete', 'manage'];

function paged(all: EffectivePermission[], query: PermissionsQuery): EffectivePermissionsPage {
  all.sort((a, b) => a.principal.localeCompare(b.principal, 'en'));
  if (query.direction === 'desc') all.reverse();
  const start = (query.pageNum - 1) * query.numOfRows;
  return {
    totalCount: all.length,
    pageNum: query.pageNum,
    numOfRows: query.numOfRows,
    data: all.slice(start, start + query.numOfRows),
  };
}

/** What the sections reaching the node grant one principal, in all. */
function granted(sections: PermissionSection[], name: string, groups: string[]) {
  const actions = new Set<RepoAction>();
  for (const section of sections)
    for (const action of sectionActions(section, { name, groups })) actions.add(action);
  return actions;
}

type GrantedTo = (name: string, groups: string[]) => Set<RepoAction>;

async function principals(deps: Deps, grantedTo: GrantedTo): Promise<EffectivePermission[]> {
  const [users, groups, security] = await Promise.all([
    deps.users.list(),
    deps.groups.list(),
    deps.securityConfig.get(),
  ]);
  const adminGroups = new Set(groups.filter((g) => g.adminPrivileges).map((g) => g.name));
  const rows: EffectivePermission[] = [];
  for (const user of users) {
    if (user.name === ANONYMOUS) continue;
    const admin = user.admin || user.groups.some((group) => adminGroups.has(group));
    const actions = admin ? EVERYTHING : asFlags(grantedTo(user.name, user.groups));
    if (actions.read) rows.push({ principal: user.name, type: 'user', actions });
  }
  for (const group of groups) {
    const admin = adminGroups.has(group.name);
    const actions = admin ? EVERYTHING : asFlags(grantedTo('', [group.name]));
    if (actions.read) rows.push({ principal: group.name, type: 'group', actions });
  }
  if (security.anonAccessEnabled) {
    const actions = asFlags(grantedTo(ANONYMOUS, []));
    if (actions.read) rows.push({ principal: ANONYMOUS, type: 'user', actions });
  }
  return rows;
}

export type EffectivePermissionsService = ReturnType<typeof createEffectivePermissionsService>;
