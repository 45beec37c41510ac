import { createHash, randomUUID, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, stat, truncate, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import type { Database } from '../../db/database.ts';
import type { Tx } from '../../modules/artifacts/service.ts';
import { writeAll, type StagedBlob } from '../../storage/filestore.ts';
import type { DigestAlgorithm } from './names.ts';
import { RegistryError } from './protocol-errors.ts';

const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Expired uploads are looked for at most this often (each new upload may start a sweep). */
const SWEEP_INTERVAL_MS = 60_000;

export interface UploadLimits {
  maxBytes: number;
  expirySeconds: number;
}

export interface UploadSession {
  id: string;
  repositoryId: number;
  image: string;
  /** Bytes received so far. */
  size: number;
  /** When its row last recorded a write (the expiry counts from there). */
  touchedAt: number;
}

/** Appended bodies are written in batches of this size: one write per batch, not per chunk. */
const WRITE_BATCH = 2 * 1024 * 1024;
/** Uploads whose hashes this process keeps while they arrive; more are hashed when they end. */
const MAX_RUNNING_HASHES = 10_000;

const unknownUpload = (id: string) =>
  new RegistryError('BLOB_UPLOAD_UNKNOWN', `No blob upload '${id}' is in progress here`);

const tooLarge = (limit: number) =>
  new RegistryError(
    'SIZE_INVALID',
    `The blob exceeds the upload limit of ${limit} bytes`,
    undefined,
    413,
  );

/** A stream that counts what passes and fails once it passes `limit` bytes in total. */
function limited(startAt: number, limit: number) {
  let seen = startAt;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) done(tooLarge(limit));
      else done(null, chunk);
    },
  });
}

/**
 * The SHA-256 and SHA-1 of an upload's first `size` bytes, updated as chunks arrive, so that
 * its end needs no second read of the file. Kept in this process's memory only: an upload
 * another node of a cluster continued, or one begun before a restart, is hashed from its
 * file when it ends.
 */
interface RunningHash {
  size: number;
  sha256: Hash;
  sha1: Hash;
}

const newRunningHash = (): RunningHash => ({
  size: 0,
  sha256: createHash('sha256'),
  sha1: createHash('sha1'),
});

/**
 * Appends a body to a file, handing each chunk to `take` first (which may refuse it by
 * throwing), in batches of one `writev` each, written while the next batch arrives (one
 * write in flight at most, so at most two batches are held). A body that breaks off (a
 * dropped connection) keeps what arrived: the batch in hand is written before its error
 * goes on.
 */
async function appendBatched(body: Readable, path: string, take: (chunk: Buffer) => void) {
  const file = await open(path, 'a');
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    await writing; // in order: appends land where the previous batch ended
    if (batchBytes === 0) return;
    const [buffers, length] = [batch, batchBytes];
    batch = [];
    batchBytes = 0;
    writing = writeAll(file, buffers, length);
    // Awaited by the next flush or at the end; until then a failure must not go unhandled.
    writing.catch(() => undefined);
  };
  try {
    for await (const chunk of body.iterator({ destroyOnReturn: false })) {
      take(chunk as Buffer);
      batch.push(chunk as Buffer);
      batchBytes += (chunk as Buffer).length;
      if (batchBytes >= WRITE_BATCH) await flush();
    }
    await flush();
    await writing;
  } catch (error) {
    // A refused chunk is cut off by the caller: only what broke off is kept.
    if (!(error instanceof RegistryError)) {
      await flush();
      await writing;
    }
    throw error;
  } finally {
    // A FileHandle is closed once no write is in flight on it.
    await writing.catch(() => undefined);
    await file.close();
  }
}

/**
 * Blob uploads in progress (docs/docker.md, "Uploads"): each is a file in the filestore's
 * `_uploads/` area, appended to by PATCH and PUT, and a row naming its repository and image.
 * What arrived before a dropped connection stays, so the client resumes from the status
 * answer's Range. Nothing here is a blob: `complete` hashes the file, checks the digest and
 * hands it to the filestore as a staged blob, renamed into place by the deploy that records
 * it. Uploads untouched for longer than the expiry are removed.
 */
