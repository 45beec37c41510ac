import { Conflict } from '../../errors.ts';
import { MAVEN_TYPES, isSnapshotVersion, parseMavenPath } from './layout.ts';

/** The Maven settings of a repository (Artifactory's names and defaults). */
export interface MavenPolicy {
  handleReleases: boolean;
  handleSnapshots: boolean;
  /** Unique snapshot builds kept per version; 0 keeps them all. */
  maxUniqueSnapshots: number;
  /** Whether a POM may sit at a path its coordinates do not name. */
  suppressPomConsistencyChecks: boolean;
}

interface RepoLike {
  key: string;
  package_type: string;
  config: unknown;
}

export function mavenPolicy(repo: RepoLike): MavenPolicy {
  const config = (repo.config ?? {}) as Partial<MavenPolicy>;
  return {
    handleReleases: config.handleReleases ?? true,
    handleSnapshots: config.handleSnapshots ?? true,
    maxUniqueSnapshots: config.maxUniqueSnapshots ?? 0,
    suppressPomConsistencyChecks: config.suppressPomConsistencyChecks ?? false,
  };
}

/** The version folder a path lies in when it is an artifact's or a snapshot's metadata. */
function versionOf(path: string): string | undefined {
  const parsed = parseMavenPath(path);
  if (parsed) return parsed.version;
  const parts = path.split('/');
  return parts.length >= 2 && isSnapshotVersion(parts.at(-2)!) ? parts.at(-2) : undefined;
}

/**
 * Whether a Maven repository takes and serves this path under its release and snapshot
 * handling: a release-only repository has no snapshots and the other way round. Paths that
 * are neither (metadata of an artifact, other files) are always served.
 */
export function servesByPolicy(repo: RepoLike, path: string): boolean {
  if (!MAVEN_TYPES.has(repo.package_type)) return true;
  const version = versionOf(path);
  return !version || handlesVersion(repo, version);
}

/** Whether a Maven repository handles a version at all: releases, snapshots, or both. */
export function handlesVersion(repo: RepoLike, version: string): boolean {
  if (!MAVEN_TYPES.has(repo.package_type)) return true;
  const policy = mavenPolicy(repo);
  return isSnapshotVersion(version) ? policy.handleSnapshots : policy.handleReleases;
}

export function assertPolicyAllows(repo: RepoLike, path: string): void {
  if (!servesByPolicy(repo, path))
    throw new Conflict(
      `The repository '${repo.key}' rejected the resolution of an artifact '${repo.key}:${path}' due to conflict in the snapshot release handling policy.`,
    );
}
