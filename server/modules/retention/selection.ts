import { asBulkWork } from '../../db/bulk-work.ts';
import type { Database } from '../../db/database.ts';
import { isMetadataPath } from '../remote/metadata-patterns.ts';
import type { Criterion } from '../search/criteria.ts';
import { candidateBatch, holdersCount, type Candidate } from './queries.ts';

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
export async function* selectedBatches(db: Database, where: Criterion) {
  for (let after = 0; ;) {
    const batch = await asBulkWork(() => candidateBatch(db, where, after, BATCH));
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
 * only when every file holding it is chosen.
 */
export async function previewOf(db: Database, where: Criterion): Promise<Preview> {
  const chosen = new Map<string, { files: number; size: number }>();
  let count = 0;
  let totalSize = 0;
  for await (const batch of selectedBatches(db, where)) {
    for (const item of batch) {
      count += 1;
      totalSize += item.size;
      const content = chosen.get(item.sha256) ?? { files: 0, size: item.size };
      content.files += 1;
      chosen.set(item.sha256, content);
    }
  }
  let freedBytes = 0;
  const contents = [...chosen.keys()];
  for (let start = 0; start < contents.length; start += BATCH) {
    const slice = contents.slice(start, start + BATCH);
    const holders = await asBulkWork(() => holdersCount(db, slice));
    for (const sha256 of slice) {
      const content = chosen.get(sha256)!;
      if ((holders.get(sha256) ?? 0) <= content.files) freedBytes += content.size;
    }
  }
  return { count, totalSize, freedBytes };
}
