import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { InsufficientStorage } from '../../errors.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { BlobHold } from '../maintenance/blob-hold.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  masterKeyId,
  schemaVersion,
  type BackupManifest,
  type SnapshotInfo,
} from './backup-manifest.ts';
import { lockBackupDir } from './backup-lock.ts';
import { removeExpiredBackups } from './retention.ts';
import { deltaBaseIn, snapshotInfo, VANISHED_FILE, type DeltaBase } from './backup-chain.ts';
import {
  earlierPacksIn,
  packBlobs,
  dumpedBlobRows,
  type NewBlobs,
  type PackedBlobs,
  type PackTarget,
} from './pack-backup.ts';
import { dumpMetadata, type DumpResult, type DumpTarget } from './metadata-dump.ts';
import { bytesNotInPacks, indexesOf } from './pack-lookup.ts';
import { BACKUP_MESSAGES } from './messages.ts';
import { BLOB_LIST_FILE, BlobList } from './blob-list.ts';
import { ZIP_SUFFIX, writeZipBackup } from './zip-backup.ts';

export interface RepositoryRow {
  id: number;
  key: string;
  package_type: string;
  created_at: Date;
}

/** What one backup takes and where it goes (docs/backup.md). */
export interface BackupRequest {
  /** An allowed directory: the backup becomes `dir/backup-<time>/`. */
  dir: string;
  /** Blobs go to a pack in `dir/packs`, shared with earlier backups there: only new ones. */
  incremental: boolean;
  /** One zip file, `dir/backup-<time>.zip`, instead of a directory; always a full backup. */
  createArchive: boolean;
  excludeContent: boolean;
  includeProperties: boolean;
  excludeBuilds: boolean;
  includeMasterKey: boolean;
  precalculate: boolean;
  /** After a successful backup, remove the directory's backups older than this (hours). */
  retentionPeriodHours?: number;
  chooseRepositories: (repositories: RepositoryRow[]) => number[];
}

export interface BackupDeps {
  db: Database;
  filestore: Filestore;
  blobHold: BlobHold;
  /** PostgreSQL, shared by several processes: the snapshot is REPEATABLE READ, the hold a lock. */
  sharedDatabase: boolean;
  depotVersion: string;
  masterKey: Buffer;
}

export interface BackupProgress {
  phase: 'metadata' | 'space' | 'binaries' | 'finishing';
  blobsDone: number;
  blobsTotal: number;
  /** Bytes of binaries handled so far (copied, found in place, or zipped), and in all. */
  bytesDone: number;
  bytesTotal: number;
}

interface Snapshot extends DumpResult {
  snapshotAt: string;
  repositories: string[];
  info: SnapshotInfo;
  /** The backup this one's metadata is a delta of, when it is one. */
  base?: DeltaBase;
}

/**
 * Writes one backup: the metadata from one database snapshot, then the blobs it names, while
 * garbage collection is held off so none of them goes in between. Everything is written under
 * a temp name and renamed at the end: a failed backup leaves no half backup and never touches
 * an earlier one. Answers the manifest and the backup's directory.
 */
export async function writeBackup(
  deps: BackupDeps,
  request: BackupRequest,
  onProgress: (progress: BackupProgress) => void = () => undefined,
  stopping?: AbortSignal,
): Promise<{ manifest: BackupManifest; path: string; removed: number }> {
  const started = new Date();
  await mkdir(request.dir, { recursive: true });
  const unlock = await lockBackupDir(request.dir);
  try {
    const written = await writeLocked(deps, request, started, onProgress, stopping);
    // Under the lock too: retention removes backups and packs another run could be using.
    const removed = request.retentionPeriodHours
      ? await removeExpiredBackups(request.dir, request.retentionPeriodHours, written.path)
      : 0;
    return { ...written, removed };
  } finally {
    await unlock();
  }
}

