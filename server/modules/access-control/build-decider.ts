import { compileAntPattern } from '../artifacts/ant-pattern.ts';
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
}

export const ADMIN_BUILDS: BuildDecider = { admin: true, can: () => true };
export const NO_BUILDS: BuildDecider = { admin: false, can: () => false };

interface BuildGrant {
  repositories: Set<string>;
  includes: RegExp[];
  excludes: RegExp[];
  actions: Set<RepoAction>;
}

function buildGrantsFor(targets: readonly PermissionTarget[], grantee: Grantee): BuildGrant[] {
  return targets.flatMap((target) => {
    const section = target.build;
    if (!section) return [];
    const actions = sectionActions(section, grantee);
    if (actions.size === 0) return [];
    const includes = section['include-patterns'].filter(Boolean);
    return [
      {
        repositories: new Set(section.repositories.map((key) => key.toLowerCase())),
        includes: (includes.length > 0 ? includes : ['**']).map(compileAntPattern),
        excludes: section['exclude-patterns'].filter(Boolean).map(compileAntPattern),
        actions,
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
  return {
    admin: false,
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
