import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Filestore } from '../../storage/filestore.ts';
import type { BlobList } from './blob-list.ts';
import { blobRows, type BlobRow } from './metadata-lines.ts';
import { indexesOf } from './pack-lookup.ts';
import {
  indexCursor,
  INDEX_SUFFIX,
  mergedIndexes,
  PACK_SUFFIX,
  packReader,
  writePack,
} from './pack.ts';

/** Where a backup's packs go: its own `packs/` (full) or its directory's shared one. */
export interface PackTarget {
  packsDir: string;
  /** The new pack's name: the backup's own (`backup-20261127.080000`). */
  name: string;
  /** A full backup's new directory: no earlier pack to merge against. */
  fresh: boolean;
}

export interface PackedBlobs {
  copied: number;
  copiedBytes: number;
  /** Every pack holding a blob of this backup, its own new one included. */
  packs: string[];
}

/** The complete packs in a directory: those whose index is in place (written last). */
export async function packsIn(packsDir: string): Promise<string[]> {
  const names = await readdir(packsDir).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith(INDEX_SUFFIX) && !name.startsWith('.'))
    .map((name) => name.slice(0, -INDEX_SUFFIX.length))
    .sort();
}

/**
 * The blobs a backup's pack may take: how many, their bytes, and a reading of them in SHA-256
 * order (each call a new one): from the metadata.jsonl the backup is still writing, or, for a
 * delta, from memory before their lines are written (docs/backup.md, "Runs").
 */
export interface NewBlobs {
  count: number;
  bytes: number;
  rows: () => Iterable<BlobRow> | AsyncIterable<BlobRow>;
}

/** The blob rows of the metadata.jsonl a backup is writing: they all lie before byte `end`. */
export const dumpedBlobRows = (file: string, end: number) => () =>
  blobRows(file, { written: true, end });

/** The packs already in the target that a backup's pack may find blobs in (none when fresh). */
export const earlierPacksIn = async (target: PackTarget): Promise<string[]> =>
  target.fresh ? [] : packsIn(target.packsDir);

/**
 * The blobs a pack takes: `rows`, but those one of the `earlierPacks` in the target holds
 * (looked up by the pack's thread as they come), or a full backup's rows as its dump reads them
 * (docs/backup.md, "Runs").
 */
export type BlobSource =
  { rows: Iterable<BlobRow> | AsyncIterable<BlobRow>; earlierPacks: string[] } | { list: BlobList };

/**
 * Writes the blobs of `source` into one new pack (under a temp name, renamed when whole: the
 * pack first, then its index, so an index never names a pack that is not there). Answers what
 * it wrote and the packs the backup needs.
 */
export async function packBlobs(
  source: BlobSource,
  filestore: Filestore,
  target: PackTarget,
  progress: (done: number, bytes: number) => void,
  stopping?: AbortSignal,
): Promise<PackedBlobs> {
  await mkdir(target.packsDir, { recursive: true });
  const blobs = 'list' in source ? source.list.rows() : source.rows;
  const earlier = 'list' in source ? [] : indexesOf(target.packsDir, source.earlierPacks);
  const temp = join(target.packsDir, `.${target.name}.${randomBytes(4).toString('hex')}`);
  const paths = { pack: `${temp}${PACK_SUFFIX}`, index: `${temp}${INDEX_SUFFIX}` };
  try {
    const written = await writePack(
      { packPath: paths.pack, indexPath: paths.index, filestoreRoot: filestore.root, earlier },
      blobs,
      progress,
      stopping,
    );
    const used = new Set(written.usedPacks);
    if (written.count > 0 || target.fresh) {
      await rename(paths.pack, join(target.packsDir, `${target.name}${PACK_SUFFIX}`));
      await rename(paths.index, join(target.packsDir, `${target.name}${INDEX_SUFFIX}`));
      used.add(target.name);
    } else await removeTemp(paths);
    return { copied: written.count, copiedBytes: written.bytes, packs: [...used].sort() };
  } catch (error) {
    await removeTemp(paths);
    throw error;
  }
}

const removeTemp = (paths: { pack: string; index: string }) =>
  Promise.all([
    unlink(paths.pack).catch(() => undefined),
    unlink(paths.index).catch(() => undefined),
  ]);

/**
 * Opens a packed backup's blobs for a restore, asked for in SHA-256 order (the metadata's
 * order): one merge of the packs' indexes, no look-up per blob. A blob no pack holds is an
 * error, which the restore reports as a mismatch of the items using it.
 */
export function packedBlobOpener(packsDir: string, packs: string[]) {
  const cursor = indexCursor(mergedIndexes(indexesOf(packsDir, packs)));
  const reader = packReader((pack) => join(packsDir, `${pack}${PACK_SUFFIX}`));
  return {
    async openBlob(sha256: string) {
      const entry = await cursor.find(sha256);
      if (!entry) throw new Error(`blob ${sha256} is in none of the backup's packs`);
      return reader.open(entry);
    },
    async close() {
      await cursor.close();
      await reader.close();
    },
  };
}
