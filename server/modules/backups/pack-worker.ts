import {
  closeSync,
  constants,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  openSync,
  readSync,
  write,
  writeSync,
} from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { blobPathIn } from '../../storage/filestore.ts';
import {
  BLOB_ENTRY,
  BLOBS_PER_MESSAGE,
  INDEX_ENTRY,
  INDEX_MAGIC,
  PACK_MAGIC,
  RECORD_HEADER,
  SMALL_BLOB,
  sizeMismatch,
  WRITE_BATCH,
  WRITEBACK_BYTES,
  type PackThreadData,
  type PackThreadReply,
  type PackThreadRequest,
  readU64,
  writeU64,
} from './pack-format.ts';
import { closeIndexes, holderOf, openIndexes } from './pack-lookup.ts';

/**
 * The pack's own thread (pack.ts, writePack): reads each blob's file with synchronous calls and
 * appends it to the pack, while the main thread goes on with the metadata dump and the requests.
 * On the main thread the pack's reads and the dump's work took turns on one core; here they run
 * on two (docs/backup.md, "Ninth round"). An incremental backup's blobs are looked up in the
 * earlier packs here too, as they come (docs/backup.md, "Tenth round").
 */
const { packPath, indexPath, root, stop, slots: shared, earlier } = workerData as PackThreadData;
const stopped = new Int32Array(stop);
const slots = Buffer.from(shared);
const port = parentPort!;

/**
 * Bytes appended to the pack file. Two buffers take turns: while one is written (libuv's thread
 * pool, the kernel copying it into the page cache or waiting for the disk), the next is filled
 * with blobs, so reading and writing overlap; the disk is flushed in the background as the
 * file grows.
 */
class PackFile {
  readonly fd = openSync(packPath, 'wx');
  private readonly slabs = [slab(), slab()];
  private filling = 0;
  private used = 0;
  /** The write of the other buffer, while it runs. */
  private writing: Promise<void> = Promise.resolve();
  /** Where the next byte goes in the pack. */
  offset = 0;
  private sinceFlushStarted = 0;
  /** The background flush running, if any; a failure is kept for the end. */
  private flushing?: Promise<void>;
  private flushFailure?: Error;

  /** Whether `bytes` more fit in the buffer being filled (else: `await writeBatch()` first). */
  fits(bytes: number) {
    return this.used + bytes <= this.slabs[this.filling].length;
  }

  /** Where the next bytes go in the buffer being filled; `filled` says how many went. */
  get room() {
    return { buffer: this.slabs[this.filling], at: this.used };
  }

  filled(bytes: number) {
    this.used += bytes;
    this.offset += bytes;
  }

  get batchFull() {
    return this.used >= WRITE_BATCH;
  }

  /** Appends bytes from elsewhere (a large blob's chunk, the magic) after the batch. */
  async append(bytes: Buffer) {
    await this.writeBatch();
    await this.writing;
    await writeWhole(this.fd, bytes, bytes.length);
    this.offset += bytes.length;
    this.wrote(bytes.length);
  }

  /** Starts writing the buffer filled so far and turns to the other one, once it is free. */
  async writeBatch() {
    await this.writing;
    if (this.used === 0) return;
    const [buffer, length] = [this.slabs[this.filling], this.used];
    const written = writeWhole(this.fd, buffer, length).then(() => this.wrote(length));
    written.catch(() => undefined); // awaited at the next turn or at the end
    this.writing = written;
    this.filling ^= 1;
    this.used = 0;
  }

  /**
   * Every WRITEBACK_BYTES a flush to disk starts in the background and writing goes on: the
   * flush at the end then waits only for the last part (docs/backup.md, "Fifth round").
   */
  private wrote(bytes: number) {
    this.sinceFlushStarted += bytes;
    if (this.sinceFlushStarted < WRITEBACK_BYTES || this.flushing) return;
    this.sinceFlushStarted = 0;
    this.flushing = new Promise((resolve) =>
      fdatasync(this.fd, (error) => {
        if (error) this.flushFailure ??= error;
        this.flushing = undefined;
        resolve();
      }),
    );
  }

  /** The pack whole on disk. */
  async finish() {
    await this.writeBatch();
    await this.writing;
    await this.flushing;
    if (this.flushFailure) throw this.flushFailure;
    fdatasyncSync(this.fd);
  }

  /** Closes the file once no write or flush uses it any more. */
  async close() {
    await this.writing.catch(() => undefined);
    await this.flushing;
    closeSync(this.fd);
  }
}

const slab = () => Buffer.allocUnsafe(WRITE_BATCH + SMALL_BLOB + RECORD_HEADER + 1);

/** Opens the pack's files; the earlier indexes are closed when they cannot be. */
function openedOrClosing(open: () => [PackFile, IndexFile]) {
  try {
    return open();
  } catch (error) {
    closeIndexes(searches);
    throw error;
  }
}

/** The index being written: 48-byte entries, a batch at a time. */
class IndexFile {
  readonly fd = openSync(indexPath, 'wx');
  private readonly batch = Buffer.allocUnsafe(INDEX_ENTRY * 8192);
  private used = 0;

  entry(digest: Buffer, offset: number, length: number) {
    if (this.used === this.batch.length) this.flush();
    digest.copy(this.batch, this.used);
    writeU64(this.batch, offset, this.used + 32);
    writeU64(this.batch, length, this.used + 40);
    this.used += INDEX_ENTRY;
  }

  flush() {
    writeWholeSync(this.fd, this.batch, this.used);
    this.used = 0;
  }
}

