import type {
  EditorTarget,
  PermissionTargetRow,
  PrincipalChoice,
} from '../../server/modules/access-control/console-routes.ts';
import type {
  PermissionSection,
  PermissionTarget,
} from '../../server/modules/access-control/permission-target.ts';
import { call } from './client';

/** The permissions editor's data (docs/access-control.md): the server's own types. */
export type {
  EditorTarget,
  PermissionSection,
  PermissionTarget,
  PermissionTargetRow,
  PrincipalChoice,
};

export interface RepoChoice {
  repoKey: string;
  repoType: 'local' | 'remote';
  packageType: string;
}

const byName = (name: string) => `/access/permissions/${encodeURIComponent(name)}`;

export const permissionsApi = {
  search: (searchStr = '') =>
    call<PermissionTargetRow[]>('POST', '/access/permissions/search', { json: { searchStr } }),
  get: (name: string) => call<EditorTarget>('GET', byName(name)),
  create: (target: PermissionTarget) =>
    call<{ info: string }>('POST', '/access/permissions', { json: target }),
  update: (target: PermissionTarget) =>
    call<{ info: string }>('PUT', byName(target.name), { json: target }),
  remove: (names: string[]) =>
    call<{ info: string }>('POST', '/access/permissions/delete', { json: { names } }),
  principals: () =>
    call<{ users: PrincipalChoice[]; groups: PrincipalChoice[] }>(
      'GET',
      '/ui/permissiontargets/allUsersGroups',
    ),
  repositories: () =>
    call<RepoChoice[]>('GET', '/ui/repodata', { searchParams: { permission: 'true' } }),
};