export function createUploadArea(db: Database, filestoreRoot: string, limits: UploadLimits) {
  // Made by the first upload, so a filestore that never held one has no such folder.
  const dir = join(filestoreRoot, '_uploads');
  const fileOf = (id: string) => join(dir, id);
  // One writer per upload at a time in this process: a second PATCH waits for the first.
  const writers = new Map<string, Promise<unknown>>();
  const runningHashes = new Map<string, RunningHash>();
  let lastSweep = 0;
  // A write is recorded in the upload's row at most this often (a hundredth of the expiry, a
  // minute at most): a chunked push's PATCHes do not each cost a write of the row.
  const touchIntervalMs = Math.min(60_000, limits.expirySeconds * 10);

  async function touch(session: UploadSession) {
    if (Date.now() - session.touchedAt < touchIntervalMs) return;
    await db
      .updateTable('docker_uploads')
      .set({ updated_at: new Date() })
      .where('id', '=', session.id)
      .execute();
    session.touchedAt = Date.now();
  }

  async function serialized<T>(id: string, work: () => Promise<T>): Promise<T> {
    const before = writers.get(id) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(work);
    writers.set(id, mine);
    try {
      return await mine;
    } finally {
      if (writers.get(id) === mine) writers.delete(id);
    }
  }

  async function remove(id: string) {
    runningHashes.delete(id);
    await db.deleteFrom('docker_uploads').where('id', '=', id).execute();
    await unlink(fileOf(id)).catch(() => undefined);
  }

  /** Removes uploads nobody wrote to within the expiry, and files no upload owns. */
  async function sweepExpired() {
    if (Date.now() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = Date.now();
    const cutoff = new Date(Date.now() - limits.expirySeconds * 1000);
    const expired = await db
      .deleteFrom('docker_uploads')
      .where('updated_at', '<', cutoff)
      .returning('id')
      .execute();
    for (const { id } of expired) {
      runningHashes.delete(id);
      await unlink(fileOf(id)).catch(() => undefined);
    }
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const info = await stat(fileOf(name)).catch(() => undefined);
      if (!info || info.mtime >= cutoff) continue;
      const owned = await db
        .selectFrom('docker_uploads')
        .select('id')
        .where('id', '=', name)
        .executeTakeFirst();
      if (!owned) await unlink(fileOf(name)).catch(() => undefined);
    }
  }

  async function find(id: string, repositoryId: number, image: string): Promise<UploadSession> {
    if (!UPLOAD_ID.test(id)) throw unknownUpload(id);
    const row = await db
      .selectFrom('docker_uploads')
      .select(['id', 'updated_at'])
      .where('id', '=', id)
      .where('repository_id', '=', repositoryId)
      .where('image', '=', image)
      .executeTakeFirst();
    if (!row) throw unknownUpload(id);
    if (row.updated_at.getTime() < Date.now() - limits.expirySeconds * 1000) {
      await remove(id);
      throw unknownUpload(id);
    }
    const size = await stat(fileOf(id)).then(
      (info) => info.size,
      () => undefined,
    );
    if (size === undefined) throw unknownUpload(id);
    return { id, repositoryId, image, size, touchedAt: row.updated_at.getTime() };
  }

  /**
   * The running hash that continues from `size` bytes: this process's own when it hashed
   * exactly those, a new one for an empty upload, else none (the end reads the file).
   */
  function runningHashAt(id: string, size: number): RunningHash | undefined {
    const running = runningHashes.get(id);
    runningHashes.delete(id);
    if (running?.size === size) return running;
    if (size === 0 && runningHashes.size < MAX_RUNNING_HASHES) return newRunningHash();
    return undefined;
  }

  /** Appends a body; a broken-off body keeps what arrived, an oversized one keeps nothing of it. */
  async function append(session: UploadSession, body: Readable, start?: number) {
    return serialized(session.id, async () => {
      const path = fileOf(session.id);
      const before = (await stat(path)).size;
      if (start !== undefined && start !== before)
        throw new RegistryError(
          'BLOB_UPLOAD_INVALID',
          `The chunk starts at ${start} but the upload has ${before} bytes`,
          { size: before },
          416,
        );
      const running = runningHashAt(session.id, before);
      let received = before;
      try {
        await appendBatched(body, path, (chunk) => {
          received += chunk.length;
          if (received > limits.maxBytes) throw tooLarge(limits.maxBytes);
          running?.sha256.update(chunk);
          running?.sha1.update(chunk);
          if (running) running.size += chunk.length;
        });
      } catch (error) {
        if (error instanceof RegistryError) {
          await truncate(path, before);
          if (!body.destroyed) body.resume();
        }
        throw error;
      } finally {
        await touch(session);
        // Kept only while it covers exactly what the file holds (a refused chunk was cut off).
        const size = await stat(path).then(
          (info) => info.size,
          () => -1,
        );
        if (running?.size === size) runningHashes.set(session.id, running);
      }
      return running?.size ?? (await stat(path)).size;
    });
  }

  /** The upload's checksums: from its running hash when that covers the file, else read. */
  async function checksumsOf(id: string, algorithm: DigestAlgorithm) {
    const path = fileOf(id);
    const size = (await stat(path)).size;
    const running = runningHashes.get(id);
    runningHashes.delete(id);
    if (algorithm === 'sha256' && running?.size === size)
      return { size, sha256: running.sha256.digest('hex'), sha1: running.sha1.digest('hex') };
    const hashes = {
      sha256: createHash('sha256'),
      sha1: createHash('sha1'),
      sha512: algorithm === 'sha512' ? createHash('sha512') : undefined,
    };
    let read = 0;
    for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
      read += (chunk as Buffer).length;
      hashes.sha256.update(chunk as Buffer);
      hashes.sha1.update(chunk as Buffer);
      hashes.sha512?.update(chunk as Buffer);
    }
    return {
      size: read,
      sha256: hashes.sha256.digest('hex'),
      sha1: hashes.sha1.digest('hex'),
      sha512: hashes.sha512?.digest('hex'),
    };
  }

  return {
    dir,

    async start(repositoryId: number, image: string): Promise<UploadSession> {
      await sweepExpired();
      const id = randomUUID();
      await mkdir(dir, { recursive: true });
      await (await open(fileOf(id), 'wx')).close();
      await db
        .insertInto('docker_uploads')
        .values({ id, repository_id: repositoryId, image })
        .execute();
      return { id, repositoryId, image, size: 0, touchedAt: Date.now() };
    },

    find,
    append,

    /**
     * The upload as a staged blob once it is whole: hashed as it arrived (or from its file),
     * checked against the digest (sha256 or sha512). A mismatch removes the upload
     * (DIGEST_INVALID, nothing kept). A match leaves its row to `forget`, in the transaction
     * that records the blob: the file is the filestore's to rename or discard from here on.
     */
    async complete(
      session: UploadSession,
      expected: { algorithm: DigestAlgorithm; hex: string },
    ): Promise<StagedBlob> {
      return serialized(session.id, async () => {
        const path = fileOf(session.id);
        const { size, sha256, sha1, sha512 } = await checksumsOf(session.id, expected.algorithm);
        const actual = expected.algorithm === 'sha512' ? sha512! : sha256;
        if (actual !== expected.hex) {
          await db.deleteFrom('docker_uploads').where('id', '=', session.id).execute();
          await unlink(path).catch(() => undefined);
          const { algorithm } = expected;
          throw new RegistryError(
            'DIGEST_INVALID',
            `The upload's content has digest ${algorithm}:${actual}, not ${algorithm}:${expected.hex}`,
          );
        }
        const handle = await open(path, 'r');
        await handle.sync().finally(() => handle.close());
        return { tmpPath: path, sha256, sha1, sha512, size };
      });
    },

    /** Removes a completed upload's row, in the transaction that records its blob. */
    async forget(tx: Tx, session: UploadSession) {
      await tx.deleteFrom('docker_uploads').where('id', '=', session.id).execute();
    },

    cancel: (session: UploadSession) => serialized(session.id, () => remove(session.id)),

    /** A stream that refuses a body larger than an upload may be (a monolithic push). */
    limiter: () => limited(0, limits.maxBytes),
  };
}

export type UploadArea = ReturnType<typeof createUploadArea>;
