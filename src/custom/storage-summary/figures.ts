import type { StorageSummary } from '../../api/storageSummary';

/** `part` as a percentage of `whole`, two decimals; 0 when there is no whole. */
export const percentOf = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100;

/**
 * What deduplication saves: the artifacts' size minus what their contents take on disk, and
 * that as a share of the artifacts' size.
 */
export function deduplicationSaving({
  artifactsSize,
  binariesSize,
}: StorageSummary['binariesSummary']) {
  // Contents no artifact refers to any more (awaiting garbage collection) can make the
  // binaries outweigh the artifacts; nothing is saved then, rather than a negative saving.
  const bytes = Math.max(0, artifactsSize - binariesSize);
  return { bytes, percent: percentOf(bytes, artifactsSize) };
}
