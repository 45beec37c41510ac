import type { Database } from '../../db/database.ts';
import type { Principal } from '../../http/permissions.ts';
import { compileAntPattern } from '../artifacts/ant-pattern.ts';
import type { AccessService } from '../access-control/service.ts';
import { buildFiles, storedFilesWith } from './queries.ts';
import type { BuildsService } from './service.ts';

export interface PatternRequest {
  buildName: string;
  /** A number, `LATEST`, or `LAST_RELEASE` (the newest with a Released status). */
  buildNumber: string;
  /** `repoKey:path-pattern` (Ant), either side may be `*`; absent means every artifact. */
  artifactPattern?: string;
  /** The project whose build-info repository holds the build (the URL's `?project=` else). */
  project?: string;
}

/**
 * POST /api/build/patternArtifacts: the stored artifacts of builds that match a pattern, for
 * scripts that fetch what a build produced. Builds and files the caller may not read are
 * left out, as if absent.
 */
export async function patternArtifacts(
  deps: { db: Database; builds: BuildsService; access: AccessService },
  principal: Principal,
  requests: PatternRequest[],
  projectKey?: string,
) {
  const decider = await deps.access.forBuilds(principal);
  const artifacts = await deps.access.forPrincipal(principal);
  const answers = [];
  for (const request of requests) {
    const project = request.project || projectKey || undefined;
    const rows = await deps.builds.readable(decider, request.buildName, project);
    const row = await pick(deps, rows, request.buildNumber);
    if (!row) {
      answers.push({
        buildName: request.buildName,
        buildNumber: request.buildNumber,
        patternResults: [],
      });
      continue;
    }
    const [repoPattern, pathPattern] = (request.artifactPattern ?? '*:**').split(':', 2);
    const repoMatch = compileAntPattern(repoPattern || '*');
    const pathMatch = compileAntPattern(pathPattern || '**');
    const listed = (await buildFiles(deps.db, row.id)).filter((file) => file.kind === 'artifact');
    const stored = await storedFilesWith(deps.db, {
      sha1: listed.flatMap((file) => (file.sha1 ? [file.sha1] : [])),
      sha256: listed.flatMap((file) => (file.sha256 ? [file.sha256] : [])),
    });
    const files = stored.filter(
      (file) =>
        repoMatch.test(file.repoKey) &&
        pathMatch.test(file.path) &&
        artifacts.can('read', file.repoKey, file.path, 'file'),
    );
    answers.push({
      buildName: row.name,
      buildNumber: row.number,
      buildStarted: row.started,
      patternResults: files.map((file) => ({
        repoKey: file.repoKey,
        path: file.path,
        uri: `/artifactory/${file.repoKey}/${file.path}`,
      })),
    });
  }
  return answers;
}

async function pick(
  deps: { db: Database; builds: BuildsService },
  rows: Awaited<ReturnType<BuildsService['readable']>>,
  number: string,
) {
  if (number === 'LATEST') return rows[0];
  if (number !== 'LAST_RELEASE') return rows.find((row) => row.number === number);
  for (const row of rows) {
    const document = (await deps.builds.documentOf(row)) as { statuses?: { status: string }[] };
    if (document.statuses?.some((status) => status.status.toLowerCase() === 'released')) return row;
  }
  return undefined;
}
