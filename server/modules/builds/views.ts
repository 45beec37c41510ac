import type { Database } from '../../db/database.ts';
import type { Principal } from '../../http/permissions.ts';
import type { AccessService } from '../access-control/service.ts';
import type { BuildInfo, BuildModule } from './build-info.ts';
import { DEFAULT_BUILD_REPOSITORY } from './build-info.ts';
import {
  buildDocument,
  latestBuildPerName,
  latestBuildsPage,
  promotionsOf,
  storedFilesWith,
  type BuildRow,
  type LatestBuildsFilter,
} from './queries.ts';
import type { BuildsService } from './service.ts';
import { matchesFilter, orderBuilds, type BuildSearchFilter } from './build-search.ts';

/** A build as the console names it: name, number, start in milliseconds, project. */
export interface BuildCoordinates {
  name: string;
  number: string;
  startTime: string;
  projectKey?: string;
}

const ENV_PREFIX = 'buildInfo.env.';
/** The project filter's word for builds of no project (spec 02 §10). */
export const UNASSIGNED = 'unassigned';

/** No project: every build; `unassigned`: the default repository's; a key: that project's. */
const projectOf = (projectKey: string | undefined): LatestBuildsFilter['project'] =>
  !projectKey
    ? undefined
    : projectKey === UNASSIGNED
      ? { defaultRepository: DEFAULT_BUILD_REPOSITORY }
      : { key: projectKey };

/** A name filter as LIKE: words in any case anywhere in the name, `*` for any run. */
function nameLike(term: string | undefined) {
  if (!term?.trim()) return undefined;
  return `%${term
    .trim()
    .replace(/[\\%_]/g, '\\$&')
    .replace(/\*/g, '%')}%`;
}
const millis = (row: BuildRow) => row.started_at.getTime();
const pageOf = (rows: BuildRow[], page: { offset: number; limit: number }) => ({
  rows: rows.slice(page.offset, page.offset + page.limit),
  total: rows.length,
});

