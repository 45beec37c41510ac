import type { Database } from '../../db/database.ts';
import { AccessDenied, NotFound } from '../../errors.ts';
import { BUILD_MESSAGES as M } from './messages.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import { holdForRemoval } from '../artifacts/tree-writes.ts';
import type { ItemWalker } from '../access-control/subtree-walk.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import {
  buildFiles,
  checksumKeptBy,
  nodeProperties,
  storedFilesWith,
  type BuildRow,
} from './queries.ts';

export interface RemovalPlan {
  builds: BuildRow[];
  /** The stored artifacts that go with them. */
  artifacts: { repoKey: string; path: string }[];
}

/**
 * Removes builds, and when asked their artifacts. A build's artifacts are the stored files
 * whose content one of its modules lists as an artifact and whose `build.name` and
 * `build.number` properties name that build (what CI tools set when they deploy): content
 * found by checksum alone may be anyone's. A file whose content another build that stays
 * still lists is kept, whichever build it came from.
 */
export function createBuildRemoval(deps: {
  db: Database;
  artifacts: ArtifactsService;
  repositories: RepositoriesService;
}) {
  const { db } = deps;

  async function artifactsOf(build: BuildRow, leaving: number[]) {
    const files = (await buildFiles(db, build.id)).filter((file) => file.kind === 'artifact');
    const stored = await storedFilesWith(db, {
      sha1: files.flatMap((file) => (file.sha1 ? [file.sha1] : [])),
      sha256: files.flatMap((file) => (file.sha256 ? [file.sha256] : [])),
    });
    const properties = await nodeProperties(
      db,
      stored.map((file) => Number(file.id)),
      ['build.name', 'build.number'],
    );
    const owned = stored.filter((file) => {
      const own = properties.filter((p) => Number(p.node_id) === Number(file.id));
      return (
        own.some((p) => p.key === 'build.name' && p.value === build.name) &&
        own.some((p) => p.key === 'build.number' && p.value === build.number)
      );
    });
    const kept = [];
    for (const file of owned)
      if (!(await checksumKeptBy(db, { sha1: file.sha1, sha256: file.sha256! }, leaving)))
        kept.push({ repoKey: file.repoKey, path: file.path });
    return kept;
  }

  return {
    /** Works out what goes and checks Delete on every artifact before anything is removed. */
    async plan(
      builds: BuildRow[],
      withArtifacts: boolean,
      walker: ItemWalker,
    ): Promise<RemovalPlan> {
      const leaving = builds.map((build) => Number(build.id));
      const artifacts = [];
      if (withArtifacts)
        for (const build of builds) artifacts.push(...(await artifactsOf(build, leaving)));
      // The refusal names no path: the caller may not be allowed to know of it.
      for (const item of artifacts)
        if (!walker.access.can('delete', item.repoKey, item.path, 'file'))
          throw new AccessDenied(M.artifactsNotDeletable);
      return { builds, artifacts };
    },

    /** Removes the builds' files (their rows go with them), then their artifacts. */
    async apply(plan: RemovalPlan, walker: ItemWalker) {
      const user = walker.principal.name;
      for (const build of plan.builds) {
        const repo = await deps.repositories.findRow(build.repository_key);
        if (!repo) continue;
        // The build's file, its rows and its event (deleteTree's) go together or not at all.
        await retryTransaction(() =>
          db.transaction().execute(async (tx) => {
            if (!(await holdForRemoval(tx, repo.id, build.path))) return;
            await deps.artifacts.deleteTree(repo, build.path, user, tx);
          }),
        );
      }
      for (const item of plan.artifacts) {
        try {
          await deps.artifacts.delete(item.repoKey, item.path, walker);
        } catch (error) {
          // Gone meanwhile: what was asked for is done.
          if (!(error instanceof NotFound)) throw error;
        }
      }
    },
  };
}
