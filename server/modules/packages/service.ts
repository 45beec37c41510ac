import { buildSchema, graphql, type GraphQLSchema } from 'graphql';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { BadRequest } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { AccessDecider } from '../access-control/decider.ts';
import type { createAccessService } from '../access-control/service.ts';
import { DEFAULT_CONTEXT_KEY, inProjectContext } from '../projects/context.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import {
  compareVersions,
  createPackageQueries,
  isPreRelease,
  parsePackageId,
  type PackageOrderField,
  type PackageSummary,
  type Readable,
} from './queries.ts';
import { dependenciesOf } from './dependencies.ts';

type AccessService = ReturnType<typeof createAccessService>;

/**
 * The package browser's GraphQL schema (spec 02 §7 Packages: `/mds/packages`, `/mds/package`,
 * `/mds/versions`). Packages are grouped by type and name across the repositories the
 * caller may read; a version lists the repositories that hold it.
 */
const SCHEMA = `
  type Query {
    packages(filter: PackageFilter, first: Int, after: String, orderBy: PackageOrder): PackageConnection!
    package(id: ID!): Package
    versions(filter: VersionFilter!, first: Int, after: String, orderBy: VersionOrder): VersionConnection!
  }
  input PackageFilter {
    name: String
    packageTypeIn: [String!]
    description: String
    "npm scope, with or without its @: packages named @scope/..."
    scope: String
    "Packages with any of these tags (npm keywords), any case."
    tags: [String!]
    "ISO 8601 instants: packages that first appeared at or after, or before, them."
    createdAfter: String
    createdBefore: String
    "The console's project context: the project's own and shared repositories only."
    projectKey: String
    "Packages with a version like this (* and ? wildcards, any case)."
    version: String
    "Packages with a file of this SHA-256, SHA-1 or MD5."
    checksum: String
    "Only these repositories (of those the caller may read)."
    repos: [String!]
  }
  enum SortDirection { ASC, DESC }
  enum PackageOrderField { NAME, CREATED, MODIFIED }
  input PackageOrder { field: PackageOrderField = NAME, direction: SortDirection = ASC }
  type PageInfo { hasNextPage: Boolean!, endCursor: String }
  type PackageConnection { edges: [PackageEdge!]!, pageInfo: PageInfo! }
  type PackageEdge { node: Package!, cursor: String! }
  type License { name: String!, source: String! }
  type PackageStats { downloads: Int!, followers: Int! }
  type Package {
    id: ID!
    name: String!
    packageType: String!
    description: String!
    created: String!
    modified: String!
    versionsCount: Int!
    latestVersion: String!
    stats: PackageStats!
    tags: [String!]!
    licenses: [License!]!
  }
  input VersionFilter {
    packageId: ID!
    name: String
    repos: [String!]
    ignorePreRelease: Boolean
    "Versions under any of these licenses (names, any case)."
    licenses: [String!]
  }
  enum VersionOrderField { NAME, CREATED }
  input VersionOrder { field: VersionOrderField = NAME, direction: SortDirection = DESC }
  type VersionConnection { edges: [VersionEdge!]!, pageInfo: PageInfo! }
  type VersionEdge { node: Version!, cursor: String! }
  type VersionRepo { name: String!, type: String!, leadFilePath: String! }
  type VersionStats { downloadCount: Int! }
  type VersionFile {
    name: String!
    lead: Boolean!
    size: Float!
    md5: String
    sha1: String
    sha256: String
    mimeType: String
    repo: String!
    path: String!
  }
  type Version {
    id: ID!
    name: String!
    packageId: ID!
    description: String!
    created: String!
    modified: String!
    repos: [VersionRepo!]!
    size: Float!
    stats: VersionStats!
    licenses: [License!]!
    files: [VersionFile!]!
    digest: String!
  }
`;

/** The most packages one page answers, in GraphQL's `first` and the search shape's `limit`. */
export const MAX_PAGE = 1000;
const cursorOf = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64');
function offsetOf(cursor: string | undefined): number {
  if (!cursor) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!match) throw new BadRequest(`Invalid cursor '${cursor}'`);
  return Number(match[1]);
}

