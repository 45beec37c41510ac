import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { finished, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Conflict, InsufficientStorage } from '../errors.ts';

export interface Checksums {
  sha256: string;
  sha1: string;
  md5?: string;
}

export interface StoredBlob extends Checksums {
  size: number;
}

export interface StagedBlob extends StoredBlob {
  tmpPath: string;
}

const SHA256 = /^[0-9a-f]{64}$/;
const READ_CHUNK = 1024 * 1024;

/**
 * Binaries, content-addressed by SHA-256 under `root/ab/cd/<sha256>`. A write streams into a
 * temp file while hashing, is verified against the checksums the client sent, fsynced and
 * renamed into place: a blob is either whole at its name or absent. The same content is
 * stored once. MD5 is hashed inline only when the client sent one to verify (it halves
 * hashing speed); otherwise `md5Of` computes it later, on demand.
 */
export class Filestore {
  private readonly tmpDir: string;

  constructor(readonly root: string) {
    this.tmpDir = join(root, '_tmp');
    mkdirSync(this.tmpDir, { recursive: true });
  }

  /** Removes temp files a crash left behind; run at start, before any upload. */
  sweepTemp(): number {
    const leftovers = readdirSync(this.tmpDir);
    for (const name of leftovers) rmSync(join(this.tmpDir, name), { force: true, recursive: true });
    return leftovers.length;
  }

  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
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
    const tmpPath = join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
    const hashes = {
      sha256: createHash('sha256'),
      sha1: createHash('sha1'),
      md5: expected.md5 ? createHash('md5') : undefined,
    };
    let size = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        hashes.sha256.update(chunk);
        hashes.sha1.update(chunk);
        hashes.md5?.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await writeThrough(source, hashing, tmpPath);
      const staged: StagedBlob = {
        tmpPath,
        sha256: hashes.sha256.digest('hex'),
        sha1: hashes.sha1.digest('hex'),
        md5: hashes.md5?.digest('hex'),
        size,
      };
      verifyChecksums(expected, staged);
      await fsyncFile(tmpPath);
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
   * blob a moment ago, this puts it back. Call it after the blob's row is locked.
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
    await fsyncFile(dir); // the rename itself must survive a power cut
  }

  async discard(staged: StagedBlob | undefined): Promise<void> {
    if (staged) await unlink(staged.tmpPath).catch(() => undefined);
  }

  read(sha256: string, range?: { start: number; end: number }): Readable {
    // 1 MiB reads: the default 64 KiB makes large downloads pay per-chunk overhead 16 times over.
    return createReadStream(this.pathOf(sha256), { ...range, highWaterMark: READ_CHUNK });
  }

  /** MD5 of a stored blob, streamed from disk (for blobs deployed without one). */
  async md5Of(sha256: string): Promise<string> {
    const hash = createHash('md5');
    for await (const chunk of this.read(sha256)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  async remove(sha256: string): Promise<void> {
    await unlink(this.pathOf(sha256)).catch(() => undefined);
  }
}

/**
 * Pipes a source through the hashing transform into a new file. Unlike `pipeline`, a failed
 * write does not destroy the source: destroying an HTTP request closes its socket before
 * the client reads why its upload failed. A source that breaks off fails the write.
 */
async function writeThrough(source: Readable, hashing: Transform, tmpPath: string) {
  const writing = pipeline(hashing, createWriteStream(tmpPath, { flags: 'wx' }));
  const stopWatching = finished(source, { writable: false }, (error) => {
    if (error) hashing.destroy(error);
  });
  source.pipe(hashing);
  try {
    await writing;
  } finally {
    stopWatching();
    source.unpipe(hashing);
  }
}

const isDiskFull = (error: unknown) =>
  ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException)?.code ?? '');

function verifyChecksums(expected: Partial<Checksums>, actual: StoredBlob): void {
  for (const kind of ['sha256', 'sha1', 'md5'] as const) {
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
