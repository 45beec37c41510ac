import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { BlobRow } from './metadata-lines.ts';

/**
 * Pack files (docs/backup.md, "Format (version 2)"): a backup's binaries appended to one
 * file, as restic, borg and git store objects, with a sorted index beside it. Writing one
 * large file sequentially costs what `tar` costs; creating a file per blob cost five times
 * as much on the disks we measured.
 *
 *   <name>.pack   "DEPOTPK1", then per blob: SHA-256 (32 bytes), length (u64 BE), the bytes
 *   <name>.idx    "DEPOTIX1", then per blob, sorted by SHA-256: SHA-256 (32 bytes),
 *                 offset of its bytes in the pack (u64 BE), length (u64 BE)
 *
 * The pack alone can be walked (each record says its length), the index makes a look-up
 * unnecessary: a backup's blob list, sorted by SHA-256, is merged against the indexes.
 */
export const PACK_MAGIC = Buffer.from('DEPOTPK1');
export const INDEX_MAGIC = Buffer.from('DEPOTIX1');
export const PACK_SUFFIX = '.pack';
export const INDEX_SUFFIX = '.idx';
const INDEX_ENTRY = 48;
/** Blobs up to this size are read whole, several ahead; larger ones are streamed. */
const SMALL_BLOB = 1024 * 1024;
/** Bytes gathered before one write to the pack (one system call for many small blobs). */
const WRITE_BATCH = 8 * 1024 * 1024;

export interface IndexEntry {
  sha256: string;
  offset: number;
  length: number;
  pack: string;
}

/** An index being written: its entries built in one buffer, written a batch at a time. */
class IndexOut {
  private readonly batch = Buffer.allocUnsafe(INDEX_ENTRY * 8192);
  private used = 0;

  constructor(private readonly handle: FileHandle) {}

  async magic() {
    await writeAll(this.handle, INDEX_MAGIC, INDEX_MAGIC.length);
  }

  async entry(sha256: string, offset: number, length: number) {
    if (this.used === this.batch.length) await this.flush();
    this.batch.write(sha256, this.used, 32, 'hex');
    this.batch.writeBigUInt64BE(BigInt(offset), this.used + 32);
    this.batch.writeBigUInt64BE(BigInt(length), this.used + 40);
    this.used += INDEX_ENTRY;
  }

  async flush() {
    if (this.used > 0) await writeAll(this.handle, this.batch, this.used);
    this.used = 0;
  }
}

/**
 * Bytes written between two flushes to disk started in the background (see Writeback).
 */
const WRITEBACK_BYTES = 64 * 1024 * 1024;

/**
 * Flushes a file to disk while it is still being written: every WRITEBACK_BYTES a flush of
 * what was written so far starts in the background (libuv's thread pool) and writing goes
 * on, so the flush at the end waits only for the last part. Flushed only at the end, a pack
 * of a gigabyte waited seconds for the disk after its last byte: a machine with memory to
 * spare keeps it all as dirty pages, and the kernel starts writing them on its own only at
 * a tenth of memory.
 */
class Writeback {
  private sinceStarted = 0;
  private running?: Promise<void>;
  private failure?: unknown;

  constructor(private readonly handle: FileHandle) {}

  wrote(bytes: number) {
    this.sinceStarted += bytes;
    if (this.sinceStarted < WRITEBACK_BYTES || this.running) return;
    this.sinceStarted = 0;
    this.running = this.handle.datasync().then(
      () => (this.running = undefined),
      (error: unknown) => {
        this.failure = error;
        this.running = undefined;
      },
    );
  }

  /** Waits for the flush running, then flushes the rest: the file is on disk. */
  async finish() {
    await this.running;
    if (this.failure) throw this.failure;
    await this.handle.datasync();
  }

  /** Waits for the flush running, if any (before the file is closed). */
  settled = () => this.running ?? Promise.resolve();
}

/** A pack record's header: the blob's SHA-256 and its length. */
const RECORD_HEADER = 40;
/**
 * Longest the event loop is held reading small blobs before the batch is written (the write
 * is awaited, so other requests get their turn).
 */
const SYNC_SLICE_MS = 10;

