import type { Database } from '../../db/database.ts';
import { BadRequest } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { AccessService } from '../access-control/service.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import type { RemoteService } from '../remote/service.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import { searchRemotes } from './remote-search.ts';
import { all, mentions, type Criterion, type ItemQuery } from './criteria.ts';
import { firstBuildRelation, resolveBuildRelations } from './aql-build-relations.ts';
import { readableBuildIds } from './aql-build-criteria.ts';
import type { ItemRelation } from './aql-build-items.ts';
import { createSearchEngine, type PageRequest } from './engine.ts';
import { SEARCH_MESSAGES as M } from './messages.ts';
import { inProjectContext } from '../projects/context.ts';
import {
  archiveEntryBatch,
  packageVersionBatch,
  propertiesOf,
  type ArchiveEntrySearch,
  type PackageVersionSearch,
  type ItemRow,
} from './queries.ts';

export interface SearchOptions {
  /** Repository keys as the caller gave them; a virtual repository stands for its members. */
  repos?: readonly string[];
  /** The console's project context: only its own and shared repositories are searched. */
  projectKey?: string;
  resumeAt?: number;
  skip?: number;
  limit?: number;
}

/** MD5s are computed lazily (issue 3): before a search by MD5, the missing ones are filled. */
const needsMd5 = (query: ItemQuery) =>
  mentions(query.where, 'actual_md5') || mentions(query.where, 'original_md5');

/**
 * Runs searches for callers: resolves the repositories they name, fills what a query needs
 * first, and answers only what the caller may read (docs/search.md).
 */
export function createSearchService(deps: {
  db: Database;
  access: AccessService;
  repositories: RepositoriesService;
  artifacts: ArtifactsService;
  remote: RemoteService;
}) {
  const engine = createSearchEngine(deps.db);

  /**
   * Lower-cased keys of the repositories holding the items: virtuals give their members. In
   * a project context only the project's own and shared repositories count.
   */
  async function repositoryKeys(keys: readonly string[] | undefined, projectKey?: string) {
    const wanted = keys?.map((key) => key.trim()).filter(Boolean);
    const inContext = inProjectContext(projectKey);
    const byKey = new Map((await deps.repositories.list()).map((r) => [r.key.toLowerCase(), r]));
    const contextKeys = (found: Iterable<string>) =>
      [...found].filter((key) => inContext(byKey.get(key)!));
    if (!wanted || wanted.length === 0) return projectKey ? contextKeys(byKey.keys()) : undefined;
    const found = new Set<string>();
    const visit = (key: string) => {
      const repo = byKey.get(key.toLowerCase());
      if (!repo) throw new BadRequest(M.unknownRepository(key), 'repositories');
      if (found.has(repo.key.toLowerCase())) return;
      found.add(repo.key.toLowerCase());
      if (repo.rclass === 'virtual') for (const member of repo.repositories ?? []) visit(member);
    };
    wanted.forEach(visit);
    return contextKeys(found);
  }

  async function prepare(
    principal: Principal,
    query: ItemQuery | undefined,
    options: SearchOptions,
  ) {
    if (query && needsMd5(query)) await fillMissingMd5s();
    const access = await deps.access.forPrincipal(principal);
    const resolved = query && (await withReadableBuilds(principal, query));
    const request: PageRequest = {
      // The trash can holds every repository's deletions: it has no project context.
      repoKeys: await repositoryKeys(
        options.repos,
        query?.scope === 'trash' ? undefined : options.projectKey,
      ),
      resumeAt: options.resumeAt,
      skip: options.skip,
      limit: options.limit,
    };
    return { access, request, query: resolved };
  }

  /** The query with its build relations narrowed to the builds the caller may read. */
  async function withReadableBuilds(principal: Principal, query: ItemQuery): Promise<ItemQuery> {
    if (!firstBuildRelation(query.where)) return query;
    const builds = await deps.access.forBuilds(principal);
    const where = await resolveBuildRelations(
      query.where,
      async (relation) => relation.buildIds ?? readableBuildIds(deps.db, builds, relation.build),
    );
    return { ...query, where };
  }

  async function fillMissingMd5s() {
    for (;;) {
      const missing = await deps.db
        .selectFrom('blobs')
        .select('sha256')
        .where('md5', 'is', null)
        .limit(100)
        .execute();
      for (const { sha256 } of missing) await deps.artifacts.md5(sha256);
      if (missing.length < 100) return;
    }
  }

  return {
    /** One page of what the caller may read, and where the next page resumes. */
    async page(principal: Principal, query: ItemQuery, options: SearchOptions) {
      const prepared = await prepare(principal, query, options);
      return engine.page(prepared.query!, prepared.access, prepared.request);
    },

    /** One page of archive entries (the class search) in archives the caller may read. */
    async archiveEntryPage(
      principal: Principal,
      search: ArchiveEntrySearch,
      options: SearchOptions,
    ) {
      const { access, request } = await prepare(principal, undefined, options);
      const read = (repoKeys: readonly string[] | undefined, offset: number, limit: number) =>
        archiveEntryBatch(deps.db, search, repoKeys, offset, limit);
      return engine.pageOf(read, access, request);
    },

    /** One page of package versions (npm, PyPI) whose files the caller may read. */
    async packagePage(principal: Principal, search: PackageVersionSearch, options: SearchOptions) {
      const { access, request } = await prepare(principal, undefined, options);
      const read = (repoKeys: readonly string[] | undefined, offset: number, limit: number) =>
        packageVersionBatch(deps.db, search, repoKeys, offset, limit);
      return engine.pageOf(read, access, request);
    },

    /** The Remote search: the upstreams of the remote repositories the caller may read. */
    async remote(principal: Principal, term: string) {
      return searchRemotes(deps, await deps.access.forPrincipal(principal), term);
    },

    /** Everything the caller may read (from `skip`, up to `limit`), read a batch at a time. */
    async stream(principal: Principal, query: ItemQuery, options: SearchOptions) {
      const prepared = await prepare(principal, query, options);
      return engine.stream(prepared.query!, prepared.access, prepared.request);
    },

    /**
     * The ids of the stored items a builds query's item relation chooses that the caller may
     * read, among those some build lists as that relation (`module.artifact.item.repo`).
     */
    async linkedItemIds(principal: Principal, relation: ItemRelation): Promise<number[]> {
      // Listed by any build: the builds query itself keeps only builds the caller may read.
      const linked: Criterion = {
        kind: 'build',
        relation: relation.relation,
        position: 0,
        files: [],
        buildIds: 'any',
      };
      const query: ItemQuery = { where: all(relation.where, linked), sort: [], scope: 'artifacts' };
      const prepared = await prepare(principal, query, {});
      const ids: number[] = [];
      for await (const row of engine.stream(prepared.query!, prepared.access, prepared.request))
        ids.push(row.id);
      return ids;
    },

    /** The rows' MD5s, computed where still missing (answers that show them). */
    async md5sOf(rows: readonly ItemRow[]) {
      for (const row of rows)
        if (row.sha256 && !row.md5) row.md5 = await deps.artifacts.md5(row.sha256);
    },

    propertiesOf: (rows: readonly ItemRow[]) =>
      propertiesOf(
        deps.db,
        rows.map((row) => row.id),
      ),
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