function pageSize(first: number | undefined, fallback: number): number {
  const size = first ?? fallback;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE)
    throw new BadRequest(`first must be between 1 and ${MAX_PAGE}`);
  return size;
}

type Manifest = Record<string, unknown>;

/** npm's `license` (or the old `licenses` list), PyPI's `license`, a POM's `<licenses>`. */
function licensesOf(manifest: Manifest) {
  const license = manifest.license ?? manifest.licenses;
  const names = Array.isArray(license)
    ? license.map((l) =>
        typeof l === 'string' ? l : String((l as Manifest).type ?? (l as Manifest).name ?? ''),
      )
    : typeof license === 'string' && license
      ? [license]
      : [];
  return names.filter(Boolean).map((name) => ({ name, source: 'package metadata' }));
}

const isoOf = (date: Date | string) => new Date(date).toISOString();

interface Context {
  readable: Readable;
  access: AccessDecider;
}

export function createPackagesService(deps: {
  db: Database;
  access: AccessService;
  repositories: RepositoriesService;
}) {
  const queries = createPackageQueries(deps.db);

  /** The readable repositories narrowed to a project's context (docs/projects.md). */
  async function inContext(readable: Readable, projectKey: string | undefined): Promise<Readable> {
    if (!projectKey || projectKey === DEFAULT_CONTEXT_KEY) return readable;
    const shown = inProjectContext(projectKey);
    const keys = new Set((await deps.repositories.list()).filter(shown).map((repo) => repo.key));
    const ids = readable.ids.filter((id) => keys.has(readable.keyOf.get(id)!));
    return { ids, keyOf: readable.keyOf };
  }

  /** Only the named repositories, of those readable: naming others adds nothing. */
  function inRepositories(readable: Readable, repos: string[] | undefined): Readable {
    if (!repos?.length) return readable;
    const named = new Set(repos.map((key) => key.toLowerCase()));
    const ids = readable.ids.filter((id) => named.has(readable.keyOf.get(id)!.toLowerCase()));
    return { ids, keyOf: readable.keyOf };
  }

  async function readableFor(access: AccessDecider): Promise<Readable> {
    const keys = access.readableRepoKeys();
    const rows = await deps.db.selectFrom('repositories').select(['id', 'key']).execute();
    const readable = rows.filter((row) => keys === 'all' || keys.has(row.key));
    return { ids: readable.map((r) => r.id), keyOf: new Map(readable.map((r) => [r.id, r.key])) };
  }

  /** A package's versions the caller may read, grouped by version (one entry per repository). */
  async function versionsOf(context: Context, type: string, name: string) {
    const rows = (await queries.versionRows(context.readable, type, name)).filter((row) =>
      context.access.can('read', context.readable.keyOf.get(row.repository_id)!, row.path),
    );
    const byVersion = new Map<string, typeof rows>();
    for (const row of rows)
      byVersion.set(row.version, [...(byVersion.get(row.version) ?? []), row]);
    return byVersion;
  }

  function versionNode(
    context: Context,
    type: string,
    id: string,
    rows: Awaited<ReturnType<typeof queries.versionRows>>,
  ) {
    const lead = rows[0]!;
    const manifest = JSON.parse(lead.manifest) as Manifest;
    const wholeFolder = type !== 'npm';
    const files = async () => {
      const all = [];
      for (const row of rows) {
        const folder = row.path.slice(0, row.path.lastIndexOf('/'));
        const repo = context.readable.keyOf.get(row.repository_id)!;
        for (const file of await queries.filesBeside(
          row.repository_id,
          folder,
          row.path,
          wholeFolder,
        )) {
          if (!context.access.can('read', repo, file.path)) continue;
          all.push({
            name: file.name,
            lead: file.path === row.path,
            size: Number(file.size),
            md5: file.md5,
            sha1: file.sha1,
            sha256: file.sha256,
            mimeType: file.mime_type,
            repo,
            path: file.path,
          });
        }
      }
      return all;
    };
    return {
      id: lead.version,
      name: lead.version,
      packageId: id,
      description: lead.description,
      created: isoOf(rows.map((r) => new Date(r.created_at)).sort((a, b) => +a - +b)[0]!),
      modified: isoOf(rows.map((r) => new Date(r.modified_at)).sort((a, b) => +b - +a)[0]!),
      repos: rows.map((row) => ({
        name: context.readable.keyOf.get(row.repository_id)!,
        type,
        leadFilePath: row.path,
      })),
      size: async () => (await files()).reduce((sum, f) => sum + f.size, 0),
      stats: { downloadCount: rows.reduce((sum, r) => sum + Number(r.downloads), 0) },
      licenses: licensesOf(manifest),
      files,
      digest: async () => (await files()).find((f) => f.lead)?.sha256 ?? '',
    };
  }

  /** An ISO 8601 instant of a filter, or a 400 that names the field. */
  function instantOf(field: string, value: string | undefined): Date | undefined {
    if (value === undefined || value === '') return undefined;
    const instant = new Date(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(instant.getTime()))
      throw new BadRequest(`${field} must be an ISO 8601 date or instant, not '${value}'`);
    return instant;
  }

  function packageNode(summary: PackageSummary, manifest: Manifest = {}) {
    return {
      ...summary,
      created: isoOf(summary.created),
      modified: isoOf(summary.modified),
      stats: { downloads: summary.downloads, followers: 0 },
      tags: Array.isArray(manifest.keywords) ? manifest.keywords.map(String) : [],
      licenses: licensesOf(manifest),
    };
  }

  const root = {
    async packages(
      args: {
        filter?: {
          name?: string;
          packageTypeIn?: string[];
          description?: string;
          projectKey?: string;
          scope?: string;
          tags?: string[];
          createdAfter?: string;
          createdBefore?: string;
          version?: string;
          checksum?: string;
          repos?: string[];
        };
        first?: number;
        after?: string;
        orderBy?: { field?: 'NAME' | 'CREATED' | 'MODIFIED'; direction?: 'ASC' | 'DESC' };
      },
      context: Context,
    ) {
      const first = pageSize(args.first, 100);
      const offset = offsetOf(args.after);
      const { packages, hasNextPage } = await queries.packages(
        inRepositories(
          await inContext(context.readable, args.filter?.projectKey),
          args.filter?.repos,
        ),
        {
          name: args.filter?.name,
          packageTypes: args.filter?.packageTypeIn,
          description: args.filter?.description,
          scope: args.filter?.scope,
          tags: args.filter?.tags,
          createdAfter: instantOf('createdAfter', args.filter?.createdAfter),
          createdBefore: instantOf('createdBefore', args.filter?.createdBefore),
          version: args.filter?.version,
          checksum: args.filter?.checksum,
        },
        {
          first,
          offset,
          descending: args.orderBy?.direction === 'DESC',
          field: args.orderBy?.field?.toLowerCase() as PackageOrderField | undefined,
        },
      );
      const edges = packages.map((summary, index) => ({
        node: packageNode(
          summary,
          summary.latestManifest ? (JSON.parse(summary.latestManifest) as Manifest) : {},
        ),
        cursor: cursorOf(offset + index + 1),
      }));
      return { edges, pageInfo: { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null } };
    },

    async package(args: { id: string }, context: Context) {
      const key = parsePackageId(args.id);
      if (!key) return null;
      const { packages } = await queries.packages(
        context.readable,
        { exactName: key.name, packageTypes: [key.type] },
        { first: 1, offset: 0, descending: false },
      );
      const summary = packages[0];
      if (!summary) return null;
      const versions = await versionsOf(context, key.type, key.name);
      const latest = versions.get(summary.latestVersion)?.[0];
      return packageNode(summary, latest ? (JSON.parse(latest.manifest) as Manifest) : {});
    },

    async versions(
      args: {
        filter: {
          packageId: string;
          name?: string;
          repos?: string[];
          ignorePreRelease?: boolean;
          licenses?: string[];
        };
        first?: number;
        after?: string;
        orderBy?: { field?: 'NAME' | 'CREATED'; direction?: 'ASC' | 'DESC' };
      },
      context: Context,
    ) {
      const key = parsePackageId(args.filter.packageId);
      if (!key) throw new BadRequest(`Invalid package id '${args.filter.packageId}'`);
      const first = pageSize(args.first, 100);
      const offset = offsetOf(args.after);
      const grouped = await versionsOf(context, key.type, key.name);
      let nodes = [...grouped.values()].map((rows) =>
        versionNode(context, key.type, args.filter.packageId, rows),
      );
      const { name, repos, ignorePreRelease } = args.filter;
      if (name) nodes = nodes.filter((n) => n.name.toLowerCase().includes(name.toLowerCase()));
      if (repos?.length) nodes = nodes.filter((n) => n.repos.some((r) => repos.includes(r.name)));
      if (ignorePreRelease) nodes = nodes.filter((n) => !isPreRelease(key.type, n.name));
      const licenses = new Set(args.filter.licenses?.map((l) => l.trim().toLowerCase()));
      if (licenses.size > 0)
        nodes = nodes.filter((n) => n.licenses.some((l) => licenses.has(l.name.toLowerCase())));
      const byCreated = args.orderBy?.field === 'CREATED';
      const direction = args.orderBy?.direction === 'ASC' ? 1 : -1;
      nodes.sort(
        (a, b) =>
          direction *
          (byCreated
            ? a.created.localeCompare(b.created)
            : compareVersions(key.type, a.name, b.name)),
      );
      const page = nodes.slice(offset, offset + first);
      const edges = page.map((node, index) => ({ node, cursor: cursorOf(offset + index + 1) }));
      return {
        edges,
        pageInfo: {
          hasNextPage: offset + first < nodes.length,
          endCursor: edges.at(-1)?.cursor ?? null,
        },
      };
    },
  };

  const schema: GraphQLSchema = buildSchema(SCHEMA);

  return {
    /** Runs a GraphQL request as the caller; errors are GraphQL's own `errors` list. */
    async execute(
      principal: Principal,
      request: { query: string; variables?: Record<string, unknown> },
    ) {
      const access = await deps.access.forPrincipal(principal);
      const context: Context = { readable: await readableFor(access), access };
      return graphql({
        schema,
        source: request.query,
        rootValue: root,
        contextValue: context,
        variableValues: request.variables,
      });
    },

    /** The documents the version tabs show: readme, dependencies, properties of the lead file. */
    /**
     * The package and version whose lead file is at `{repoKey}/{path}` (a version's
     * `repos[].leadFilePath` under its repository), for a reader of it; else undefined.
     */
    async versionAt(principal: Principal, type: string, fullPath: string) {
      const [repoKey, ...rest] = fullPath.replace(/^\//, '').split('/');
      const path = rest.join('/');
      if (!repoKey || !path) return undefined;
      const access = await deps.access.forPrincipal(principal);
      if (!access.can('read', repoKey, path)) return undefined;
      return deps.db
        .selectFrom('package_versions as v')
        .innerJoin('packages as p', 'p.id', 'v.package_id')
        .innerJoin('nodes as n', 'n.id', 'v.node_id')
        .innerJoin('repositories as r', 'r.id', 'n.repository_id')
        .select(['p.name', 'v.version'])
        .where('p.package_type', '=', type)
        .where(sql`lower(r.key)`, '=', repoKey.toLowerCase())
        .where('n.path', '=', path)
        .executeTakeFirst();
    },

    async versionDetails(principal: Principal, type: string, name: string, version: string) {
      const access = await deps.access.forPrincipal(principal);
      const context: Context = { readable: await readableFor(access), access };
      const rows = (await versionsOf(context, type, name)).get(version);
      if (!rows) return undefined;
      const lead = rows[0]!;
      const manifest = JSON.parse(lead.manifest) as Manifest;
      return {
        readme: await queries.readme(Number(lead.version_id)),
        dependencies: manifest.dependencies ?? {},
        devDependencies: manifest.devDependencies ?? {},
        dependencyList: dependenciesOf(type, manifest),
        properties: await queries.properties(Number(lead.node_id)),
      };
    },
  };
}

export type PackagesService = ReturnType<typeof createPackagesService>;
