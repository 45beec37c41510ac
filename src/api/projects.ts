import { call, http } from './client';
import type { Project, ProjectStorage } from '../../server/modules/projects/service.ts';
import type { ProjectRole } from '../../server/modules/projects/roles.ts';

export type { Project, ProjectRole, ProjectStorage };
/** The environments a repository or a role may name (docs/projects.md). */
export { ENVIRONMENTS } from '../../server/modules/projects/environments.ts';
export type MemberKind = 'users' | 'groups';
export interface ProjectMember {
  name: string;
  roles: string[];
}

/** JFrog Access's API lives at the root, not under the console's prefix. */
const rootHttp = http.extend({ prefixUrl: '/' });
const BASE = '/access/api/v1/projects';
const at = (...parts: string[]) => [BASE, ...parts.map(encodeURIComponent)].join('/');
const root = <T>(method: string, url: string, json?: unknown) =>
  call<T>(method, url, json === undefined ? {} : { json }, rootHttp);

/** The project calls (spec 01 §7 Projects; docs/projects.md). */
export const projectsApi = {
  /** Every project for an admin; the ones a user administers otherwise. */
  list: () => root<Project[]>('GET', BASE),
  get: (key: string) => root<Project>('GET', at(key)),
  create: (project: Partial<Project>) => root<Project>('POST', BASE, project),
  update: (key: string, change: Partial<Project>) => root<Project>('PUT', at(key), change),
  remove: (key: string) => root<void>('DELETE', at(key)),
  limit: () => call<{ limit: number; count: number }>('GET', 'projects/limit'),
  members: async (key: string, kind: MemberKind) =>
    (await root<{ members: ProjectMember[] }>('GET', at(key, kind))).members,
  putMember: (key: string, kind: MemberKind, name: string, roles: string[]) =>
    root<ProjectMember>('PUT', at(key, kind, name), { roles }),
  removeMember: (key: string, kind: MemberKind, name: string) =>
    root<void>('DELETE', at(key, kind, name)),
  roles: (key: string) => root<ProjectRole[]>('GET', at(key, 'roles')),
  createRole: (key: string, role: Partial<ProjectRole>) =>
    root<ProjectRole>('POST', at(key, 'roles'), role),
  removeRole: (key: string, name: string) => root<void>('DELETE', at(key, 'roles', name)),
  storage: (key: string) => root<ProjectStorage>('GET', at(key, 'storage')),
};
