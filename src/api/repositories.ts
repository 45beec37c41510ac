import type { RepositoryListItem } from '../../server/modules/repositories/ui-model.ts';
import { call } from './client';

/** The repository kinds the console creates and edits (spec 03 §9: creatable types). */
export type RepoKind = 'local' | 'remote' | 'virtual';
export const REPO_KINDS: RepoKind[] = ['local', 'remote', 'virtual'];

/** One row of GET /ui/admin/repositories?type= (docs/console-api.md): the server's own type. */
export type { RepositoryListItem };

export interface ResolvedRepository {
  repoKey: string;
  type?: RepoKind;
  packageType?: string;
}

/** The repository form model the server reads and answers. */
export interface RepositoryFormModel {
  type: RepoKind;
  /** projectKey: the project the repository belongs to (its key starts with `{projectKey}-`). */
  general: { repoKey: string; projectKey?: string };
  typeSpecific: {
    repoType: string;
    /** Maven-layout types (docs/maven.md): which versions the repository takes and serves. */
    handleReleases?: boolean;
    handleSnapshots?: boolean;
    maxUniqueSnapshots?: number;
    suppressPomConsistencyChecks?: boolean;
  };
  basic: {
    layout?: string;
    publicDescription?: string;
    internalDescription?: string;
    includesPattern?: string;
    excludesPattern?: string;
    /** The environments it sits in: where the project's roles act on it. */
    environments?: string[];
  };
  remote?: {
    url?: string;
    username?: string;
    /** Write-only: never answered; sent only when typed (empty removes the stored one). */
    password?: string;
    offline?: boolean;
    missedRetrievalCachePeriodSecs?: number;
    socketTimeoutMillis?: number;
  };
  virtual?: { resolvedRepositories?: ResolvedRepository[]; defaultDeploymentRepo?: string };
  advanced: { allowContentBrowsing?: boolean };
}

export interface PackageTypeEntry {
  value: string;
  text: string;
  icon: string;
  description?: string;
  defaultLayout: string;
}

export interface LayoutEntry {
  name: string;
  builtIn: boolean;
}

const BASE = '/ui/admin/repositories';
const withoutUndefined = (query: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as Record<
    string,
    string
  >;
const path = (...parts: string[]) => [BASE, ...parts.map(encodeURIComponent)].join('/');

/** The repository area's calls (spec 03 §7 Repositories). */
export const repositoriesApi = {
  /** In a project's context, that project's repositories only. */
  list: (kind: RepoKind, projectKey?: string) =>
    call<RepositoryListItem[]>('GET', BASE, {
      searchParams: { type: kind, ...(projectKey ? { projectKey } : {}) },
    }),
  get: (kind: RepoKind, key: string) => call<RepositoryFormModel>('GET', path(kind, key)),
  create: (model: RepositoryFormModel) => call<{ info: string }>('POST', BASE, { json: model }),
  update: (model: RepositoryFormModel) => call<{ info: string }>('PUT', BASE, { json: model }),
  remove: (kind: RepoKind, key: string) => call<{ info: string }>('DELETE', path(kind, key)),
  validateRepoName: (query: {
    repoType: RepoKind;
    repoKey: string;
    packageType: string;
    projectKey?: string;
  }) =>
    call<{ valid: boolean; error?: string }>('GET', path('validatereponame'), {
      searchParams: withoutUndefined(query),
    }),
  availableRepositories: (packageType: string, repoKey: string, projectKey?: string) =>
    call<ResolvedRepository[]>('GET', path('availablerepositories'), {
      searchParams: withoutUndefined({ packageType, repoKey, projectKey }),
    }),
  packageTypes: (kind: RepoKind) =>
    call<PackageTypeEntry[]>('GET', path('packagetypes'), { searchParams: { repoType: kind } }),
  layouts: () => call<LayoutEntry[]>('GET', path('layouts')),
  testRemote: (url: string) =>
    call<{ info: string }>('POST', path('testremote'), { json: { url } }),
};