/**
 * The pack being written: records are built in a large buffer, small blobs read straight
 * into it, and written with one call per batch. Two buffers take turns: while one is being
 * written (libuv's thread pool, the kernel copying it into the page cache or waiting for the
 * disk), the next is filled, so reading the blobs and writing the pack overlap.
 */
class PackOut {
  private readonly slabs = [slab(), slab()];
  private filling = 0;
  private used = 0;
  private sliceStart = performance.now();
  /** The write of the other buffer, while it runs. */
  private writing: Promise<void> = Promise.resolve();
  /** Where the next byte goes in the pack file. */
  offset = 0;
  readonly writeback: Writeback;

  constructor(private readonly handle: FileHandle) {
    this.writeback = new Writeback(handle);
  }

  private get buffer() {
    return this.slabs[this.filling];
  }

  async header(blob: BlobRow) {
    if (this.used + RECORD_HEADER > WRITE_BATCH) await this.flush();
    this.buffer.write(blob.sha256, this.used, 32, 'hex');
    this.buffer.writeBigUInt64BE(BigInt(blob.size), this.used + 32);
    this.used += RECORD_HEADER;
    this.offset += RECORD_HEADER;
  }

  /**
   * Reads a small blob's file into the batch: one read of one byte more than the metadata
   * says, so a file longer or shorter than that is found without a stat.
   */
  async readSmall(path: string, blob: BlobRow) {
    if (this.used + blob.size + 1 > this.buffer.length) await this.flush();
    // Non-blocking, so a file that is not a regular one (a pipe) cannot hold the event loop:
    // it is read the asynchronous way, as a large blob is.
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    let bytesRead: number;
    try {
      if (!fstatSync(fd).isFile()) return await streamInto(this, path, blob);
      bytesRead = readSync(fd, this.buffer, this.used, blob.size + 1, 0);
    } finally {
      closeSync(fd);
    }
    if (bytesRead !== blob.size) throw sizeMismatch(blob, bytesRead);
    this.used += bytesRead;
    this.offset += bytesRead;
    if (this.used >= WRITE_BATCH || performance.now() - this.sliceStart > SYNC_SLICE_MS)
      await this.flush();
  }

  /** Appends bytes read elsewhere (a large blob's chunk, the magic), once the batch is out. */
  async append(buffer: Buffer) {
    await this.drain();
    await writeAll(this.handle, buffer, buffer.length);
    this.writeback.wrote(buffer.length);
    this.offset += buffer.length;
  }

  /**
   * Starts writing the batch and turns to the other buffer, once its own write has ended
   * (which is also the event loop's turn for other requests).
   */
  async flush() {
    await this.writing;
    if (this.used > 0) {
      const [buffer, length] = [this.buffer, this.used];
      const written = writeAll(this.handle, buffer, length).then(() =>
        this.writeback.wrote(length),
      );
      // Awaited at the next flush or drain; until then a failure must not go unhandled.
      written.catch(() => undefined);
      this.writing = written;
      this.filling ^= 1;
    }
    this.used = 0;
    this.sliceStart = performance.now();
  }

  /** Waits for the write running, if any, whatever its outcome (before the file is closed). */
  settled = () => this.writing.catch(() => undefined);

  /** Writes what is left and waits until every write has ended. */
  async drain() {
    await this.flush();
    await this.writing;
  }
}

const slab = () => Buffer.allocUnsafe(WRITE_BATCH + SMALL_BLOB + RECORD_HEADER + 1);

async function writeAll(handle: FileHandle, buffer: Buffer, length: number) {
  let written = 0;
  while (written < length) {
    const { bytesWritten } = await handle.write(buffer, written, length - written, null);
    written += bytesWritten;
  }
}

export interface PackReport {
  count: number;
  bytes: number;
}

/**
 * Writes `blobs` (sorted by SHA-256, strictly) into `packPath` and its index into
 * `indexPath`, reading each blob's file from `sourceOf`. Small blobs are read synchronously
 * straight into the batch being built (an asynchronous read cost a trip through libuv's
 * thread pool for each of open, stat, read and close, three times the time of these reads on
 * the benchmark's 10 kB files), a slice of at most SYNC_SLICE_MS at a time; large ones are
 * copied a chunk at a time. A blob whose file is not the size the metadata says fails the
 * backup (the backup would not restore). The pack is flushed to disk as it is written (see
 * Writeback) and both files are whole on disk when this answers, before the caller renames
 * them into place.
 */
