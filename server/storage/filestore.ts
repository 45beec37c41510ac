import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { link, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Conflict, InsufficientStorage } from '../errors.ts';
import { FileChunkStream } from './file-chunk-stream.ts';
import { SmallBlobCache } from './small-blob-cache.ts';

export interface Checksums {
  sha256: string;
  sha1: string;
  md5?: string;
  /** Hashed only when asked for (an OCI `sha512:` digest): it costs as much as SHA-256. */
  sha512?: string;
}

export interface StoredBlob extends Checksums {
  size: number;
}

export interface StagedBlob extends StoredBlob {
  tmpPath: string;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Where the filestore under `root` keeps the blob `sha256` (a name already checked): for the
 * backup's pack thread, which has no Filestore of its own.
 */
export const blobPathIn = (root: string, sha256: string) =>
  join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
// Upload batches: large enough that a write costs little per byte, small enough for many uploads at once.
const WRITE_BATCH = 2 * 1024 * 1024;
// Blobs up to 64 KiB are served from memory once read, 32 MiB of them at most.
const SMALL_BLOB_BYTES = 64 * 1024;
const SMALL_BLOB_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Binaries, content-addressed by SHA-256 under `root/ab/cd/<sha256>`. A write streams into a
 * temp file while hashing, is verified against the checksums the client sent, fsynced and
 * renamed into place: a blob is either whole at its name or absent. The same content is
 * stored once. MD5 is hashed inline only when the client sent one to verify (it halves
 * hashing speed); otherwise `md5Of` computes it later, on demand.
 */
export class Filestore {
  /** Temp files of uploads and restores; what this node left is emptied at start (sweepTemp). */
  readonly tmpDir: string;
  private readonly smallBlobs = new SmallBlobCache(SMALL_BLOB_BYTES, SMALL_BLOB_CACHE_BYTES);
  /** Staged files `commit` renamed into place: `discard` has nothing left to remove. */
  private readonly placed = new WeakSet<StagedBlob>();
  /** The start of this node's upload temp files' names (`<nodeId>~`). */
  private readonly tempPrefix: string;

  /**
   * `nodeId` marks the node's upload temp files (`_tmp/<nodeId>~...`; node ids never hold a
   * `~`): on a filestore several nodes share (docs/cluster.md), a node starting sweeps what
   * it left itself, never the uploads other nodes are receiving.
   */
  constructor(
    readonly root: string,
    private readonly nodeId?: string,
  ) {
    this.tmpDir = join(root, '_tmp');
    this.tempPrefix = nodeId ? `${nodeId}~` : '';
    mkdirSync(this.tmpDir, { recursive: true });
  }

  /**
   * Removes temp files a crash left behind; run at start, before any upload. With a node
   * id, only this node's and those no node's name marks (restores', and what a Depot left
   * before temp files were marked).
   */
  sweepTemp(): number {
    const leftovers = readdirSync(this.tmpDir).filter(
      (name) => !this.nodeId || name.startsWith(this.tempPrefix) || !name.includes('~'),
    );
    for (const name of leftovers) rmSync(join(this.tmpDir, name), { force: true, recursive: true });
    return leftovers.length;
  }

  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
    return blobPathIn(this.root, sha256);
  }

