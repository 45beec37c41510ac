import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { retryTransaction } from '../../db/transaction-retry.ts';
import type { ColdStore } from '../../storage/cold-store.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import { readProperties } from '../artifacts/properties.ts';
import { holdForRemoval } from '../artifacts/tree-writes.ts';
import { releaseUnreferencedBlob } from '../maintenance/blob-release.ts';
import type { BlobHold } from '../maintenance/blob-hold.ts';
import { currentFile, recordArchivedItem, type Candidate } from './queries.ts';

export interface TakeOutParts {
  db: Database;
  filestore: Filestore;
  cold: ColdStore;
  artifacts: Pick<ArtifactsService, 'deleteTree'>;
  blobHold: BlobHold;
}

/** What taking one file out did: whether it went, and the bytes that left the filestore. */
export interface TakenOut {
  taken: boolean;
  freed: number;
}

/**
 * Takes one file out of its repository, in an order that loses nothing wherever it stops:
 * its content is copied to the cold store (verified, durable) first; then one transaction
 * records it in the archive and deletes its row, unless the file changed since it was
 * chosen; last its content leaves the filestore when no other file refers to it. A stop
 * after the copy leaves a spare copy; after the commit, content garbage collection removes.
 */
export async function takeOut(
  parts: TakeOutParts,
  item: Candidate,
  execution: { id: number; startedAt: Date; action: 'archive' | 'delete'; actor: string },
): Promise<TakenOut> {
  const { db, filestore, cold, artifacts } = parts;
  await cold.put(item.sha256, () => filestore.read(item.sha256));
  const repo = { id: item.repositoryId, key: item.repo };
  const taken = await retryTransaction(() =>
    db.transaction().execute(async (tx) => {
      const held = await holdForRemoval(tx, repo.id, item.path);
      if (!held || held.folder) return false;
      const now = await currentFile(tx, repo.id, item.path);
      // Replaced since it was chosen: the new content was not what the policy chose.
      if (!now || now.sha256 !== item.sha256) return false;
      const properties = await readProperties(tx, Number(now.id));
      await recordArchivedItem(tx, execution.id, execution.action, item, properties);
      await artifacts.deleteTree(repo, item.path, execution.actor, tx);
      return true;
    }),
  );
  if (!taken) return { taken, freed: 0 };
  return { taken, freed: await freeContent(parts, item.sha256, execution.startedAt) };
}

/**
 * Removes content nothing refers to any more from the filestore, as garbage collection would
 * but at once: the blob's row is locked and checked again, and content claimed since the run
 * began (a deploy of it in flight) stays. While a backup copies, garbage collection does it later.
 */
async function freeContent(parts: TakeOutParts, sha256: string, claimedBefore: Date) {
  const { db, filestore, blobHold } = parts;
  return db.transaction().execute(async (tx) => {
    if (!(await blobHold.collectionAllowed(tx))) return 0;
    const unclaimed = sql<boolean>`blobs.touched_at < ${claimedBefore}`;
    return (await releaseUnreferencedBlob(tx, filestore, sha256, unclaimed)) ?? 0;
  });
}
