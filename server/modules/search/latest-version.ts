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

/** What `/api/search/versions` asks: `g` and `a` may be left out (any group, any artifact). */
export interface VersionsQuestion {
  group?: string;
  artifact?: string;
  version?: string;
  repos?: string[];
}

/**
 * `/api/search/versions` over the Maven layout: every version of `group/artifact` the caller
 * may read (in any repository, or those named), highest first, a snapshot marked
 * `integration` as Artifactory marks it. Without `g` or `a`, as Artifactory allows, the
 * versions of every group or artifact that match the rest (docs/search.md).
 */
export async function artifactVersions(
  search: SearchService,
  principal: Principal,
  question: VersionsQuestion,
): Promise<{ version: string; integration: boolean }[]> {
  const wanted = question.version ? compileWildcard(question.version) : undefined;
  const found =
    question.group && question.artifact
      ? await versionFolders(search, principal, {
          ...question,
          group: question.group,
          artifact: question.artifact,
        })
      : await versionsOfFiles(search, principal, question);
  return [...found]
    .filter((version) => !wanted || wanted.test(version))
    .sort((a, b) => compareMavenVersions(b, a))
    .map((version) => ({ version, integration: isSnapshotVersion(version) }));
}

/** The version folders under `group/artifact`: one folder per version, files or not. */
async function versionFolders(
  search: SearchService,
  principal: Principal,
  question: LatestVersionQuestion,
) {
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
  const versions = new Set<string>();
  for await (const folder of folders) versions.add(folder.name);
  return versions;
}

/**
 * The versions of the Maven-layout files whose group and artifact match those given: with
 * either left out, a folder alone cannot say which part of its path is the group, so the
 * files' names decide (`artifact-version...` under `group/artifact/version/`).
 */
async function versionsOfFiles(
  search: SearchService,
  principal: Principal,
  question: VersionsQuestion,
) {
  const { group, artifact } = question;
  const folder = `${group ? group.replaceAll('.', '/') : '*'}/${artifact ?? '*'}/*`;
  const files = await search.stream(
    principal,
    {
      where: all(
        field('path', '$match', folder),
        field('name', '$match', `${artifact ?? '*'}-*`),
        field('type', '$eq', 'file'),
      ),
      sort: [],
      scope: 'artifacts',
    },
    { repos: question.repos },
  );
  const versions = new Set<string>();
  for await (const file of files) {
    const parsed = parseMavenPath(file.path);
    if (!parsed) continue;
    if (group && parsed.groupId !== group) continue;
    if (artifact && parsed.artifactId !== artifact) continue;
    versions.add(parsed.version);
  }
  return versions;
}
