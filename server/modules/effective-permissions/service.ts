import type { ArtifactsService } from '../artifacts/service.ts';
import type { GroupsService } from '../groups/service.ts';
import type { SecurityConfigService } from '../security-config/service.ts';
import { locateNode } from '../tree-browser/locate-node.ts';
import type { UsersService } from '../users/service.ts';

/** Spec 01 §3 permission actions, as the Effective Permissions tab shows them. */
export interface EffectiveActions {
  read: boolean;
  annotate: boolean;
  deploy: boolean;
  delete: boolean;
  manage: boolean;
}
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
const READ_ONLY: EffectiveActions = {
  read: true,
  annotate: false,
  deploy: false,
  delete: false,
  manage: false,
};
const ANONYMOUS = 'anonymous';

/**
 * Who may do what on a node, under the permission model that exists today: administrators
 * (users flagged admin, and members of groups with admin privileges) may do everything,
 * every other signed-in user may read, and the anonymous user reads when anonymous access
 * is on. Permission targets (issue 5) replace this with what they grant, through this one
 * function, and the tab shows it unchanged.
 */
export function createEffectivePermissionsService(deps: {
  artifacts: ArtifactsService;
  users: UsersService;
  groups: GroupsService;
  securityConfig: SecurityConfigService;
}) {
  return {
    async forNode(
      repoKey: string,
      path: string,
      query: PermissionsQuery,
    ): Promise<EffectivePermissionsPage> {
      await locateNode(deps.artifacts, repoKey, path); // 404 for a node that is not there
      const all = await principals(deps);
      all.sort((a, b) => a.principal.localeCompare(b.principal, 'en'));
      if (query.direction === 'desc') all.reverse();
      const start = (query.pageNum - 1) * query.numOfRows;
      return {
        totalCount: all.length,
        pageNum: query.pageNum,
        numOfRows: query.numOfRows,
        data: all.slice(start, start + query.numOfRows),
      };
    },
  };
}

async function principals(deps: {
  users: UsersService;
  groups: GroupsService;
  securityConfig: SecurityConfigService;
}): Promise<EffectivePermission[]> {
  const [users, groups, security] = await Promise.all([
    deps.users.list(),
    deps.groups.list(),
    deps.securityConfig.get(),
  ]);
  const adminGroups = new Set(groups.filter((g) => g.adminPrivileges).map((g) => g.name));
  const fromUsers = users
    .filter((user) => user.name !== ANONYMOUS)
    .map((user): EffectivePermission => {
      const admin = user.admin || user.groups.some((group) => adminGroups.has(group));
      return { principal: user.name, type: 'user', actions: admin ? EVERYTHING : READ_ONLY };
    });
  const fromGroups = [...adminGroups].map((name): EffectivePermission => ({
    principal: name,
    type: 'group',
    actions: EVERYTHING,
  }));
  const anonymous: EffectivePermission[] = security.anonAccessEnabled
    ? [{ principal: ANONYMOUS, type: 'user', actions: READ_ONLY }]
    : [];
  return [...fromUsers, ...fromGroups, ...anonymous];
}

export type EffectivePermissionsService = ReturnType<typeof createEffectivePermissionsService>;
