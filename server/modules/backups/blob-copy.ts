import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Filestore } from '../../storage/filestore.ts';
import { blobRows } from './metadata-lines.ts';

/** Where a blob lives in a backup: `blobs/ab/<sha256>`. */
export const backupBlobPath = (blobsDir: string, sha256: string) =>
  join(blobsDir, sha256.slice(0, 2), sha256);

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The bytes a backup still has to copy: its blobs not yet in `blobsDir`. */
export async function bytesToCopy(metadataFile: string, blobsDir: string): Promise<number> {
  let bytes = 0;
  for await (const blob of blobRows(metadataFile))
    if (!(await exists(backupBlobPath(blobsDir, blob.sha256)))) bytes += blob.size;
  return bytes;
}

export interface CopyReport {
  copied: number;
  copiedBytes: number;
  present: number;
}

/**
 * Copies the blobs the metadata names into `blobsDir`, skipping those there already (an
 * incremental backup copies only new ones). Each goes to a temp name and is renamed, so a
 * blob in the backup is whole or absent. The kernel copies (copy_file_range): no bytes pass
 * through this process's memory.
 */
export async function copyBlobs(
  metadataFile: string,
  filestore: Filestore,
  blobsDir: string,
  progress: (done: number, bytes: number) => void,
  stopping?: AbortSignal,
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, copiedBytes: 0, present: 0 };
  let presentBytes = 0;
  for await (const blob of blobRows(metadataFile)) {
    stopping?.throwIfAborted();
    const target = backupBlobPath(blobsDir, blob.sha256);
    if (await exists(target)) {
      report.present += 1;
      presentBytes += blob.size;
    } else {
      await mkdir(join(blobsDir, blob.sha256.slice(0, 2)), { recursive: true });
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await copyFile(filestore.pathOf(blob.sha256), temp);
        await rename(temp, target);
      } catch (error) {
        await unlink(temp).catch(() => undefined);
        throw error;
      }
      report.copied += 1;
      report.copiedBytes += blob.size;
    }
    progress(report.copied + report.present, report.copiedBytes + presentBytes);
  }
  return report;
}