export async function writePack(
  packPath: string,
  indexPath: string,
  blobs: AsyncIterable<BlobRow>,
  sourceOf: (sha256: string) => string,
  onBlob: (blob: BlobRow) => void,
  stopping?: AbortSignal,
): Promise<PackReport> {
  const pack = await open(packPath, 'wx');
  const index = await open(indexPath, 'wx');
  const packOut = new PackOut(pack);
  try {
    const indexOut = new IndexOut(index);
    await packOut.append(PACK_MAGIC);
    await indexOut.magic();
    const report: PackReport = { count: 0, bytes: 0 };
    let previous = '';
    for await (const blob of blobs) {
      stopping?.throwIfAborted();
      if (blob.sha256 <= previous) throw new Error('the blobs of a pack must be sorted by SHA-256');
      previous = blob.sha256;
      await packOut.header(blob);
      const offset = packOut.offset;
      if (blob.size <= SMALL_BLOB) await packOut.readSmall(sourceOf(blob.sha256), blob);
      else await streamInto(packOut, sourceOf(blob.sha256), blob);
      await indexOut.entry(blob.sha256, offset, blob.size);
      report.count += 1;
      report.bytes += blob.size;
      onBlob(blob);
    }
    await packOut.drain();
    await indexOut.flush();
    await Promise.all([packOut.writeback.finish(), index.datasync()]);
    return report;
  } finally {
    await packOut.settled();
    await packOut.writeback.settled();
    await Promise.allSettled([pack.close(), index.close()]);
  }
}

/** Copies a large blob's file into the pack a chunk at a time. */
async function streamInto(out: PackOut, path: string, blob: BlobRow) {
  const source = await open(path, 'r');
  try {
    let copied = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(SMALL_BLOB);
      const { bytesRead } = await source.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      copied += bytesRead;
      if (copied > blob.size) throw sizeMismatch(blob, copied);
      await out.append(chunk.subarray(0, bytesRead));
    }
    if (copied !== blob.size) throw sizeMismatch(blob, copied);
  } finally {
    await source.close();
  }
}

const sizeMismatch = (blob: BlobRow, actual: number) =>
  new Error(
    `The binary ${blob.sha256} is ${actual} bytes in the filestore, the database says ${blob.size}`,
  );

