import { createHash } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Bytes a position takes in an `ids/<table>` file: unsigned 64-bit big-endian. */
const ENTRY = 8;
const TWO_32 = 2 ** 32;

/**
 * A row's `ctid` ("(block,offset)") as one number, block × 65536 + offset (an offset is
 * below 2^16, a block below 2^32: it fits a double exactly). A row keeps its ctid until it is
 * updated or deleted, or its table is rewritten (VACUUM FULL, CLUSTER, TRUNCATE), which a
 * backup sees by the table's relfilenode and answers with a full dump.
 */
export function rowPositionOf(ctid: string): number {
  const comma = ctid.indexOf(',');
  return Number(ctid.slice(1, comma)) * 65536 + Number(ctid.slice(comma + 1, -1));
}

/** Positions per chunk while a table is read: a table grows by chunks, never copied. */
const CHUNK = 65536;
/** Positions encoded per write of an `ids/<table>` file (512 KiB). */
const WRITE_POSITIONS = 65536;

/**
 * The positions of one table's rows in a snapshot, kept sorted in `ids/<table>`: the next
 * delta merges its own list against it to find the rows that vanished in between. Held as
 * numbers in typed chunks while the table is read (8 bytes a row, no array grown by copying),
 * sorted in one typed array and written a block at a time: a million rows take 16 MB at the
 * peak, where a plain array, its typed copy and the file's bytes in one buffer took twice that.
 */
export class RowPositions {
  private chunks: Float64Array[] = [];
  private filled = CHUNK;
  private sorted: Float64Array | undefined;

  /** Positions already sorted and unique (a base's list merged with a delta's). */
  static fromSorted(positions: Float64Array): RowPositions {
    const list = new RowPositions();
    list.sorted = positions;
    return list;
  }

  add(position: number) {
    if (this.filled === CHUNK) {
      this.chunks.push(new Float64Array(CHUNK));
      this.filled = 0;
    }
    this.chunks[this.chunks.length - 1][this.filled++] = position;
  }

  get count() {
    if (this.sorted) return this.sorted.length;
    return this.chunks.length === 0 ? 0 : (this.chunks.length - 1) * CHUNK + this.filled;
  }

  /** The positions in order, sorted once. */
  private inOrder(): Float64Array {
    if (this.sorted) return this.sorted;
    const sorted = new Float64Array(this.count);
    this.chunks.forEach((chunk, i) =>
      sorted.set(i === this.chunks.length - 1 ? chunk.subarray(0, this.filled) : chunk, i * CHUNK),
    );
    this.chunks = [];
    this.sorted = sorted.sort();
    return this.sorted;
  }

  /** Writes the sorted list; answers its SHA-256. */
  async save(dir: string, table: string): Promise<string> {
    const sorted = this.inOrder();
    await mkdir(dir, { recursive: true });
    const hash = createHash('sha256');
    const file = await open(join(dir, table), 'w');
    try {
      for (let start = 0; start < sorted.length; start += WRITE_POSITIONS) {
        const bytes = encodePositions(sorted.subarray(start, start + WRITE_POSITIONS));
        hash.update(bytes);
        await file.writeFile(bytes);
      }
    } finally {
      await file.close();
    }
    return hash.digest('hex');
  }

  /** The positions the base's list holds and this one does not (one merge of two lists). */
  vanishedFrom(previous: Float64Array): number[] {
    return missingFrom(previous, this.inOrder());
  }
}

export function encodePositions(sorted: Float64Array): Buffer {
  const bytes = Buffer.alloc(sorted.length * ENTRY);
  for (let i = 0; i < sorted.length; i += 1) {
    bytes.writeUInt32BE(Math.floor(sorted[i] / TWO_32), i * ENTRY);
    bytes.writeUInt32BE(sorted[i] % TWO_32, i * ENTRY + 4);
  }
  return bytes;
}

export async function readPositions(path: string): Promise<Float64Array> {
  const bytes = await readFile(path);
  if (bytes.length % ENTRY !== 0) throw new Error(`${path} is damaged`);
  const positions = new Float64Array(bytes.length / ENTRY);
  for (let i = 0; i < positions.length; i += 1)
    positions[i] = bytes.readUInt32BE(i * ENTRY) * TWO_32 + bytes.readUInt32BE(i * ENTRY + 4);
  return positions;
}

/** Whether the sorted `positions` hold `position` (a binary search). */
export function contains(positions: Float64Array, position: number): boolean {
  let low = 0;
  let high = positions.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (positions[middle] === position) return true;
    if (positions[middle] < position) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** The values of `before` not in `now`, both sorted ascending. */
export function missingFrom(before: Float64Array, now: Float64Array): number[] {
  const missing: number[] = [];
  let j = 0;
  for (const value of before) {
    while (j < now.length && now[j] < value) j += 1;
    if (j >= now.length || now[j] !== value) missing.push(value);
  }
  return missing;
}
