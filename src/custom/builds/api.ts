import { call } from '../../api/client';
import type { EffectivePermissionsPage } from '../../api/treeBrowser';

export interface BuildSummary {
  build_name: string;
  build_number: string;
  build_time: number;
  build_started: string;
  build_repo: string;
  project_key: string;
}
export interface BuildVersion {
  buildName: string;
  buildNumber: string;
  time: number;
  started: string;
  status: string;
  ciUrl: string;
  projectKey?: string;
}
export interface BuildAt {
  name: string;
  number: string;
  startTime: string;
  projectKey?: string;
}
export interface BuildFile {
  name?: string;
  id?: string;
  type?: string;
  scopes?: string[];
  sha1?: string;
  sha256?: string;
  repoKey?: string;
  path?: string;
}
export interface DiffChanges<T> {
  new: T[];
  updated: T[];
  unchanged: T[];
  removed: T[];
}
export interface BuildDiff {
  artifacts: DiffChanges<BuildFile & { module: string }>;
  dependencies: DiffChanges<BuildFile & { module: string }>;
  properties: DiffChanges<{ name: string; value?: string }>;
}
export interface Promotion {
  targetRepo: string;
  status?: string;
  comment?: string;
  copy: boolean;
  dependencies: boolean;
  dryRun: boolean;
}

const e = encodeURIComponent;
const at = (view: string, build: BuildAt, extra = '') =>
  `/ui/builds/${view}/${e(build.name)}/${e(build.number)}/${e(build.startTime)}${extra}`;
const project = (build: { projectKey?: string }) => ({
  searchParams: build.projectKey ? { projectKey: build.projectKey } : {},
});

/** The builds pages' calls (server/modules/builds/console-build-routes.ts, spec 02 §7). */
export const buildsApi = {
  search: (query: { name?: string; projectKey?: string; offset: number; num_of_rows: number }) =>
    call<{ versions: BuildSummary[]; hasMore: boolean }>('POST', '/global-search/builds', {
      json: query,
    }),
  history: (name: string, projectKey?: string) =>
    call<{ history: BuildVersion[] }>(
      'GET',
      `/ui/builds/history/${e(name)}`,
      project({ projectKey }),
    ),
  general: (build: BuildAt) =>
    call<Record<string, unknown>>('GET', at('buildInfo', build), project(build)),
  modules: (build: BuildAt) =>
    call<{ modules: { moduleId: string; numOfArtifacts: number; numOfDependencies: number }[] }>(
      'GET',
      at('publishedModules', build),
      project(build),
    ),
  moduleArtifacts: (build: BuildAt, moduleId: string) =>
    call<{ artifacts: BuildFile[] }>(
      'GET',
      at('modulesArtifact', build, `/${e(moduleId)}`),
      project(build),
    ),
  moduleDependencies: (build: BuildAt, moduleId: string) =>
    call<{ dependencies: BuildFile[] }>(
      'GET',
      at('modulesDependency', build, `/${e(moduleId)}`),
      project(build),
    ),
  properties: (build: BuildAt, kind: 'env' | 'system') =>
    call<{ properties: { key: string; value: string }[] }>(
      'GET',
      at(`buildProps/${kind}`, build),
      project(build),
    ),
  issues: (build: BuildAt) =>
    call<{
      tracker: { name?: string; version?: string } | null;
      issues: { key?: string; url?: string; summary?: string }[];
    }>('GET', at('buildIssues', build), project(build)),
  diff: (build: BuildAt, other: { number: string; time: number }) =>
    call<BuildDiff>('GET', at('buildDiff', build), {
      searchParams: {
        otherNumber: other.number,
        otherDate: String(other.time),
        ...(build.projectKey ? { projectKey: build.projectKey } : {}),
      },
    }),
  releaseHistory: (build: BuildAt) =>
    call<{
      releaseHistory: {
        status: string;
        comment: string;
        repository: string;
        timestamp: number;
        user: string;
      }[];
    }>('GET', at('releaseHistory', build), project(build)),
  /** Who may do what on the build (administrators only: it lists every user). */
  effectivePermissions: (build: BuildAt, pageNum: number, direction: 'asc' | 'desc') =>
    call<EffectivePermissionsPage>('GET', at('buildEffectivePermission', build), {
      searchParams: {
        pageNum,
        numOfRows: 25,
        direction,
        orderBy: 'principal',
        ...(build.projectKey ? { projectKey: build.projectKey } : {}),
      },
    }),
  json: (build: BuildAt) =>
    call<{ fileContent: string }>('GET', at('buildJson', build), project(build)),
  deleteBuilds: (builds: BuildAt[]) =>
    call<{ info: string }>('POST', '/ui/builds/buildsDelete', {
      json: {
        buildsCoordinates: builds.map((b) => ({
          buildName: b.name,
          buildNumber: b.number,
          buildStarted: b.startTime,
          ...(b.projectKey ? { projectKey: b.projectKey } : {}),
        })),
      },
    }),
  deleteAll: (name: string, projectKey?: string) =>
    call<{ info: string }>('POST', '/ui/builds/deleteAllBuilds', {
      json: { buildsCoordinates: [{ buildName: name, ...(projectKey ? { projectKey } : {}) }] },
    }),
  promote: (build: BuildAt, promotion: Promotion) =>
    call<{ messages: { level: string; message: string }[] }>(
      'POST',
      `/ui/builds/promote/${e(build.name)}/${e(build.number)}`,
      { json: promotion, ...project(build) },
    ),
  localRepositories: () =>
    call<{ repoKey: string; repoType: string; packageType: string }[]>('GET', '/ui/repodata'),
};
