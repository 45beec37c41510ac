import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { BlobRow } from './metadata-lines.ts';
import { INDEX_ENTRY, INDEX_MAGIC, INDEX_SUFFIX } from './pack-format.ts';

const DIGEST = 32;
/** Index entries read per block: 768 KiB, one read. */
const BLOCK_ENTRIES = 16384;

/** A digest's first 8 bytes as two unsigned 32-bit numbers: most comparisons need no more. */
interface DigestPrefix {
  high: number;
  low: number;
}

const prefixOf = (digest: Buffer): DigestPrefix => ({
  high: digest.readUInt32BE(0),
  low: digest.readUInt32BE(4),
});

/** An earlier pack's index, to look blobs up in. */
export interface EarlierIndex {
  pack: string;
  path: string;
}

export const indexesOf = (packsDir: string, packs: string[]): EarlierIndex[] =>
  packs.map((pack) => ({ pack, path: join(packsDir, `${pack}${INDEX_SUFFIX}`) }));

/**
 * One pack's index searched for ascending digests: a block of entries is passed over when its
 * last entry is below the digest looked for, searched by halves otherwise. Reads are
 * synchronous: the pack's thread searches as it packs (pack-worker.ts), and a block is one
 * read of the page cache. Digests are compared where they lie in the block, by their first 8
 * bytes as numbers, with no buffer made per comparison (a million entries turned into hex
 * strings cost seconds; a view per comparison, or `Buffer.compare` of ranges, a fifth of a
 * second for 10,000 look-ups in ten indexes).
 */
export class IndexSearch {
  private readonly block: Buffer;
  private entries = 0;
  /** Where the next block starts in the file; undefined once the file is read to its end. */
  private next: number | undefined = INDEX_MAGIC.length;
  /** Entries of the block below this one are below every digest still to come. */
  private low = 0;

  private constructor(
    readonly pack: string,
    private readonly fd: number,
    indexBytes: number,
  ) {
    this.block = Buffer.allocUnsafe(Math.min(INDEX_ENTRY * BLOCK_ENTRIES, indexBytes));
  }

  static open({ pack, path }: EarlierIndex): IndexSearch {
    const fd = openSync(path, 'r');
    try {
      const magic = Buffer.alloc(INDEX_MAGIC.length);
      readSync(fd, magic, 0, magic.length, 0);
      if (!magic.equals(INDEX_MAGIC)) throw new Error(`${pack}${INDEX_SUFFIX} is not a pack index`);
      const { size } = fstatSync(fd);
      return new IndexSearch(pack, fd, Math.max(INDEX_ENTRY, size - INDEX_MAGIC.length));
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /**
   * Entry `entry` of the block against `digest` (whose first 8 bytes are `prefix`): negative
   * when it is below it. The first 8 bytes decide but for one entry in four billion; only then
   * are all 32 compared.
   */
  private order(entry: number, digest: Buffer, prefix: DigestPrefix) {
    const at = entry * INDEX_ENTRY;
    const high = this.block.readUInt32BE(at) - prefix.high;
    if (high !== 0) return high;
    const low = this.block.readUInt32BE(at + 4) - prefix.low;
    if (low !== 0) return low;
    return this.block.compare(digest, 8, DIGEST, at + 8, at + DIGEST);
  }

  private readBlock(): boolean {
    if (this.next === undefined) return false;
    const bytesRead = readSync(this.fd, this.block, 0, this.block.length, this.next);
    if (bytesRead % INDEX_ENTRY !== 0) throw new Error(`${this.pack}${INDEX_SUFFIX} is truncated`);
    this.entries = bytesRead / INDEX_ENTRY;
    this.low = 0;
    this.next = bytesRead < this.block.length ? undefined : this.next + bytesRead;
    return this.entries > 0;
  }

  /** Whether the index holds `digest`; asked for in ascending order. */
  has(digest: Buffer, prefix = prefixOf(digest)): boolean {
    while (this.entries === 0 || this.order(this.entries - 1, digest, prefix) < 0)
      if (!this.readBlock()) {
        this.entries = 0;
        return false;
      }
    let low = this.low;
    let high = this.entries - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = this.order(middle, digest, prefix);
      if (order === 0) {
        this.low = middle;
        return true;
      }
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    this.low = low;
    return false;
  }

  close() {
    closeSync(this.fd);
  }
}

/** Opens every index; those opened are closed again when one fails. */
export function openIndexes(indexes: EarlierIndex[]): IndexSearch[] {
  const searches: IndexSearch[] = [];
  try {
    for (const index of indexes) searches.push(IndexSearch.open(index));
    return searches;
  } catch (error) {
    closeIndexes(searches);
    throw error;
  }
}

export function closeIndexes(searches: IndexSearch[]) {
  for (const search of searches) search.close();
}

/**
 * The pack holding `digest` (the first listed when several do), or undefined; digests are
 * asked for in ascending order.
 */
export function holderOf(searches: IndexSearch[], digest: Buffer): string | undefined {
  const prefix = prefixOf(digest);
  for (const search of searches) if (search.has(digest, prefix)) return search.pack;
  return undefined;
}

/**
 * The bytes of a backup's blob rows (sorted by SHA-256) that no earlier pack holds: what its
 * pack will take, for a space check that cannot simply count every blob (docs/backup.md,
 * "Tenth round"). With no earlier pack it reads nothing.
 */
export async function bytesNotInPacks(
  rows: Iterable<BlobRow> | AsyncIterable<BlobRow>,
  indexes: EarlierIndex[],
  allBytes: number,
): Promise<number> {
  if (indexes.length === 0) return allBytes;
  const searches = openIndexes(indexes);
  let bytes = 0;
  try {
    for await (const blob of rows)
      if (!holderOf(searches, Buffer.from(blob.sha256, 'hex'))) bytes += blob.size;
  } finally {
    closeIndexes(searches);
  }
  return bytes;
}
