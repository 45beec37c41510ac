import { Readable } from 'node:stream';
import type { Database } from '../../db/database.ts';
import { Conflict } from '../../errors.ts';
import type { ArtifactsService, IndexHook } from '../artifacts/service.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import {
  BUILD_INFO_PACKAGE_TYPE,
  buildFilePath,
  buildRepositoryOf,
  startedAt,
  type BuildFileEntry,
  type BuildInfo,
} from './build-info.ts';
import { emitEvents } from '../events/outbox.ts';
import { buildEvent } from './build-events.ts';
import { insertBuild, insertPromotion, type BuildFile } from './queries.ts';

const lower = (value: string | undefined) => (value ? value.toLowerCase() : null);

/** Property names that hold secrets, as the JFrog CLI's default env-exclude reads them. */
const SECRET_PROPERTY = /password|psw|secret|key|token|auth/i;
export const REDACTED = '******';

/**
 * A CI server that sends its whole environment sends its secrets too: their values are
 * never stored, so no page, call or download of the build shows them.
 */
function redacted(properties: Record<string, string> | undefined) {
  if (!properties) return properties;
  return Object.fromEntries(
    Object.entries(properties).map(([key, value]) => [
      key,
      SECRET_PROPERTY.test(key) ? REDACTED : value,
    ]),
  );
}

/**
 * Every module's artifacts and dependencies as rows, checksums lower-cased for matching, each
 * with its place in the document: readers order by it, never by where a row sits in the table.
 */
export function buildFilesOf(info: BuildInfo): BuildFile[] {
  const rows = (
    module: { id: string },
    modulePosition: number,
    kind: BuildFile['kind'],
    entries: BuildFileEntry[] | undefined,
  ): BuildFile[] =>
    (entries ?? []).map((entry, position) => ({
      module_id: module.id,
      module_position: modulePosition,
      kind,
      position,
      name: (kind === 'artifact' ? entry.name : entry.id) ?? '',
      type: entry.type ?? null,
      scopes: entry.scopes?.join(',') ?? null,
      sha1: lower(entry.sha1),
      sha256: lower(entry.sha256),
      md5: lower(entry.md5),
    }));
  return (info.modules ?? []).flatMap((module, at) => [
    ...rows(module, at, 'artifact', module.artifacts),
    ...rows(module, at, 'dependency', module.dependencies),
  ]);
}

export interface StoredBuildPlace {
  repositoryKey: string;
  path: string;
  startedAt: Date;
}

/** Where a build goes: its project's build-info repository, at Artifactory's path. */
export function placeOf(info: BuildInfo, projectKey: string | undefined): StoredBuildPlace {
  const started = startedAt(info.started);
  return {
    repositoryKey: buildRepositoryOf(projectKey),
    path: buildFilePath(info.name, info.number, started),
    startedAt: started,
  };
}

/**
 * Writes build-info files and their index rows: the file and its rows land in one
 * transaction (the deploy's index hook), so a failed upload keeps neither.
 */
export function createBuildStore(deps: {
  db: Database;
  artifacts: ArtifactsService;
  repositories: RepositoriesService;
}) {
  /** The build-info repository, created at its first use as Artifactory does. */
  async function ensureRepository(key: string, projectKey: string | undefined) {
    if (await deps.repositories.findRow(key)) return;
    try {
      await deps.repositories.create(
        {
          key,
          rclass: 'local',
          packageType: BUILD_INFO_PACKAGE_TYPE,
          description: 'Build-info files published by CI servers',
          ...(projectKey ? { projectKey } : {}),
        } as Parameters<RepositoriesService['create']>[0],
        { systemType: true },
      );
    } catch (error) {
      // Another upload made it first.
      if (!(error instanceof Conflict)) throw error;
    }
  }

  return {
    ensureRepository,

    /** Stores a checked build; `promotions` carries a renamed build's release history. */
    async write(
      info: BuildInfo,
      place: StoredBuildPlace,
      projectKey: string | undefined,
      user: string,
      promotions: Parameters<typeof insertPromotion>[1][] = [],
    ) {
      await ensureRepository(place.repositoryKey, projectKey);
      const document = { ...info, properties: redacted(info.properties) };
      if (!info.properties) delete document.properties;
      delete document.buildRetention;
      const files = buildFilesOf(info);
      const index: IndexHook = async (tx, file) => {
        const buildId = await insertBuild(
          tx,
          {
            nodeId: file.id,
            repositoryKey: place.repositoryKey,
            projectKey: projectKey ?? null,
            name: info.name,
            number: info.number,
            started: info.started,
            startedAt: place.startedAt,
            path: place.path,
            document,
            user,
          },
          files,
        );
        for (const promotion of promotions)
          await insertPromotion(tx, { ...promotion, build_id: buildId });
        await emitEvents(tx, [buildEvent('uploaded', info, user)]);
      };
      await deps.artifacts.deploy({
        repoKey: place.repositoryKey,
        path: place.path,
        content: Readable.from([Buffer.from(JSON.stringify(document, null, 2))]),
        expected: {},
        byChecksum: false,
        properties: {},
        user,
        index,
      });
    },
  };
}
