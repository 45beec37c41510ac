import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Filestore } from '../../storage/filestore.ts';
import { blobRows, type BlobRow } from './metadata-lines.ts';

/**
 * Blob files handled at once. One at a time, each copy waited for its own round trip through
 * libuv's thread pool (open, copy, close, rename), and a backup of many small files took
 * eight times as long as `tar` of the same files; a few in flight keep the pool's threads
 * and the disk busy. More than this gains nothing on the pool's four threads.
 */
export const BLOB_FILES_IN_FLIGHT = 16;

/** Where a blob lives in a backup: `blobs/ab/<sha256>`. */
export const backupBlobPath = (blobsDir: string, sha256: string) =>
  join(blobsDir, sha256.slice(0, 2), sha256);

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * Runs `work` on each item, up to `limit` at a time, in the iterable's order of starting.
 * The first failure stops the rest from starting and is thrown once the ones running end.
 */
export async function forEachInFlight<T>(
  items: AsyncIterable<T>,
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = items[Symbol.asyncIterator]();
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure) {
      const next = await iterator.next();
      if (next.done) return;
      try {
        await work(next.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  if (failure) {
    await iterator.return?.(undefined);
    throw failure.error;
  }
}

/** The bytes a backup still has to copy: its blobs not yet in `blobsDir`. */
export async function bytesToCopy(metadataFile: string, blobsDir: string): Promise<number> {
  let bytes = 0;
  await forEachInFlight(blobRows(metadataFile), BLOB_FILES_IN_FLIGHT, async (blob) => {
    if (!(await exists(backupBlobPath(blobsDir, blob.sha256)))) bytes += blob.size;
  });
  return bytes;
}

export interface CopyReport {
  copied: number;
  copiedBytes: number;
  present: number;
}

export interface CopyTarget {
  blobsDir: string;
  /**
   * The directory is this backup's own and new (a full backup, renamed into place only when
   * whole): nothing is in it yet and nobody reads it, so blobs are neither looked for first
   * nor written under a temp name.
   */
  fresh: boolean;
}

/**
 * Copies the blobs the metadata names into the target, skipping those there already (an
 * incremental backup copies only new ones). In a shared directory each goes to a temp name
 * and is renamed, so a blob in the backup is whole or absent. The kernel copies
 * (copy_file_range): no bytes pass through this process's memory.
 */
export async function copyBlobs(
  metadataFile: string,
  filestore: Filestore,
  target: CopyTarget,
  progress: (done: number, bytes: number) => void,
  stopping?: AbortSignal,
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, copiedBytes: 0, present: 0 };
  let presentBytes = 0;
  const madeDirs = new Set<string>();
  const dirFor = async (sha256: string) => {
    const dir = join(target.blobsDir, sha256.slice(0, 2));
    if (madeDirs.has(dir)) return;
    await mkdir(dir, { recursive: true });
    madeDirs.add(dir);
  };
  await forEachInFlight(blobRows(metadataFile), BLOB_FILES_IN_FLIGHT, async (blob: BlobRow) => {
    stopping?.throwIfAborted();
    const path = backupBlobPath(target.blobsDir, blob.sha256);
    if (!target.fresh && (await exists(path))) {
      report.present += 1;
      presentBytes += blob.size;
    } else {
      await dirFor(blob.sha256);
      if (target.fresh) await copyFile(filestore.pathOf(blob.sha256), path);
      else await copyWhole(filestore.pathOf(blob.sha256), path);
      report.copied += 1;
      report.copiedBytes += blob.size;
    }
    progress(report.copied + report.present, report.copiedBytes + presentBytes);
  });
  return report;
}

/** Copies to a temp name beside `path` and renames: readers see the whole file or none. */
async function copyWhole(source: string, path: string) {
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await copyFile(source, temp);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