/** What the console's build pages show (spec 02 §7 "Builds" calls; docs/builds.md, "Console"). */
export function createBuildViews(deps: {
  db: Database;
  access: AccessService;
  builds: BuildsService;
}) {
  const { db, builds } = deps;

  async function open(principal: Principal, at: BuildCoordinates) {
    const { row } = await builds.find(principal, at.name, at.number, {
      started: at.startTime,
      projectKey: at.projectKey,
    });
    return { row, document: (await buildDocument(db, row.id)) as BuildInfo };
  }

  const moduleOf = (document: BuildInfo, id: string): BuildModule | undefined =>
    (document.modules ?? []).find((module) => module.id === id);

  /** Links each listed file to a stored copy the caller may read, when there is one. */
  async function linked<T extends { sha1?: string; sha256?: string }>(
    principal: Principal,
    entries: T[],
  ) {
    const stored = await storedFilesWith(db, {
      sha1: entries.flatMap((e) => (e.sha1 ? [e.sha1.toLowerCase()] : [])),
      sha256: entries.flatMap((e) => (e.sha256 ? [e.sha256.toLowerCase()] : [])),
    });
    const walker = await deps.access.walker(principal);
    const readable = stored.filter((file) =>
      walker.access.can('read', file.repoKey, file.path, 'file'),
    );
    return entries.map((entry) => {
      const copy = readable.find(
        (file) =>
          (entry.sha256 && file.sha256 === entry.sha256.toLowerCase()) ||
          (entry.sha1 && file.sha1 === entry.sha1.toLowerCase()),
      );
      return copy ? { ...entry, repoKey: copy.repoKey, path: copy.path } : entry;
    });
  }

  return {
    /**
     * `global-search/builds`: each build name the caller may read once, with its latest
     * build, newest first, filtered by name and project, a page at a time.
     */
    async search(
      principal: Principal,
      query: { name?: string; projectKey?: string; offset: number; limit: number },
      filter: BuildSearchFilter = {},
    ) {
      const decider = await deps.access.forBuilds(principal);
      const narrowing: LatestBuildsFilter = {
        project: projectOf(query.projectKey),
        nameLike: nameLike(query.name),
        buildRepo: filter.buildRepo,
        before: filter.before,
        after: filter.after,
        readable: decider.readFilter,
      };
      // By start (the default), the database sorts and pages; by name or number, the names'
      // rows are sorted here, digits compared as numbers (build-search.ts).
      const { rows, total } =
        (filter.orderBy ?? 'build_time') === 'build_time'
          ? await latestBuildsPage(db, narrowing, {
              offset: query.offset,
              limit: query.limit,
              ascending: filter.direction === 'asc',
            })
          : pageOf(orderBuilds(await latestBuildPerName(db, narrowing), filter), query);
      return {
        versions: rows.map((row) => ({
          build_name: row.name,
          build_number: row.number,
          build_time: millis(row),
          build_started: row.started,
          build_repo: row.repository_key,
          project_key: row.project_key ?? UNASSIGNED,
        })),
        total,
        hasMore: query.offset + query.limit < total,
      };
    },

    /** The builds of a name, newest first, each with its latest status (the versions page). */
    async history(
      principal: Principal,
      name: string,
      projectKey?: string,
      filter: BuildSearchFilter = {},
    ) {
      const rows = orderBuilds(
        (await builds.numbers(principal, name, projectKey)).filter(matchesFilter(filter)),
        filter,
      );
      return Promise.all(
        rows.map(async (row) => {
          const [document, promotions] = await Promise.all([
            buildDocument(db, row.id) as Promise<BuildInfo>,
            promotionsOf(db, row.id),
          ]);
          return {
            buildName: row.name,
            buildNumber: row.number,
            time: millis(row),
            started: row.started,
            status: promotions[0]?.status ?? '',
            ciUrl: typeof document.url === 'string' ? document.url : '',
            projectKey: row.project_key ?? undefined,
          };
        }),
      );
    },

    async generalInfo(principal: Principal, at: BuildCoordinates) {
      const { row, document } = await open(principal, at);
      const pick = (key: string) => document[key];
      return {
        name: row.name,
        number: row.number,
        started: row.started,
        time: millis(row),
        type: pick('type'),
        durationMillis: pick('durationMillis'),
        agent: pick('agent'),
        buildAgent: pick('buildAgent'),
        principal: pick('principal'),
        artifactoryPrincipal: pick('artifactoryPrincipal'),
        url: pick('url'),
        vcs: pick('vcs') ?? [],
        projectKey: row.project_key ?? undefined,
      };
    },

    async publishedModules(principal: Principal, at: BuildCoordinates) {
      const { document } = await open(principal, at);
      return (document.modules ?? []).map((module) => ({
        moduleId: module.id,
        type: module.type ?? '',
        numOfArtifacts: module.artifacts?.length ?? 0,
        numOfDependencies: module.dependencies?.length ?? 0,
      }));
    },

    async moduleArtifacts(principal: Principal, at: BuildCoordinates, moduleId: string) {
      const { document } = await open(principal, at);
      return linked(principal, moduleOf(document, moduleId)?.artifacts ?? []);
    },

    async moduleDependencies(principal: Principal, at: BuildCoordinates, moduleId: string) {
      const { document } = await open(principal, at);
      return linked(principal, moduleOf(document, moduleId)?.dependencies ?? []);
    },

    /** Environment (`buildInfo.env.*`, prefix dropped) or system properties, sorted by key. */
    async properties(principal: Principal, at: BuildCoordinates, kind: 'env' | 'system') {
      const { document } = await open(principal, at);
      return Object.entries(document.properties ?? {})
        .filter(([key]) => key.startsWith(ENV_PREFIX) === (kind === 'env'))
        .map(([key, value]) => ({
          key: kind === 'env' ? key.slice(ENV_PREFIX.length) : key,
          value: String(value),
        }))
        .sort((a, b) => a.key.localeCompare(b.key));
    },

    async issues(principal: Principal, at: BuildCoordinates) {
      const { document } = await open(principal, at);
      const issues = (document.issues ?? {}) as {
        tracker?: { name?: string; version?: string };
        affectedIssues?: { key?: string; url?: string; summary?: string; aggregated?: boolean }[];
      };
      return { tracker: issues.tracker ?? null, issues: issues.affectedIssues ?? [] };
    },

    async releaseHistory(principal: Principal, at: BuildCoordinates) {
      const { row } = await open(principal, at);
      return (await promotionsOf(db, row.id)).map((promotion) => ({
        status: promotion.status,
        comment: promotion.comment,
        repository: promotion.repository ?? '',
        timestamp: promotion.timestamp.getTime(),
        user: promotion.user_name,
        ciUser: promotion.ci_user ?? '',
      }));
    },

    async json(principal: Principal, at: BuildCoordinates) {
      const { row } = await open(principal, at);
      return JSON.stringify(await builds.documentOf(row), null, 2);
    },

    /** The build before this one (by start), the diff's default other side. */
    async previous(principal: Principal, at: BuildCoordinates) {
      const { row } = await open(principal, at);
      const rows = await builds.numbers(principal, at.name, at.projectKey);
      const before = rows.find((other) => millis(other) < millis(row));
      return before ? { buildNumber: before.number, time: millis(before) } : null;
    },
  };
}

export type BuildViews = ReturnType<typeof createBuildViews>;
