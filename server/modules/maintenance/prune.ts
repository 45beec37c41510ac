import { readdir, rmdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '../../db/database.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { humanBytes } from './human-bytes.ts';

export type PruneReport = {
  info: string;
  files: number;
  bytes: number;
  directories: number;
};

const SHARD = /^[0-9a-f]{2}$/;
const BATCH = 500;

interface Candidate {
  path: string;
  name: string;
  size: number;
}

/** Shard directories `ab/cd` under the filestore root; `_tmp` and anything else is skipped. */
async function shardDirectories(root: string): Promise<string[]> {
  const dirs: string[] = [];
  for (const first of await readdir(root, { withFileTypes: true })) {
    if (!first.isDirectory() || !SHARD.test(first.name)) continue;
    for (const second of await readdir(join(root, first.name), { withFileTypes: true })) {
      if (second.isDirectory() && SHARD.test(second.name))
        dirs.push(join(root, first.name, second.name));
    }
  }
  return dirs;
}

async function oldFiles(dir: string, cutoff: number): Promise<Candidate[]> {
  const found: Candidate[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(dir, entry.name);
    const info = await stat(path).catch(() => undefined);
    if (info && info.mtimeMs < cutoff) found.push({ path, name: entry.name, size: info.size });
  }
  return found;
}

/**
 * Deletes one unreferenced file, holding off a deploy of the same content: a placeholder
 * blob row, inserted and deleted in one transaction, makes a concurrent deploy's claim wait
 * (and a claim already made makes the insert find the row and leave the file alone).
 */
async function removeIfUnreferenced(db: Database, file: Candidate, cutoff: number) {
  return db.transaction().execute(async (tx) => {
    const placeholder = await tx
      .insertInto('blobs')
      .values({ sha256: file.name, sha1: '', md5: null, size: 0 })
      .onConflict((c) => c.column('sha256').doNothing())
      .returning('sha256')
      .executeTakeFirst();
    if (!placeholder) return false;
    const info = await stat(file.path).catch(() => undefined);
    const removed = info !== undefined && info.mtimeMs < cutoff;
    if (removed) await unlink(file.path);
    await tx.deleteFrom('blobs').where('sha256', '=', file.name).execute();
    return removed;
  });
}

/**
 * Removes a directory if it is empty. A deploy that made it a moment ago and is about to
 * rename its file into it makes the directory again (Filestore.commit), so no age check.
 */
async function removeEmptyDirectory(path: string): Promise<boolean> {
  const entries = await readdir(path).catch(() => undefined);
  if (!entries || entries.length > 0) return false;
  return rmdir(path).then(
    () => true,
    () => false,
  );
}

/**
 * "Prune Unreferenced Data": deletes files in the filestore's shard directories that no blob
 * row refers to (a crash between writing a file and recording it leaves one), when older
 * than the grace period, then shard directories left empty. Uploads in progress live in
 * `_tmp`, which is never looked at.
 */
export async function pruneFilestore(
  db: Database,
  filestore: Filestore,
  graceMs: number,
): Promise<PruneReport> {
  const cutoff = Date.now() - graceMs;
  const report = { files: 0, bytes: 0, directories: 0 };
  const dirs = await shardDirectories(filestore.root);
  for (const dir of dirs) {
    const files = await oldFiles(dir, cutoff);
    for (let i = 0; i < files.length; i += BATCH) {
      const batch = files.slice(i, i + BATCH);
      const known = await db
        .selectFrom('blobs')
        .select('sha256')
        .where(
          'sha256',
          'in',
          batch.map((f) => f.name),
        )
        .execute();
      const referenced = new Set(known.map((row) => row.sha256));
      for (const file of batch.filter((f) => !referenced.has(f.name))) {
        if (await removeIfUnreferenced(db, file, cutoff)) {
          report.files += 1;
          report.bytes += file.size;
        }
      }
    }
  }
  for (const dir of dirs) if (await removeEmptyDirectory(dir)) report.directories += 1;
  for (const dir of new Set(dirs.map((shard) => join(shard, '..'))))
    if (await removeEmptyDirectory(dir)) report.directories += 1;
  return {
    info: `Pruned ${report.files} unreferenced files (${humanBytes(report.bytes)}) and ${report.directories} empty directories`,
    ...report,
  };
}
