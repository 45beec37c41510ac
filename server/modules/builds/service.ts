import type { Database } from '../../db/database.ts';
import { AccessDenied, BadRequest, NotFound } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { BuildDecider } from '../access-control/build-decider.ts';
import type { AccessService } from '../access-control/service.ts';
import type { RepoAction } from '../access-control/decider.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import { compileAntPattern } from '../artifacts/ant-pattern.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import { buildRepositoryOf, type BuildInfo } from './build-info.ts';
import { createBuildStore, placeOf } from './build-store.ts';
import { diffBuilds } from './diff.ts';
import { BUILD_MESSAGES as M } from './messages.ts';
import {
  buildDocument,
  buildsNamed,
  latestBuildPerName,
  projectExists,
  promotionsOf,
  type BuildRow,
} from './queries.ts';
import { createBuildRemoval } from './removal.ts';
import { retentionDiscards } from './retention.ts';

const judged = (row: BuildRow) => ({ repositoryKey: row.repository_key, path: row.path });

/**
 * Builds (docs/builds.md): CI publishes build-info documents, people list, read, compare,
 * delete, rename and promote them. Every call is judged by the caller's build decider; a
 * build the caller may not read is as absent as one that does not exist.
 */
export function createBuildsService(deps: {
  db: Database;
  artifacts: ArtifactsService;
  repositories: RepositoriesService;
  access: AccessService;
}) {
  const { db, access } = deps;
  const store = createBuildStore(deps);
  const removal = createBuildRemoval(deps);

  /** A project's build-info repository, or the default one; an unknown project is a 404. */
  async function repositoryOf(projectKey: string | undefined) {
    if (projectKey && !(await projectExists(db, projectKey)))
      throw new NotFound(M.unknownProject(projectKey));
    return buildRepositoryOf(projectKey);
  }

  /** The builds of a name the caller may read, in a project's repository or the default one. */
  async function readable(decider: BuildDecider, name: string, projectKey?: string) {
    const repositoryKey = await repositoryOf(projectKey);
    const rows = await buildsNamed(db, name);
    return rows.filter(
      (row) => row.repository_key === repositoryKey && decider.can('read', judged(row)),
    );
  }

  function requireAction(decider: BuildDecider, action: RepoAction, row: BuildRow) {
    if (!decider.can(action, judged(row))) throw new AccessDenied(M.forbidden);
  }

  /** One build: by number, the latest start unless a start is given. */
  async function find(
    principal: Principal,
    name: string,
    number: string,
    options: { started?: string; projectKey?: string } = {},
  ) {
    const decider = await access.forBuilds(principal);
    const row = (await readable(decider, name, options.projectKey)).find(
      (build) =>
        build.number === number &&
        (options.started === undefined ||
          build.started === options.started ||
          String(build.started_at.getTime()) === options.started),
    );
    if (!row) throw new NotFound(M.noBuildNumber(name, number));
    return { row, decider };
  }

  async function documentOf(row: BuildRow) {
    const [document, promotions] = await Promise.all([
      buildDocument(db, row.id),
      promotionsOf(db, row.id),
    ]);
    const statuses = promotions.reverse().map((p) => ({
      status: p.status,
      comment: p.comment,
      repository: p.repository ?? undefined,
      timestamp: p.timestamp.toISOString(),
      user: p.user_name,
      ciUser: p.ci_user ?? undefined,
    }));
    return statuses.length > 0 ? { ...document, statuses } : document;
  }

  /** Compared as rows, one query per kind: neither document is read (docs/builds.md, "Scale"). */
  const diffRows = (current: BuildRow, previous: BuildRow) =>
    diffBuilds(db, current.id, previous.id);

  return {
    store,
    find,
    documentOf,
    readable,

    /** PUT /api/build: checks permissions and retention first, so a refusal stores nothing. */
    async upload(principal: Principal, info: BuildInfo, projectKey?: string) {
      const project = projectKey || info.project || undefined;
      await repositoryOf(project);
      const place = placeOf(info, project);
      const decider = await access.forBuilds(principal);
      if (!decider.can('deploy', place)) throw new AccessDenied(M.forbidden);
      const existing = (await buildsNamed(db, info.name)).filter(
        (row) => row.repository_key === place.repositoryKey,
      );
      const replaced = existing.find((row) => row.path === place.path);
      if (replaced) requireAction(decider, 'delete', replaced);
      const discards = info.buildRetention
        ? retentionDiscards(
            existing.filter((row) => row !== replaced),
            { number: info.number, startedAt: place.startedAt },
            info.buildRetention,
          )
        : [];
      for (const row of discards) requireAction(decider, 'delete', row);
      const deleteArtifacts = info.buildRetention?.deleteBuildArtifacts === true;
      const walker = await access.walker(principal);
      const planned = await removal.plan(discards, deleteArtifacts, walker);
      await store.write(info, place, project, principal.name);
      await removal.apply(planned, walker);
    },

    /** GET /api/build: each name the caller may read once, with its latest start. */
    async names(principal: Principal, projectKey?: string) {
      const decider = await access.forBuilds(principal);
      const repositoryKey = await repositoryOf(projectKey);
      const latest = await latestBuildPerName(db, {
        buildRepo: repositoryKey,
        readable: decider.readFilter,
      });
      return latest.sort((a, b) => b.started_at.getTime() - a.started_at.getTime());
    },

    /** The names whose builds a target's patterns cover (the permissions editor's preview). */
    async namesMatching(principal: Principal, includes: string[], excludes: string[]) {
      const include = (includes.length > 0 ? includes : ['**']).map(compileAntPattern);
      const exclude = excludes.map(compileAntPattern);
      const covered = (await this.names(principal)).filter((row) => {
        const paths = [row.path, `${row.name}/`];
        return (
          paths.some((path) => include.some((pattern) => pattern.test(path))) &&
          !exclude.some((pattern) => pattern.test(row.path))
        );
      });
      return { builds: covered.map((row) => row.name) };
    },

    /** GET /api/build/{name}: the numbers the caller may read, newest first. */
    async numbers(principal: Principal, name: string, projectKey?: string) {
      const rows = await readable(await access.forBuilds(principal), name, projectKey);
      if (rows.length === 0) throw new NotFound(M.noBuild(name));
      return rows;
    },

    /** GET /api/build/{name}/{number}?diff=: what changed from the other build to this one. */
    async diff(
      principal: Principal,
      name: string,
      number: string,
      other: string,
      projectKey?: string,
    ) {
      const [current, previous] = await Promise.all([
        find(principal, name, number, { projectKey }),
        find(principal, name, other, { projectKey }),
      ]);
      return diffRows(current.row, previous.row);
    },

    /** The console's diff: this build against another of its name, by number and start. */
    async diffAt(
      principal: Principal,
      here: { name: string; number: string; startTime: string; projectKey?: string },
      other: { number: string; startTime?: string },
    ) {
      const { projectKey } = here;
      const [current, previous] = await Promise.all([
        find(principal, here.name, here.number, { started: here.startTime, projectKey }),
        find(principal, here.name, other.number, { started: other.startTime, projectKey }),
      ]);
      return diffRows(current.row, previous.row);
    },

    /** DELETE /api/build/{name}: chosen numbers or all, with their artifacts when asked. */
    async delete(
      principal: Principal,
      name: string,
      request: { numbers?: string[]; all: boolean; artifacts: boolean; projectKey?: string },
    ) {
      if (!request.all && (request.numbers ?? []).length === 0) throw new BadRequest(M.deleteWhat);
      const decider = await access.forBuilds(principal);
      const rows = await readable(decider, name, request.projectKey);
      const chosen = request.all
        ? rows
        : rows.filter((row) => request.numbers!.includes(row.number));
      if (chosen.length === 0) throw new NotFound(M.noBuild(name));
      for (const row of chosen) requireAction(decider, 'delete', row);
      const walker = await access.walker(principal);
      await removal.apply(await removal.plan(chosen, request.artifacts, walker), walker);
      return chosen;
    },

    /** The console's delete: exact builds (name, number, start), all checked before any goes. */
    async deleteExact(
      principal: Principal,
      coordinates: { name: string; number?: string; startTime?: string; projectKey?: string }[],
    ) {
      const decider = await access.forBuilds(principal);
      const chosen: BuildRow[] = [];
      for (const at of coordinates) {
        const rows = (await readable(decider, at.name, at.projectKey)).filter(
          (row) =>
            (at.number === undefined || row.number === at.number) &&
            (at.startTime === undefined || String(row.started_at.getTime()) === at.startTime),
        );
        if (rows.length === 0) throw new NotFound(M.noBuild(at.name));
        chosen.push(...rows);
      }
      for (const row of chosen) requireAction(decider, 'delete', row);
      const walker = await access.walker(principal);
      await removal.apply(await removal.plan(chosen, false, walker), walker);
      return chosen;
    },

    /** POST /api/build/rename/{name}?to=: every build of the name, its history kept. */
    async rename(principal: Principal, from: string, to: string, projectKey?: string) {
      if (!to) throw new BadRequest(M.renameTo);
      const decider = await access.forBuilds(principal);
      const rows = await readable(decider, from, projectKey);
      if (rows.length === 0) throw new NotFound(M.noBuild(from));
      for (const row of rows) requireAction(decider, 'delete', row);
      for (const row of rows) {
        const info = { ...(await buildDocument(db, row.id)), name: to } as BuildInfo;
        const place = placeOf(info, projectKey);
        if (!decider.can('deploy', place)) throw new AccessDenied(M.forbidden);
      }
      const walker = await access.walker(principal);
      for (const row of rows) {
        const info = { ...(await buildDocument(db, row.id)), name: to } as BuildInfo;
        const history = (await promotionsOf(db, row.id)).reverse().map((p) => ({
          build_id: 0,
          status: p.status,
          comment: p.comment,
          repository: p.repository,
          ci_user: p.ci_user,
          user_name: p.user_name,
          timestamp: p.timestamp,
        }));
        await store.write(info, placeOf(info, projectKey), projectKey, principal.name, history);
        await removal.apply(await removal.plan([row], false, walker), walker);
      }
    },
  };
}

export type BuildsService = ReturnType<typeof createBuildsService>;