function writeWholeSync(fd: number, buffer: Buffer, length: number) {
  let written = 0;
  while (written < length) written += writeSync(fd, buffer, written, length - written);
}

/** Writes `length` bytes of `buffer` through libuv's thread pool. */
async function writeWhole(fd: number, buffer: Buffer, length: number) {
  let done = 0;
  while (done < length) {
    done += await new Promise<number>((resolve, reject) =>
      write(fd, buffer, done, length - done, null, (error, bytes) =>
        error ? reject(error) : resolve(bytes),
      ),
    );
  }
}

// The earlier indexes first: when one cannot be read, no pack file is left open.
const searches = openIndexes(earlier);
const [pack, index] = openedOrClosing(() => [new PackFile(), new IndexFile()]);
/** The blobs packed; and those done, packed or passed over (held by an earlier pack). */
const report = { count: 0, bytes: 0 };
const passed = { count: 0, bytes: 0 };
const usedPacks = new Set<string>();
const previous = Buffer.alloc(32);
let failed = false;

/** One message's blobs from the main thread: `BLOB_ENTRY` bytes each (SHA-256, size). */
async function packBatch(entries: Buffer) {
  for (let at = 0; at < entries.length; at += BLOB_ENTRY) {
    if (Atomics.load(stopped, 0) === 1) throw new Error('the pack was stopped');
    const digest = entries.subarray(at, at + 32);
    if (passed.count > 0 && Buffer.compare(digest, previous) <= 0)
      throw new Error('the blobs of a pack must be sorted by SHA-256');
    digest.copy(previous);
    const size = readU64(entries, at + 32);
    passed.count += 1;
    passed.bytes += size;
    const holder = holderOf(searches, digest);
    if (holder) {
      usedPacks.add(holder);
      continue;
    }
    // The header and, when small, the blob itself go into the buffer being filled.
    if (!pack.fits(RECORD_HEADER + Math.min(size, SMALL_BLOB) + 1)) await pack.writeBatch();
    const header = pack.room;
    digest.copy(header.buffer, header.at);
    writeU64(header.buffer, size, header.at + 32);
    pack.filled(RECORD_HEADER);
    const offset = pack.offset;
    const sha256 = digest.toString('hex');
    // A small regular file is read in one call, without a promise; anything else by chunks.
    if (!copySmall(sha256, size)) await copyByChunks(sha256, size);
    index.entry(digest, offset, size);
    report.count += 1;
    report.bytes += size;
    if (pack.batchFull) await pack.writeBatch();
  }
}

/**
 * A small blob's regular file, read straight into the buffer being filled with one read of one
 * byte more than the metadata says, so a file longer or shorter than that is found without
 * another call. False when the blob is not small or its file not a regular one (a pipe).
 */
function copySmall(sha256: string, size: number): boolean {
  if (size > SMALL_BLOB) return false;
  const fd = openSync(blobPathIn(root, sha256), constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) return false;
    const room = pack.room;
    const read = readSync(fd, room.buffer, room.at, size + 1, 0);
    if (read !== size) throw sizeMismatch(sha256, read, size);
    pack.filled(read);
    return true;
  } finally {
    closeSync(fd);
  }
}

/** A large blob's chunk, reused: each is written (and awaited) before the next is read. */
const chunk = Buffer.allocUnsafe(SMALL_BLOB);

/**
 * A blob's file a chunk at a time to its end (a large file, a pipe). A blob whose file is not
 * the size the metadata says fails the backup (it would not restore).
 */
async function copyByChunks(sha256: string, size: number) {
  const fd = openSync(blobPathIn(root, sha256), constants.O_RDONLY);
  try {
    let copied = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      copied += read;
      if (copied > size) throw sizeMismatch(sha256, copied, size);
      await pack.append(chunk.subarray(0, read));
    }
    if (copied !== size) throw sizeMismatch(sha256, copied, size);
  } finally {
    closeSync(fd);
  }
}

async function finish() {
  await pack.finish();
  index.flush();
  fdatasyncSync(index.fd);
}

async function closeFiles() {
  await pack.close();
  closeSync(index.fd);
  closeIndexes(searches);
}

async function handle(request: PackThreadRequest): Promise<PackThreadReply | undefined> {
  if ('slot' in request) {
    const first = request.slot * BLOBS_PER_MESSAGE * BLOB_ENTRY;
    await packBatch(slots.subarray(first, first + request.count * BLOB_ENTRY));
    return { passed: passed.count, passedBytes: passed.bytes };
  }
  if ('stop' in request) throw new Error('the pack was stopped');
  await finish();
  await closeFiles();
  return { done: { ...report, usedPacks: [...usedPacks].sort() } };
}

/** Runs one step after the ones before; a failure closes the files and is told once. */
let queue = Promise.resolve();
function inTurn(step: () => Promise<PackThreadReply | undefined>) {
  queue = queue.then(async () => {
    if (failed) return;
    try {
      const reply = await step();
      if (reply) port.postMessage(reply);
      if (reply && 'done' in reply) port.close();
    } catch (error) {
      failed = true;
      await closeFiles().catch(() => undefined);
      const { message, code } = error as NodeJS.ErrnoException;
      port.postMessage({ error: message, code } satisfies PackThreadReply);
      port.close();
    }
  });
}

writeWholeSync(index.fd, INDEX_MAGIC, INDEX_MAGIC.length);
inTurn(async () => {
  await pack.append(PACK_MAGIC);
  return undefined;
});
// One message at a time, in order: each ends before the next is read (a write's or a flush's
// callback runs in between, which is what the step waits for).
port.on('message', (request: PackThreadRequest) => inTurn(() => handle(request)));
