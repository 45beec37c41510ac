import { asBulkWork } from '../../db/bulk-work.ts';
import type { Database } from '../../db/database.ts';
import { isMetadataPath } from '../remote/metadata-patterns.ts';
import type { Criterion } from '../search/criteria.ts';
import { addChosen, chosenTotals, withChosenTable } from './preview-queries.ts';
import { addLocalCandidates, candidateBatch, remoteFilesExist, type Candidate } from './queries.ts';

const BATCH = 500;

/**
 * A remote repository's cached metadata (an npm packument, maven-metadata.xml, a PyPI simple
 * page) is what its virtual repositories merge their own metadata from: never a policy's.
 */
const neededByVirtuals = (item: Candidate) =>
  item.rclass === 'remote' && isMetadataPath(item.packageType, item.path);

/**
 * The files a policy chooses, a batch at a time, with everything the retention rule keeps
 * left out (docs/retention.md, "What a policy never takes"): files a kept build needs
 * (queries.ts) and remote metadata virtual repositories need.
 */
export async function* selectedBatches(db: Database, where: Criterion, remoteOnly = false) {
  for (let after = 0; ;) {
    const batch = await asBulkWork(() => candidateBatch(db, where, after, BATCH, remoteOnly));
    const kept = batch.filter((item) => !neededByVirtuals(item));
    if (kept.length > 0) yield kept;
    if (batch.length < BATCH) return;
    after = batch.at(-1)!.id;
  }
}

export interface Preview {
  count: number;
  /** The chosen files' sizes added up: what they weigh in their repositories. */
  totalSize: number;
  /** What leaves the disk: the contents no file outside the choice shares. */
  freedBytes: number;
}

/**
 * Counts what a policy would take, honestly: content stored once for several files is freed
 * only when every file holding it is chosen. The chosen files go into a session-local table
 * and the database sums them: memory stays flat whatever the policy takes. Files outside
 * remote repositories go in one statement (a batch at a time through this process, a
 * million files took minutes); a remote's files a batch at a time, each looked at by path.
 */
export async function previewOf(db: Database, where: Criterion): Promise<Preview> {
  return withChosenTable(db, async (session, table) => {
    await asBulkWork(() => addLocalCandidates(session, table, where));
    if (await asBulkWork(() => remoteFilesExist(session)))
      for await (const batch of selectedBatches(session, where, true))
        await asBulkWork(() => addChosen(session, table, batch));
    return asBulkWork(() => chosenTotals(session, table));
  });
}
