import { buildLabel, isSnapshotVersion, parseMavenPath } from '../../formats/maven/layout.ts';
import { compareMavenVersions } from '../../formats/maven/version-order.ts';
import type { Principal } from '../../http/permissions.ts';
import { all, field } from './criteria.ts';
import type { SearchService } from './service.ts';
import { compileWildcard } from './wildcards.ts';

export interface LatestVersionQuestion {
  group: string;
  artifact: string;
  /** A snapshot version asks for its latest build; a pattern (`1.*`) narrows the versions. */
  version?: string;
  repos?: string[];
}

/**
 * `/api/search/latestVersion` over the Maven layout: the highest version folder of
 * `group/artifact` (Maven's version order), or a snapshot's latest unique build
 * (`1.0-20261123.101500-3`), among what the caller may read.
 */
export async function latestVersion(
  search: SearchService,
  principal: Principal,
  question: LatestVersionQuestion,
): Promise<string | undefined> {
  const artifactFolder = `${question.group.replaceAll('.', '/')}/${question.artifact}`;
  const { version } = question;
  if (version && isSnapshotVersion(version) && !/[*?]/.test(version)) {
    return latestSnapshotBuild(search, principal, `${artifactFolder}/${version}`, question.repos);
  }
  const folders = await search.stream(
    principal,
    {
      where: all(field('path', '$eq', artifactFolder), field('type', '$eq', 'folder')),
      sort: [],
      scope: 'artifacts',
    },
    { repos: question.repos },
  );
  const wanted = version ? compileWildcard(version) : undefined;
  let latest: string | undefined;
  for await (const folder of folders) {
    if (wanted && !wanted.test(folder.name)) continue;
    if (!latest || compareMavenVersions(folder.name, latest) > 0) latest = folder.name;
  }
  return latest;
}

async function latestSnapshotBuild(
  search: SearchService,
  principal: Principal,
  versionFolder: string,
  repos: string[] | undefined,
): Promise<string | undefined> {
  const files = await search.stream(
    principal,
    {
      where: all(field('path', '$eq', versionFolder), field('type', '$eq', 'file')),
      sort: [],
      scope: 'artifacts',
    },
    { repos },
  );
  const base = versionFolder.slice(versionFolder.lastIndexOf('/') + 1);
  let found = false;
  let latest: { label: string; buildNumber: number } | undefined;
  for await (const file of files) {
    const parsed = parseMavenPath(file.path);
    if (!parsed) continue;
    found = true;
    const build = parsed.snapshotBuild;
    if (build && (!latest || build.buildNumber > latest.buildNumber))
      latest = { label: buildLabel(build), buildNumber: build.buildNumber };
  }
  if (!found) return undefined;
  // Non-unique snapshots keep the -SNAPSHOT name: that is their latest version.
  return latest ? `${base.slice(0, -'-SNAPSHOT'.length)}-${latest.label}` : base;
}

/**
 * `/api/search/versions` over the Maven layout: every version folder of `group/artifact`
 * the caller may read (in any repository, or those named), highest first, a snapshot
 * marked `integration` as Artifactory marks it.
 */
export async function artifactVersions(
  search: SearchService,
  principal: Principal,
  question: LatestVersionQuestion,
): Promise<{ version: string; integration: boolean }[]> {
  const artifactFolder = `${question.group.replaceAll('.', '/')}/${question.artifact}`;
  const folders = await search.stream(
    principal,
    {
      where: all(field('path', '$eq', artifactFolder), field('type', '$eq', 'folder')),
      sort: [],
      scope: 'artifacts',
    },
    { repos: question.repos },
  );
  const wanted = question.version ? compileWildcard(question.version) : undefined;
  const versions = new Set<string>();
  for await (const folder of folders) {
    if (!wanted || wanted.test(folder.name)) versions.add(folder.name);
  }
  return [...versions]
    .sort((a, b) => compareMavenVersions(b, a))
    .map((version) => ({ version, integration: isSnapshotVersion(version) }));
}
