import { asBulkWork } from '../../db/bulk-work.ts';
import type { Database } from '../../db/database.ts';
import { isMetadataPath } from '../remote/metadata-patterns.ts';
import type { Criterion } from '../search/criteria.ts';
import { addRemoteChosen, chosenTotals, withRemoteChoiceTable } from './preview-queries.ts';
import { candidateBatch, remoteFilesExist, type Candidate } from './queries.ts';

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
 * only when every file holding it is chosen. One statement sums the choice inside the
 * database (preview-queries.ts): nothing of it passes through this process, except a remote
 * repository's files, which are looked at by path a batch at a time (only those chosen go,
 * by id, into a table of the preview's session).
 */
export async function previewOf(db: Database, where: Criterion): Promise<Preview> {
  if (!(await asBulkWork(() => remoteFilesExist(db))))
    return asBulkWork(() => chosenTotals(db, where, undefined));
  return withRemoteChoiceTable(db, async (session, table) => {
    for await (const batch of selectedBatches(session, where, true))
      await asBulkWork(() =>
        addRemoteChosen(
          session,
          table,
          batch.map((item) => item.id),
        ),
      );
    return asBulkWork(() => chosenTotals(session, where, table));
  });
}
