import { antPatternPosix, compileAntPattern } from '../artifacts/ant-pattern.ts';
import type { RepoAction } from './decider.ts';
import { sectionActions, type Grantee } from './grants.ts';
import type { PermissionTarget } from './permission-target.ts';

/** A build as permissions judge it: its repository, and its file's path there (`name/...`). */
export interface JudgedBuild {
  repositoryKey: string;
  path: string;
}

/**
 * What one caller may do with builds (docs/builds.md, "Permissions"): read to see, deploy to
 * upload, delete to delete, manage to promote. The permission targets' build sections decide
 * with their include and exclude patterns over the build's file path in its repository,
 * `{name}/{number}-{started}.json`, so "By Name" (`name/**`) and "Any" (`**`) work as the
 * console's editor writes them. A project's builds live in its `<project>-build-info`
 * repository, which project roles reach as they reach the project's other repositories.
 */
export interface BuildDecider {
  readonly admin: boolean;
  can(action: RepoAction, build: JudgedBuild): boolean;
  /** `can('read', ...)` as a filter the database applies; `all` for an administrator. */
  readonly readFilter: BuildReadFilter | 'all';
}

/**
 * Who may read which builds, for SQL (the builds list, docs/builds.md "Scale"): a build is
 * readable when one grant names its repository (lower-cased), one include and no exclude
 * matches its path (PostgreSQL expressions of the Ant patterns). `byName` when every pattern
 * judges a build by its name alone (`**`, `{name}/**`, a folder `x/`), so that each name's
 * latest build speaks for all the builds of the name.
 */
export interface BuildReadFilter {
  grants: { repositories: string[]; includes: string[]; excludes: string[] }[];
  byName: boolean;
}

export const ADMIN_BUILDS: BuildDecider = { admin: true, can: () => true, readFilter: 'all' };
export const NO_BUILDS: BuildDecider = {
  admin: false,
  can: () => false,
  readFilter: { grants: [], byName: true },
};

/**
 * Whether a pattern's answer is the same for every build of a name. A build's path is
 * `{name}/{file}` with no `/` in the file, so a pattern ending in `/**` or `/` matches when a
 * part of the path before one of its slashes, a part of the name, matches what comes before.
 */
const judgesByName = (pattern: string) =>
  pattern === '**' || pattern.endsWith('/**') || pattern.endsWith('/');

interface BuildGrant {
  repositories: Set<string>;
  includes: RegExp[];
  excludes: RegExp[];
  actions: Set<RepoAction>;
  /** The patterns as the section gives them. */
  patterns: { includes: string[]; excludes: string[] };
}

function buildGrantsFor(targets: readonly PermissionTarget[], grantee: Grantee): BuildGrant[] {
  return targets.flatMap((target) => {
    const section = target.build;
    if (!section) return [];
    const actions = sectionActions(section, grantee);
    if (actions.size === 0) return [];
    const given = section['include-patterns'].filter(Boolean);
    const includes = given.length > 0 ? given : ['**'];
    const excludes = section['exclude-patterns'].filter(Boolean);
    return [
      {
        repositories: new Set(section.repositories.map((key) => key.toLowerCase())),
        includes: includes.map(compileAntPattern),
        excludes: excludes.map(compileAntPattern),
        actions,
        patterns: { includes, excludes },
      },
    ];
  });
}

/**
 * Project roles as build grants: a role's actions on the project's repositories apply to the
 * builds in its `<project>-build-info` repository (projects/project-targets.ts).
 */
export const projectBuildTargets = (projectTargets: readonly PermissionTarget[]) =>
  projectTargets.flatMap((target) =>
    target.repo ? [{ name: target.name, build: target.repo } as PermissionTarget] : [],
  );

/** The build decider from the targets naming a caller (project roles' included). */
export function buildDeciderFrom(
  targets: readonly PermissionTarget[],
  grantee: Grantee,
): BuildDecider {
  const grants = buildGrantsFor(targets, grantee);
  const reading = grants.filter((grant) => grant.actions.has('read'));
  return {
    admin: false,
    readFilter: {
      grants: reading.map((grant) => ({
        repositories: [...grant.repositories],
        includes: grant.patterns.includes.map(antPatternPosix),
        excludes: grant.patterns.excludes.map(antPatternPosix),
      })),
      byName: reading.every((grant) =>
        [...grant.patterns.includes, ...grant.patterns.excludes].every(judgesByName),
      ),
    },
    can(action, build) {
      const key = build.repositoryKey.toLowerCase();
      return grants.some(
        (grant) =>
          grant.actions.has(action) &&
          grant.repositories.has(key) &&
          !grant.excludes.some((pattern) => pattern.test(build.path)) &&
          grant.includes.some((pattern) => pattern.test(build.path)),
      );
    },
  };
}
