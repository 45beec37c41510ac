import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MIGRATIONS } from '../../db/migrations/index.ts';
import { BadRequest } from '../../errors.ts';
import { BACKUP_MESSAGES } from './messages.ts';

export const BACKUP_FORMAT = 'depot-backup';
/**
 * Version 3 adds row positions and metadata deltas; version 2 kept binaries in packs; version 1
 * a file per blob. All three are read.
 */
export const BACKUP_FORMAT_VERSION = 3;
const READABLE_VERSIONS = [1, 2, 3];

/** What `manifest.json` says about the backup beside it (docs/backup.md, "Format"). */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  depotVersion: string;
  /** The migrations the database had: a restore needs the same list. */
  schema: string[];
  /** When the snapshot's transaction began: every row is as it stood then. */
  snapshotAt: string;
  finishedAt: string;
  incremental: boolean;
  /** Version 1: where the blob files are, relative to the backup's own directory. */
  blobsDir?: string;
  /** Version 2: where the packs are, relative to the backup's directory (`packs`, `../packs`). */
  packsDir?: string;
  /** Version 2: the packs holding this backup's blobs (names without `.pack`). */
  packs?: string[];
  contentIncluded: boolean;
  propertiesIncluded: boolean;
  buildsIncluded: boolean;
  repositories: string[];
  counts: Record<string, number>;
  blobs: { count: number; bytes: number; copied: number; copiedBytes: number };
  /** Names the master key the secrets are sealed with (a hash, not the key). */
  masterKeyId: string;
  masterKeyIncluded: boolean;
  warnings: string[];
  /**
   * Version 3: `full` (`metadata.jsonl` holds every row) or `delta` (only the rows written
   * since the snapshot of `basedOn`, and in `vanished.json` the positions of rows gone since).
   */
  metadata?: 'full' | 'delta';
  /** A delta's base: the backup beside it whose snapshot it continues. */
  basedOn?: string;
  /** Deltas back to the last full dump: 0 for a full one. */
  chainLength?: number;
  /** Rows in its `metadata.jsonl`: all of them, or a delta's new and changed ones. */
  rowsWritten?: number;
  /** Version 3: the snapshot it was taken from, which the next delta continues. */
  snapshot?: SnapshotInfo;
  /** Version 3: SHA-256 of its files (`metadata.jsonl`, `vanished.json`, `ids/<table>`). */
  files?: Record<string, string>;
}

/** A snapshot, and the database it was taken from (docs/backup.md, "Incremental metadata"). */
export interface SnapshotInfo {
  /** `pg_snapshot_xmin` and `pg_snapshot_xmax` of the snapshot, as 64-bit decimals. */
  xmin: string;
  xmax: string;
  /** The cluster's system identifier (when readable) and the database's oid. */
  database: string;
  /** Each backed-up table's file: another one means the table was rewritten. */
  relfilenodes: Record<string, string>;
}

export const schemaVersion = () => Object.keys(MIGRATIONS);

export const masterKeyId = (key: Buffer) =>
  createHash('sha256').update('depot master key id\0').update(key).digest('hex').slice(0, 16);

/** Reads and checks a backup's manifest; a restore refuses what it cannot read. */
export async function readManifest(dir: string, shownPath: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await readFile(join(dir, 'manifest.json'), 'utf8');
  } catch {
    throw new BadRequest(BACKUP_MESSAGES.noBackupAt(shownPath), 'importPath');
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(text) as BackupManifest;
  } catch {
    throw new BadRequest(BACKUP_MESSAGES.unreadable(shownPath), 'importPath');
  }
  if (manifest.format !== BACKUP_FORMAT || !READABLE_VERSIONS.includes(manifest.formatVersion))
    throw new BadRequest(BACKUP_MESSAGES.unreadable(shownPath), 'importPath');
  if (JSON.stringify(manifest.schema) !== JSON.stringify(schemaVersion()))
    throw new BadRequest(BACKUP_MESSAGES.otherSchema, 'importPath');
  if (!keepsBinariesInside(manifest))
    throw new BadRequest(BACKUP_MESSAGES.layoutOutside(shownPath), 'importPath');
  return manifest;
}

/** The places a Depot writes a backup's binaries: inside it, or the shared packs beside it. */
const BLOBS_DIRS = [undefined, 'blobs'];
const PACKS_DIRS = [undefined, 'packs', '../packs'];
/** A pack's name as the writer makes it (`backup-20260101.120000-2`): no separator. */
const PACK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Whether the manifest's layout is one Depot writes. A restore opens the files it names, so
 * a crafted manifest (`packsDir: "/etc"`, a pack `../../x`) must not lead it elsewhere.
 */
function keepsBinariesInside(manifest: BackupManifest): boolean {
  const { blobsDir, packsDir, packs } = manifest;
  if (!BLOBS_DIRS.includes(blobsDir) || !PACKS_DIRS.includes(packsDir)) return false;
  if (packs === undefined) return true;
  return (
    Array.isArray(packs) && packs.every((pack) => typeof pack === 'string' && PACK_NAME.test(pack))
  );
}