  async has(sha256: string): Promise<boolean> {
    return stat(this.pathOf(sha256)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  /**
   * Streams content into a temp file, hashing it, and checks the checksums the client sent
   * (409, nothing kept, on a mismatch). The staged file is not a blob yet: `commit` puts it
   * in place, inside the transaction that records it; `discard` drops it. A full disk is a
   * 507 with the temp file removed. A failed write leaves the source undestroyed, so that an
   * HTTP client still reads the error answer; the caller owns it.
   */
  async stage(source: Readable, expected: Partial<Checksums> = {}): Promise<StagedBlob> {
    const name = `${this.tempPrefix}${Date.now()}-${randomBytes(8).toString('hex')}`;
    const tmpPath = join(this.tmpDir, name);
    const hashes = {
      sha256: createHash('sha256'),
      sha1: createHash('sha1'),
      md5: expected.md5 ? createHash('md5') : undefined,
      sha512: expected.sha512 ? createHash('sha512') : undefined,
    };
    let size = 0;
    const hash = (chunk: Buffer) => {
      size += chunk.length;
      hashes.sha256.update(chunk);
      hashes.sha1.update(chunk);
      hashes.md5?.update(chunk);
      hashes.sha512?.update(chunk);
    };
    try {
      await writeHashed(source, tmpPath, hash);
      const staged: StagedBlob = {
        tmpPath,
        sha256: hashes.sha256.digest('hex'),
        sha1: hashes.sha1.digest('hex'),
        md5: hashes.md5?.digest('hex'),
        sha512: hashes.sha512?.digest('hex'),
        size,
      };
      verifyChecksums(expected, staged);
      return staged;
    } catch (error) {
      await unlink(tmpPath).catch(() => undefined);
      // Read and drop the rest, so that an HTTP client finishes its upload and reads why.
      if (!source.destroyed) source.resume();
      throw isDiskFull(error) ? new InsufficientStorage() : error;
    }
  }

  /**
   * Renames a staged file into place, always: if garbage collection removed an identical
   * blob a moment ago, this puts it back. Call it after the blob's row is claimed.
   */
  async commit(staged: StagedBlob): Promise<void> {
    const dir = join(this.root, staged.sha256.slice(0, 2), staged.sha256.slice(2, 4));
    mkdirSync(dir, { recursive: true });
    await rename(staged.tmpPath, this.pathOf(staged.sha256)).catch(async (error) => {
      // Pruning may have removed the shard directory, empty, between mkdir and rename.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dir, { recursive: true });
      await rename(staged.tmpPath, this.pathOf(staged.sha256));
    });
    this.placed.add(staged);
    await fsyncFile(dir); // the rename itself must survive a power cut
  }

  /**
   * Puts a staged file in place as `commit` does, but as a second name of it (a hard link):
   * the staged file stays until `discard`, so the blob can be put back from it if garbage
   * collection removes it before the row that keeps it is committed (`storeFile` in
   * artifacts/service.ts). A blob already there is left as it is (the same content).
   */
  async place(staged: StagedBlob): Promise<void> {
    const dir = join(this.root, staged.sha256.slice(0, 2), staged.sha256.slice(2, 4));
    mkdirSync(dir, { recursive: true });
    const linked = () =>
      link(staged.tmpPath, this.pathOf(staged.sha256)).catch((error) => {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      });
    await linked().catch(async (error) => {
      // Pruning may have removed the shard directory, empty, between mkdir and link.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dir, { recursive: true });
      await linked();
    });
    await fsyncFile(dir); // the new name must survive a power cut
  }

  /** Removes a staged file not put in place (one that was is left alone: no call to unlink). */
  async discard(staged: StagedBlob | undefined): Promise<void> {
    if (staged && !this.placed.has(staged)) await unlink(staged.tmpPath).catch(() => undefined);
  }

  /** A stored blob's bytes, or one range of them (`end` inclusive). */
  read(sha256: string, range?: { start: number; end: number }): Readable {
    return new FileChunkStream(this.pathOf(sha256), range);
  }

  /** Whether `readSmall` serves a blob of this size (from memory, after its first read). */
  isSmall(size: number): boolean {
    return size <= this.smallBlobs.maxFileBytes;
  }

  /** The whole content of a small blob (see `isSmall`), kept in memory for the next reader. */
  readSmall(sha256: string): Promise<Buffer> {
    return this.smallBlobs.get(sha256, this.pathOf(sha256));
  }

  /** A small blob's content if it is in memory now (see `readSmall`), else undefined. */
  peekSmall(sha256: string): Buffer | undefined {
    return this.smallBlobs.peek(sha256);
  }

  /** A blob's three checksums, read again from disk in one pass (what the name promises or not). */
  async checksumsOf(sha256: string): Promise<{ sha256: string; sha1: string; md5: string }> {
    const hashes = {
      sha256: createHash('sha256'),
      sha1: createHash('sha1'),
      md5: createHash('md5'),
    };
    for await (const chunk of this.read(sha256)) {
      for (const hash of Object.values(hashes)) hash.update(chunk as Buffer);
    }
    return {
      sha256: hashes.sha256.digest('hex'),
      sha1: hashes.sha1.digest('hex'),
      md5: hashes.md5.digest('hex'),
    };
  }

  /** MD5 of a stored blob, streamed from disk (for blobs deployed without one). */
  async md5Of(sha256: string): Promise<string> {
    const hash = createHash('md5');
    for await (const chunk of this.read(sha256)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  async remove(sha256: string): Promise<void> {
    this.smallBlobs.forget(sha256);
    await unlink(this.pathOf(sha256)).catch(() => undefined);
  }
}

/**
 * Streams a source into a new file, hashing each chunk on the way, and syncs it. Chunks are
 * gathered into batches written with one `writev` each, while the next batch is read and
 * hashed: per-chunk writes through a write stream cost several times the hashing itself
 * (docs/architecture.md, "Upload path"). At most two batches per upload are held in memory.
 * The source is never destroyed here: destroying an HTTP request closes its socket before
 * the client reads why its upload failed. A source that breaks off fails the write.
 */
async function writeHashed(source: Readable, tmpPath: string, hash: (chunk: Buffer) => void) {
  // The loop below starts listening before the file is open: a short source can end, or
  // fail, while `open` is still under way, and its error must not go unheard.
  const opening = open(tmpPath, 'wx');
  let writing: Promise<unknown> = opening;
  // Each is awaited below; until then a failure must not count as unhandled.
  writing.catch(() => undefined);
  let batch: Buffer[] = [];
  let batchBytes = 0;
  try {
    for await (const chunk of source.iterator({ destroyOnReturn: false })) {
      const buffer = chunk as Buffer;
      hash(buffer);
      batch.push(buffer);
      batchBytes += buffer.length;
      if (batchBytes >= WRITE_BATCH) {
        await writing; // the file is open and the previous batch written
        writing = writeAll(await opening, batch, batchBytes);
        writing.catch(() => undefined);
        batch = [];
        batchBytes = 0;
      }
    }
    await writing;
    const file = await opening;
    await writeAll(file, batch, batchBytes);
    await file.sync();
  } finally {
    // A FileHandle closes once the write in flight, if any, is done.
    await opening.then((file) => file.close()).catch(() => undefined);
  }
}

/** One `writev` of a batch, continued when the kernel took only part of it. */
export async function writeAll(file: FileHandle, buffers: Buffer[], length: number): Promise<void> {
  let written = (await file.writev(buffers)).bytesWritten;
  while (written < length) {
    const rest = Buffer.concat(buffers, length).subarray(written);
    written += (await file.write(rest)).bytesWritten;
  }
}

const isDiskFull = (error: unknown) =>
  ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException)?.code ?? '');

function verifyChecksums(expected: Partial<Checksums>, actual: StoredBlob): void {
  for (const kind of ['sha256', 'sha1', 'md5', 'sha512'] as const) {
    const sent = expected[kind]?.toLowerCase();
    if (sent && sent !== actual[kind]) {
      throw new Conflict(
        `Checksum mismatch: the client sent ${kind.toUpperCase()} ${sent}, the content has ${actual[kind]}`,
      );
    }
  }
}

async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
