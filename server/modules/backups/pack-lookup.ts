import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { blobRows } from './metadata-lines.ts';
import { INDEX_MAGIC, INDEX_SUFFIX } from './pack.ts';

const INDEX_ENTRY = 48;
const DIGEST = 32;
/** Index entries read per block: 192 KiB, one read. */
const BLOCK_ENTRIES = 4096;

/**
 * Which of a backup's blob rows the earlier packs hold already, found once and used by both
 * the space check and the pack (docs/backup.md, "Eighth round").
 */
export interface PackLookup {
  /** One bit per blob row of the metadata, in the rows' order: set when a pack holds it. */
  held: Uint8Array;
  /** The packs that held at least one of them (the backup needs them). */
  usedPacks: string[];
  /** The blobs no earlier pack holds: what the new pack will take. */
  bytesToPack: number;
}

export const isHeld = (held: Uint8Array, row: number) =>
  row >> 3 < held.length && (held[row >> 3] & (1 << (row & 7))) !== 0;

function setHeld(held: Uint8Array, row: number): Uint8Array {
  let bits = held;
  if (row >> 3 >= bits.length) {
    bits = new Uint8Array(Math.max(bits.length * 2, (row >> 3) + 1));
    bits.set(held);
  }
  bits[row >> 3] |= 1 << (row & 7);
  return bits;
}

/**
 * One pack's index searched for ascending digests: a block of entries is passed over when
 * its last entry is below the digest looked for, searched by halves otherwise. Digests stay
 * 32-byte buffers (Buffer.compare): a million entries turned into hex strings cost seconds.
 */
class IndexSearch {
  private readonly block = Buffer.alloc(INDEX_ENTRY * BLOCK_ENTRIES);
  private entries = 0;
  /** Where the next block starts in the file; undefined once the file is read to its end. */
  private next: number | undefined = INDEX_MAGIC.length;
  /** Entries of the block below this one are below every digest still to come. */
  private low = 0;

  private constructor(
    readonly pack: string,
    private readonly handle: FileHandle,
  ) {}

  static async open(path: string, pack: string): Promise<IndexSearch> {
    const handle = await open(path, 'r');
    const magic = Buffer.alloc(INDEX_MAGIC.length);
    await handle.read(magic, 0, magic.length, 0);
    if (!magic.equals(INDEX_MAGIC)) {
      await handle.close();
      throw new Error(`${pack}${INDEX_SUFFIX} is not a pack index`);
    }
    return new IndexSearch(pack, handle);
  }

  private digestAt(entry: number) {
    return this.block.subarray(entry * INDEX_ENTRY, entry * INDEX_ENTRY + DIGEST);
  }

  private async readBlock(): Promise<boolean> {
    if (this.next === undefined) return false;
    const { bytesRead } = await this.handle.read(this.block, 0, this.block.length, this.next);
    if (bytesRead % INDEX_ENTRY !== 0) throw new Error(`${this.pack}${INDEX_SUFFIX} is truncated`);
    this.entries = bytesRead / INDEX_ENTRY;
    this.low = 0;
    this.next = bytesRead < this.block.length ? undefined : this.next + bytesRead;
    return this.entries > 0;
  }

  /** Whether the index holds `digest`; asked for in ascending order. */
  async has(digest: Buffer): Promise<boolean> {
    while (this.entries === 0 || Buffer.compare(this.digestAt(this.entries - 1), digest) < 0)
      if (!(await this.readBlock())) {
        this.entries = 0;
        return false;
      }
    let low = this.low;
    let high = this.entries - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = Buffer.compare(this.digestAt(middle), digest);
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
    return this.handle.close();
  }
}

/**
 * Looks the blob rows of a backup's metadata (sorted by SHA-256, before byte `end`) up in the
 * indexes of `packs`, in one pass over the rows; a blob in several packs counts for the first
 * listed. With no earlier pack it reads nothing: every blob goes into the new pack.
 */
export async function lookUpInPacks(
  metadata: { file: string; end?: number },
  packsDir: string,
  packs: string[],
  all: { count: number; bytes: number },
): Promise<PackLookup> {
  let held: Uint8Array = new Uint8Array(Math.ceil(all.count / 8));
  if (packs.length === 0) return { held, usedPacks: [], bytesToPack: all.bytes };
  const searches: IndexSearch[] = [];
  const used = new Set<string>();
  let bytesToPack = 0;
  try {
    for (const pack of packs)
      searches.push(await IndexSearch.open(join(packsDir, `${pack}${INDEX_SUFFIX}`), pack));
    let row = 0;
    for await (const blob of blobRows(metadata.file, { written: true, end: metadata.end })) {
      const digest = Buffer.from(blob.sha256, 'hex');
      let holder: string | undefined;
      for (const search of searches)
        if (!holder && (await search.has(digest))) holder = search.pack;
      if (holder) {
        used.add(holder);
        held = setHeld(held, row);
      } else bytesToPack += blob.size;
      row += 1;
    }
  } finally {
    await Promise.allSettled(searches.map((search) => search.close()));
  }
  return { held, usedPacks: [...used].sort(), bytesToPack };
}
