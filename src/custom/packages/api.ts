import { call } from '../../api/client';

export interface PackageNode {
  id: string;
  name: string;
  packageType: string;
  description: string;
  created: string;
  modified: string;
  versionsCount: number;
  latestVersion: string;
  stats: { downloads: number };
  licenses: { name: string }[];
  tags: string[];
}

/** A readme and how to show it: Markdown (sanitized) or plain text (server's choice). */
export interface Readme {
  readme: string;
  format: 'markdown' | 'text';
}

/** One declared dependency: its name, the version or range asked for, its scope. */
export interface Dependency {
  name: string;
  range: string;
  scope: string;
}

export interface VersionFile {
  name: string;
  lead: boolean;
  size: number;
  md5: string | null;
  sha1: string | null;
  sha256: string | null;
  repo: string;
  path: string;
}

export interface VersionNode {
  id: string;
  name: string;
  created: string;
  modified: string;
  size: number;
  repos: { name: string; leadFilePath: string }[];
  stats: { downloadCount: number };
  licenses: { name: string }[];
  files?: VersionFile[];
}

interface Connection<T> {
  edges: { node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const PACKAGE_FIELDS =
  'id name packageType description created modified versionsCount latestVersion stats { downloads } licenses { name } tags';
const VERSION_FIELDS =
  'id name created modified size repos { name leadFilePath } stats { downloadCount } licenses { name }';

async function graphQl<T>(call_: string, query: string, variables: object): Promise<T> {
  const answer = await call<{ data: T }>('POST', `/mds/${call_}`, {
    json: { graphQL: { query, variables } },
  });
  return answer.data;
}

export interface PackageSearch {
  name?: string;
  packageType?: string;
  /** npm scope (`@acme`). */
  scope?: string;
  /** Any of these tags (npm keywords). */
  tags?: string[];
  /** Days (`YYYY-MM-DD`): first published on or after, or before. */
  createdAfter?: string;
  createdBefore?: string;
  /** The project context: its own and shared repositories only. */
  projectKey?: string;
}

/** Spec 02 §2 version filters (CVEs and severities need a scanning service: not offered). */
export interface VersionFilters {
  name?: string;
  repo?: string;
  license?: string;
}

/** The package browser's calls (server/modules/packages, spec 02 §7 Packages). */
export const packagesApi = {
  async list(search: PackageSearch, after?: string) {
    const filter = {
      ...(search.name ? { name: search.name } : {}),
      ...(search.packageType ? { packageTypeIn: [search.packageType] } : {}),
      ...(search.projectKey ? { projectKey: search.projectKey } : {}),
      ...(search.scope ? { scope: search.scope } : {}),
      ...(search.tags?.length ? { tags: search.tags } : {}),
      ...(search.createdAfter ? { createdAfter: search.createdAfter } : {}),
      ...(search.createdBefore ? { createdBefore: search.createdBefore } : {}),
    };
    const data = await graphQl<{ packages: Connection<PackageNode> }>(
      'packages',
      `query($filter: PackageFilter, $after: String) { packages(filter: $filter, first: 100, after: $after) { edges { node { ${PACKAGE_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
      { filter, after },
    );
    return data.packages;
  },

  async get(id: string) {
    const data = await graphQl<{ package: PackageNode | null }>(
      'package',
      `query($id: ID!) { package(id: $id) { ${PACKAGE_FIELDS} } }`,
      { id },
    );
    return data.package;
  },

  async versions(packageId: string, ignorePreRelease: boolean, filters: VersionFilters = {}) {
    const filter = {
      packageId,
      ignorePreRelease,
      ...(filters.name ? { name: filters.name } : {}),
      ...(filters.repo ? { repos: [filters.repo] } : {}),
      ...(filters.license ? { licenses: [filters.license] } : {}),
    };
    const data = await graphQl<{ versions: Connection<VersionNode> }>(
      'versions',
      `query($filter: VersionFilter!) { versions(filter: $filter, first: 1000) { edges { node { ${VERSION_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
      { filter },
    );
    return data.versions.edges.map((edge) => edge.node);
  },

  async version(packageId: string, name: string) {
    const data = await graphQl<{ versions: Connection<VersionNode> }>(
      'versions',
      `query($filter: VersionFilter!) { versions(filter: $filter, first: 1000) { edges { node { ${VERSION_FIELDS} files { name lead size md5 sha1 sha256 repo path } } } pageInfo { hasNextPage endCursor } } }`,
      { filter: { packageId, name } },
    );
    return data.versions.edges.map((edge) => edge.node).find((v) => v.name === name) ?? null;
  },

  readme: (type: string, name: string, version: string) =>
    call<Readme>(
      'GET',
      `/ui/v1/native/versions/${type}/readme?${new URLSearchParams({ name, version })}`,
    ),

  dependencies: (type: string, name: string, version: string) =>
    call<{ list: Dependency[] }>(
      'GET',
      `/ui/v1/native/versions/${type}/dependencies?${new URLSearchParams({ name, version })}`,
    ),

  properties: (type: string, name: string, version: string) =>
    call<{ properties: { key: string; values: string[] }[] }>(
      'GET',
      `/ui/v1/native/versions/${type}/props?${new URLSearchParams({ name, version })}`,
    ),
};