async function writeLocked(
  deps: BackupDeps,
  request: BackupRequest,
  started: Date,
  onProgress: (progress: BackupProgress) => void,
  stopping?: AbortSignal,
): Promise<{ manifest: BackupManifest; path: string }> {
  const name = await freeName(request.dir, started);
  const temp = join(request.dir, `.${name}.${randomBytes(4).toString('hex')}.partial`);
  await mkdir(temp);
  const packsDir = request.incremental ? join(request.dir, 'packs') : join(temp, 'packs');
  const metadataFile = join(temp, 'metadata.jsonl');
  const zipTemp = join(temp, `${name}${ZIP_SUFFIX}`);
  // A directory backup's binaries go into its pack while the dump goes on (docs/backup.md,
  // "Consistency"): a full one's from the dump's first blob rows, an incremental one's once
  // its new blob rows are known (before their lines are written, when the delta's way of
  // reading them learned their contents) or else in the file; a zip holds the whole dump, so
  // it waits for it.
  const packs = new AbortController();
  const packSignal = stopping ? AbortSignal.any([stopping, packs.signal]) : packs.signal;
  let packing: Promise<PackedBlobs> | undefined;
  let blobList: BlobList | undefined;
  const packsEarly = !request.createArchive && !request.excludeContent;
  // An incremental directory backup's pack starts with the backup: its thread starts and
  // opens the earlier packs' indexes while the database reads, then waits for the new blob
  // rows (docs/backup.md, "Eleventh round").
  const newBlobs = packsEarly && request.incremental ? new PendingBlobs() : undefined;
  const stopPacking = async () => {
    packs.abort();
    blobList?.fail(new Error('the backup stopped'));
    newBlobs?.fail(new Error('the backup stopped'));
    await packing?.catch(() => undefined);
  };
  try {
    let copied: PackedBlobs = { copied: 0, copiedBytes: 0, packs: [] };
    let zipManifest: BackupManifest | undefined;
    const progressOf =
      (blobsTotal: number, bytesTotal: number) => (done: number, bytesDone: number) =>
        onProgress({ phase: 'binaries', blobsDone: done, blobsTotal, bytesDone, bytesTotal });
    const startPacking = (blobs: Promise<NewBlobs>) => {
      packing = packBinaries(
        deps,
        request,
        blobs,
        { packsDir, name, fresh: !request.incremental },
        onProgress,
        packSignal,
      );
      packing.catch(() => undefined); // awaited after the snapshot, or by stopPacking
    };
    if (newBlobs) startPacking(newBlobs.known);
    // Until the dump has read every blob row, a streamed pack's progress counts every blob of
    // the database (at most the backup's); then the backup's own.
    const totals = { count: 0, bytes: 0 };
    const streamPacking = async (everyBlob: { count: number; bytes: number }) => {
      if (request.precalculate) {
        onProgress({ phase: 'space', blobsDone: 0, bytesDone: 0, ...blobTotals(everyBlob) });
        // Too little room for every blob: the exact check waits for the backup's own.
        if (!(await hasRoomFor(request.dir, everyBlob.bytes))) return undefined;
      }
      Object.assign(totals, everyBlob);
      blobList = new BlobList(join(temp, BLOB_LIST_FILE));
      packing = packBlobs(
        { list: blobList },
        deps.filestore,
        { packsDir, name, fresh: true },
        (done, bytesDone) =>
          onProgress({ phase: 'binaries', blobsDone: done, bytesDone, ...blobTotals(totals) }),
        packSignal,
      );
      packing.catch(() => undefined); // awaited after the snapshot, or by stopPacking
      return blobList;
    };
    const snapshot = await heldSnapshot(
      deps,
      async (tx) => {
        onProgress({ phase: 'metadata', blobsDone: 0, blobsTotal: 0, bytesDone: 0, bytesTotal: 0 });
        try {
          return await readSnapshot(tx, request, temp, {
            sharedDatabase: deps.sharedDatabase,
            // A full backup's pack starts with the dump's first blob rows (docs/backup.md, "Runs").
            streamPacking: packsEarly && !request.incremental ? streamPacking : undefined,
            // A delta's pack goes on once its new blob rows are known, before their lines.
            onDeltaBlobs: ({ rows, bytes }) =>
              newBlobs?.found({ count: rows.length, bytes, rows: () => rows }),
            onBlobsDumped: ({ count, bytes, end }) => {
              const dumped = { count, bytes, rows: dumpedBlobRows(metadataFile, end) };
              if (blobList) Object.assign(totals, { count, bytes });
              else if (newBlobs) newBlobs.found(dumped);
              else if (packsEarly && !packing) startPacking(Promise.resolve(dumped));
            },
          });
        } catch (error) {
          // Still under the blob hold: no pack goes on reading after it is released.
          await stopPacking();
          throw error;
        }
      },
      async (taken) => {
        newBlobs?.fail(new Error('the metadata dump never reached the blobs table'));
        if (packing) {
          copied = await packing;
          blobList?.remove();
          // A delta's metadata names only its new blobs; the restore needs its chain's too.
          const basePacks = taken.base?.manifest.packs ?? [];
          if (taken.base) copied.packs = [...new Set([...basePacks, ...copied.packs])].sort();
          return;
        }
        if (packsEarly) throw new Error('the metadata dump never reached the blobs table');
        if (!request.createArchive) return;
        const total = request.excludeContent ? 0 : taken.blobCount;
        if (request.precalculate && !request.excludeContent) {
          onProgress({
            phase: 'space',
            blobsDone: 0,
            blobsTotal: total,
            bytesDone: 0,
            bytesTotal: taken.blobBytes,
          });
          await checkSpace(request.dir, taken.blobBytes);
        }
        // A zip holds every blob it names: its copy counts are known before it is written.
        if (!request.excludeContent)
          copied = { copied: total, copiedBytes: taken.blobBytes, packs: [] };
        const manifest = manifestOf(deps, request, taken, copied);
        await writeZipBackup(
          {
            metadataFile,
            includeBlobs: !request.excludeContent,
            filestore: deps.filestore,
            manifest: () => (zipManifest = { ...manifest, finishedAt: new Date().toISOString() }),
            masterKey: request.includeMasterKey ? deps.masterKey : undefined,
            onBlob: progressOf(total, taken.blobBytes),
            stopping,
          },
          zipTemp,
        );
      },
    );
    const bytes = request.excludeContent ? 0 : snapshot.blobBytes;
    onProgress({
      phase: 'finishing',
      blobsDone: request.excludeContent ? 0 : snapshot.blobCount,
      blobsTotal: request.excludeContent ? 0 : snapshot.blobCount,
      bytesDone: bytes,
      bytesTotal: bytes,
    });
    if (zipManifest) {
      const path = join(request.dir, `${name}${ZIP_SUFFIX}`);
      await rename(zipTemp, path);
      await rm(temp, { recursive: true, force: true });
      return { manifest: zipManifest, path };
    }
    const manifest = manifestOf(deps, request, snapshot, copied);
    if (request.includeMasterKey) {
      await mkdir(join(temp, 'security'));
      await writeFile(join(temp, 'security', 'master.key'), deps.masterKey.toString('hex'), {
        mode: 0o600,
      });
    }
    await writeFile(join(temp, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const path = join(request.dir, name);
    await rename(temp, path);
    return { manifest, path };
  } catch (error) {
    await stopPacking();
    blobList?.remove();
    await rm(temp, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    throw code === 'ENOSPC' || code === 'EDQUOT'
      ? new InsufficientStorage(BACKUP_MESSAGES.targetFull)
      : error;
  }
}

/**
 * Reads the snapshot and runs `afterSnapshot` (the blob copy) with blob deletion held off.
 * On PostgreSQL the snapshot is one REPEATABLE READ transaction on a pinned connection that
 * also holds the shared advisory lock until the copy ends; the embedded database has one
 * session and one process, so its transaction is enough and the in-process hold covers GC.
 */
async function heldSnapshot(
  deps: BackupDeps,
  read: (tx: Database) => Promise<Snapshot>,
  afterSnapshot: (snapshot: Snapshot) => Promise<void>,
): Promise<Snapshot> {
  return deps.blobHold.during(async () => {
    if (!deps.sharedDatabase) {
      const snapshot = await deps.db.transaction().execute(read);
      await afterSnapshot(snapshot);
      return snapshot;
    }
    return deps.db.connection().execute(async (connection) => {
      const release = await deps.blobHold.lockShared(connection);
      try {
        const snapshot = await connection
          .transaction()
          .setIsolationLevel('repeatable read')
          .execute(read);
        await afterSnapshot(snapshot);
        return snapshot;
      } finally {
        await release();
      }
    });
  });
}

async function readSnapshot(
  tx: Database,
  request: BackupRequest,
  temp: string,
  options: {
    sharedDatabase: boolean;
    onBlobsDumped?: DumpTarget['onBlobsDumped'];
    onDeltaBlobs?: DumpTarget['onDeltaBlobs'];
    /**
     * Told how many blobs the database holds and their bytes before the dump starts; answers
     * the list its blob rows go to as they are read, when a pack reads them meanwhile.
     */
    streamPacking?: (everyBlob: { count: number; bytes: number }) => Promise<BlobList | undefined>;
  },
): Promise<Snapshot> {
  const { rows } = await sql<{ at: string }>`select now()::text as at`.execute(tx);
  const repositories = (await tx
    .selectFrom('repositories')
    .select(['id', 'key', 'package_type', 'created_at'])
    .orderBy('key')
    .execute()) as RepositoryRow[];
  const chosen = new Set(request.chooseRepositories(repositories));
  const chosenKeys = repositories.filter((repo) => chosen.has(repo.id)).map((repo) => repo.key);
  const info = await snapshotInfo(tx);
  // Only an incremental directory backup continues the one before it (docs/backup.md).
  const base =
    request.incremental && !request.createArchive
      ? await deltaBaseIn(
          request.dir,
          {
            repositories: chosenKeys,
            contentIncluded: !request.excludeContent,
            propertiesIncluded: request.includeProperties,
            buildsIncluded: !request.excludeBuilds,
          },
          info,
        )
      : undefined;
  const blobList = base ? undefined : await options.streamPacking?.(await everyBlobIn(tx));
  const dump = await dumpMetadata(
    tx,
    join(temp, 'metadata.jsonl'),
    {
      repositoryIds: [...chosen],
      excludeBuilds: request.excludeBuilds,
      includeProperties: request.includeProperties,
    },
    {
      idsDir: join(temp, 'ids'),
      copyToBlob: !options.sharedDatabase,
      onBlobsDumped: options.onBlobsDumped,
      onDeltaBlobs: options.onDeltaBlobs,
      blobList,
      delta: base && {
        sinceXmin: BigInt(base.manifest.snapshot!.xmin),
        previousIdsDir: join(base.dir, 'ids'),
        previousBlobs: base.manifest.blobs,
      },
    },
  );
  if (base) {
    const vanished = `${JSON.stringify(dump.vanished)}\n`;
    await writeFile(join(temp, VANISHED_FILE), vanished);
    dump.files[VANISHED_FILE] = createHash('sha256').update(vanished).digest('hex');
  }
  return {
    ...dump,
    snapshotAt: new Date(rows[0].at).toISOString(),
    repositories: chosenKeys,
    info,
    base,
  };
}

/**
 * A directory backup's binaries: the pack of the blobs no earlier pack holds. It starts at once
 * (its thread starts and opens the earlier packs' indexes) and takes the blobs when `known`
 * answers, after the space check, beside the rest of the dump.
 */
async function packBinaries(
  deps: BackupDeps,
  request: BackupRequest,
  known: Promise<NewBlobs>,
  target: PackTarget,
  onProgress: (progress: BackupProgress) => void,
  stopping: AbortSignal,
): Promise<PackedBlobs> {
  const earlierPacks = await earlierPacksIn(target);
  const totals = { count: 0, bytes: 0 };
  async function* checkedRows() {
    const blobs = await known;
    Object.assign(totals, { count: blobs.count, bytes: blobs.bytes });
    if (request.precalculate) {
      onProgress({ phase: 'space', blobsDone: 0, bytesDone: 0, ...blobTotals(totals) });
      // Only an incremental backup's shared packs can hold some of them already. When even
      // every blob of the backup fits, its thread looks them up as they come; else the space
      // check waits for the exact figure, looked up here first (docs/backup.md, "Tenth round").
      if (!(await hasRoomFor(request.dir, blobs.bytes))) {
        const indexes = indexesOf(target.packsDir, earlierPacks);
        await checkSpace(request.dir, await bytesNotInPacks(blobs.rows(), indexes, blobs.bytes));
      }
    }
    yield* blobs.rows();
  }
  const progress = (done: number, bytesDone: number) =>
    onProgress({ phase: 'binaries', blobsDone: done, bytesDone, ...blobTotals(totals) });
  const source = { rows: checkedRows(), earlierPacks };
  return packBlobs(source, deps.filestore, target, progress, stopping);
}

/**
 * The new blob rows of a delta, once the dump learns them: a pack started with the backup
 * waits for them. `fail` ends the wait (the backup stopped, or its dump never reached them).
 */
class PendingBlobs {
  readonly known: Promise<NewBlobs>;
  private settle?: { found: (blobs: NewBlobs) => void; fail: (error: Error) => void };

  constructor() {
    this.known = new Promise<NewBlobs>((found, fail) => (this.settle = { found, fail }));
    this.known.catch(() => undefined); // the pack's wait hears it
  }

  /** The first answer counts: a delta learns its blob rows before it writes their lines. */
  found(blobs: NewBlobs) {
    this.settle?.found(blobs);
    this.settle = undefined;
  }

  fail(error: Error) {
    this.settle?.fail(error);
    this.settle = undefined;
  }
}

/** Refuses to start copying when the target's free space is smaller than what is to copy. */
async function checkSpace(dir: string, needed: number) {
  const free = await freeSpace(dir);
  if (needed > free) throw new InsufficientStorage(BACKUP_MESSAGES.noSpace(needed, free));
}

const hasRoomFor = async (dir: string, needed: number) => needed <= (await freeSpace(dir));

async function freeSpace(dir: string) {
  const disk = await statfs(dir);
  return Number(disk.bavail) * Number(disk.bsize);
}

const blobTotals = ({ count, bytes }: { count: number; bytes: number }) => ({
  blobsTotal: count,
  bytesTotal: bytes,
});

/** Every blob row of the snapshot, counted with its bytes: one scan, no join. */
async function everyBlobIn(tx: Database): Promise<{ count: number; bytes: number }> {
  const { rows } = await sql<{ count: string; bytes: string }>`
    select count(*)::text as count, coalesce(sum(size), 0)::text as bytes from blobs`.execute(tx);
  return { count: Number(rows[0].count), bytes: Number(rows[0].bytes) };
}

function manifestOf(
  deps: BackupDeps,
  request: BackupRequest,
  snapshot: Snapshot,
  copied: { copied: number; copiedBytes: number; packs: string[] },
): BackupManifest {
  return {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    depotVersion: deps.depotVersion,
    schema: schemaVersion(),
    snapshotAt: snapshot.snapshotAt,
    finishedAt: new Date().toISOString(),
    incremental: request.incremental,
    ...(request.createArchive
      ? { blobsDir: 'blobs' }
      : { packsDir: request.incremental ? '../packs' : 'packs', packs: copied.packs }),
    contentIncluded: !request.excludeContent,
    propertiesIncluded: request.includeProperties,
    buildsIncluded: !request.excludeBuilds,
    repositories: snapshot.repositories,
    counts: snapshot.counts,
    blobs: {
      count: snapshot.blobCount,
      bytes: snapshot.blobBytes,
      copied: copied.copied,
      copiedBytes: copied.copiedBytes,
    },
    masterKeyId: masterKeyId(deps.masterKey),
    masterKeyIncluded: request.includeMasterKey,
    warnings: request.includeMasterKey ? [BACKUP_MESSAGES.masterKeyWarning] : [],
    metadata: snapshot.base ? 'delta' : 'full',
    ...(snapshot.base && { basedOn: snapshot.base.name }),
    chainLength: snapshot.base ? (snapshot.base.manifest.chainLength ?? 0) + 1 : 0,
    rowsWritten: snapshot.base
      ? Object.values(snapshot.changed).reduce((sum, n) => sum + n, 0)
      : Object.values(snapshot.counts).reduce((sum, n) => sum + n, 0),
    snapshot: snapshot.info,
    // A zip holds no row positions: no delta builds on it.
    ...(!request.createArchive && { files: snapshot.files }),
  };
}

/** `backup-20260101.120000`, with `-2`, `-3`, ... when one of that second exists. */
async function freeName(dir: string, at: Date): Promise<string> {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '.').slice(0, 15);
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? `backup-${stamp}` : `backup-${stamp}-${n}`;
    if (await exists(join(dir, `${name}${ZIP_SUFFIX}`))) continue;
    try {
      await mkdir(join(dir, name));
      await rm(join(dir, name), { recursive: true });
      return name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