/** The entries of one pack's index, in order, read a block at a time (memory stays flat). */
export async function* indexEntries(indexPath: string, pack: string): AsyncGenerator<IndexEntry> {
  const handle = await open(indexPath, 'r');
  try {
    const magic = Buffer.alloc(INDEX_MAGIC.length);
    await handle.read(magic, 0, magic.length, 0);
    if (!magic.equals(INDEX_MAGIC)) throw new Error(`${pack}${INDEX_SUFFIX} is not a pack index`);
    const block = Buffer.alloc(INDEX_ENTRY * 4096);
    let position = INDEX_MAGIC.length;
    for (;;) {
      const { bytesRead } = await handle.read(block, 0, block.length, position);
      if (bytesRead % INDEX_ENTRY !== 0) throw new Error(`${pack}${INDEX_SUFFIX} is truncated`);
      for (let at = 0; at < bytesRead; at += INDEX_ENTRY)
        yield {
          sha256: block.toString('hex', at, at + 32),
          offset: Number(block.readBigUInt64BE(at + 32)),
          length: Number(block.readBigUInt64BE(at + 40)),
          pack,
        };
      if (bytesRead < block.length) return;
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/**
 * The entries of several sorted indexes as one sorted stream (a k-way merge on a small heap:
 * a chain of incremental backups has one pack per run). A SHA-256 in several packs comes
 * once, from the first pack listed.
 */
export async function* mergedIndexes(
  indexes: { path: string; pack: string }[],
): AsyncGenerator<IndexEntry> {
  const heads: { entry: IndexEntry; rank: number; rest: AsyncGenerator<IndexEntry> }[] = [];
  try {
    for (const [rank, { path, pack }] of indexes.entries()) {
      const rest = indexEntries(path, pack);
      const first = await rest.next();
      if (!first.done) heads.push({ entry: first.value, rank, rest });
    }
    const before = (a: (typeof heads)[number], b: (typeof heads)[number]) =>
      a.entry.sha256 < b.entry.sha256 || (a.entry.sha256 === b.entry.sha256 && a.rank < b.rank);
    const heap = new MinHeap(heads, before);
    let last = '';
    while (heap.size > 0) {
      const top = heap.peek();
      if (top.entry.sha256 !== last) yield top.entry;
      last = top.entry.sha256;
      const next = await top.rest.next();
      if (next.done) heap.pop();
      else {
        top.entry = next.value;
        heap.siftDown(0);
      }
    }
  } finally {
    await Promise.allSettled(heads.map((head) => head.rest.return(undefined)));
  }
}

class MinHeap<T> {
  constructor(
    private readonly items: T[],
    private readonly before: (a: T, b: T) => boolean,
  ) {
    for (let i = (items.length >> 1) - 1; i >= 0; i -= 1) this.siftDown(i);
  }
  get size() {
    return this.items.length;
  }
  peek() {
    return this.items[0];
  }
  pop() {
    const last = this.items.pop()!;
    if (this.items.length > 0) {
      this.items[0] = last;
      this.siftDown(0);
    }
  }
  siftDown(start: number) {
    const { items, before } = this;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < items.length && before(items[left], items[least])) least = left;
      if (right < items.length && before(items[right], items[least])) least = right;
      if (least === i) return;
      [items[i], items[least]] = [items[least], items[i]];
      i = least;
    }
  }
}

/**
 * Walks a sorted stream of index entries alongside ascending SHA-256s: `find` answers the
 * entry of each, or undefined when no pack holds it. No look-up per blob on disk: both
 * lists are read once, in order.
 */
export function indexCursor(entries: AsyncGenerator<IndexEntry>) {
  let current: IndexEntry | undefined;
  let started = false;
  let done = false;
  let previous = '';
  return {
    async find(sha256: string): Promise<IndexEntry | undefined> {
      if (sha256 <= previous) throw new Error('blobs must be looked for in SHA-256 order');
      previous = sha256;
      if (!started) {
        started = true;
        const first = await entries.next();
        current = first.done ? undefined : first.value;
        done = Boolean(first.done);
      }
      while (!done && current && current.sha256 < sha256) {
        const next = await entries.next();
        current = next.done ? undefined : next.value;
        done = Boolean(next.done);
      }
      return current?.sha256 === sha256 ? current : undefined;
    },
    close: () => entries.return(undefined),
  };
}

/** Opens blobs of packs by their index entries; one file handle per pack, kept open. */
export function packReader(packPathOf: (pack: string) => string) {
  const handles = new Map<string, Promise<FileHandle>>();
  const handleOf = (pack: string) => {
    let handle = handles.get(pack);
    if (!handle) {
      handle = open(packPathOf(pack), 'r');
      handles.set(pack, handle);
    }
    return handle;
  };
  return {
    async open(entry: IndexEntry): Promise<Readable> {
      return Readable.from(bytesOf(await handleOf(entry.pack), entry));
    },
    async close() {
      const opened = await Promise.allSettled(handles.values());
      for (const result of opened) if (result.status === 'fulfilled') await result.value.close();
    },
  };
}

/**
 * A blob's bytes from its pack, a chunk at a time, by positioned reads (the handle is shared
 * by every blob of the pack). A pack cut short ends the blob early: the restore's hash and
 * size check then refuse it.
 */
async function* bytesOf(handle: FileHandle, entry: IndexEntry): AsyncGenerator<Buffer> {
  let position = entry.offset;
  const end = entry.offset + entry.length;
  while (position < end) {
    const chunk = Buffer.allocUnsafe(Math.min(SMALL_BLOB, end - position));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield chunk.subarray(0, bytesRead);
  }
}
