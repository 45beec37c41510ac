import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import { BadRequest, Conflict } from '../../errors.ts';
import type { Filestore } from '../../storage/filestore.ts';
import { masterKeyId, readManifest, type BackupManifest } from './backup-manifest.ts';
import { chainOf, writeChainMetadata } from './backup-chain.ts';
import { BACKED_UP_TABLES, CLEARED_ON_RESTORE } from './backup-tables.ts';
import { backupBlobPath } from './blob-files.ts';
import { blobRows, metadataLines } from './metadata-lines.ts';
import { packedBlobOpener } from './pack-backup.ts';
import { BACKUP_MESSAGES } from './messages.ts';

/** Rows inserted per statement. */
const INSERT_BATCH = 500;
/** Items a mismatch message names; the rest are counted. */
const NAMED_MISMATCHES = 20;

export interface RestoreDeps {
  db: Database;
  filestore: Filestore;
  changes: TableChanges;
  masterKey: Buffer;
}

export interface RestoreReport {
  manifest: BackupManifest;
  rows: number;
  blobs: number;
  warnings: string[];
}

/**
 * Restores a backup into a Depot without repositories: first every blob, each hashed as it
 * is read and refused when its SHA-256 is not its name (the items that use it are named, and
 * nothing is restored); then the metadata in one transaction, which replaces the fresh
 * instance's users and settings. A failure leaves the database as it was.
 */
export async function restoreBackup(
  deps: RestoreDeps,
  dir: string,
  shownPath: string,
  openBlob?: BlobOpener,
): Promise<RestoreReport> {
  const manifest = await readManifest(dir, shownPath);
  await requireEmpty(deps.db);
  if (manifest.metadata !== 'delta')
    return restoreMetadata(deps, dir, manifest, resolve(dir, 'metadata.jsonl'), openBlob);
  // A delta: its chain, every link checked first, adds up to one metadata file to restore.
  const links = await chainOf(resolve(dir), manifest);
  const work = await mkdtemp(join(deps.filestore.tmpDir, 'restore-'));
  try {
    const metadataFile = join(work, 'metadata.jsonl');
    await writeChainMetadata(links, metadataFile);
    return await restoreMetadata(deps, dir, manifest, metadataFile, openBlob);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function restoreMetadata(
  deps: RestoreDeps,
  dir: string,
  manifest: BackupManifest,
  metadataFile: string,
  openBlob?: BlobOpener,
): Promise<RestoreReport> {
  const opener = openBlob ? { openBlob, close: async () => undefined } : blobOpener(dir, manifest);
  const blobs = await installBlobs(deps.filestore, metadataFile, opener.openBlob).finally(
    opener.close,
  );
  if (blobs.bad.size > 0) {
    const items = await itemsUsing(metadataFile, blobs.bad);
    throw new Conflict(
      BACKUP_MESSAGES.mismatches(
        items.slice(0, NAMED_MISMATCHES),
        Math.max(0, items.length - NAMED_MISMATCHES),
      ),
    );
  }
  const rows = await deps.db.transaction().execute(async (tx) => {
    await requireEmpty(tx);
    for (const table of [...BACKED_UP_TABLES.map((spec) => spec.table)].reverse())
      await sql`delete from ${sql.table(table)}`.execute(tx);
    for (const table of CLEARED_ON_RESTORE) await sql`delete from ${sql.table(table)}`.execute(tx);
    const inserted = await insertRows(tx, metadataFile);
    await resetSequences(tx);
    return inserted;
  });
  deps.changes.changedAll();
  const warnings =
    manifest.masterKeyId === masterKeyId(deps.masterKey) ? [] : [BACKUP_MESSAGES.otherMasterKey];
  return { manifest, rows, blobs: blobs.installed, warnings };
}

/** Opens a blob of the backup by its SHA-256 (a file of a directory, or an entry of a zip). */
export type BlobOpener = (sha256: string) => Promise<Readable>;

/** A directory backup's blobs: in its packs (version 2), or a file each (version 1). */
function blobOpener(dir: string, manifest: BackupManifest) {
  if (manifest.packs && manifest.packsDir)
    return packedBlobOpener(resolve(dir, manifest.packsDir), manifest.packs);
  const blobsDir = resolve(dir, manifest.blobsDir ?? 'blobs');
  return {
    openBlob: async (sha256: string): Promise<Readable> =>
      createReadStream(backupBlobPath(blobsDir, sha256)),
    close: async () => undefined,
  };
}

/** Refuses (409) a Depot that has repositories: a backup restores into an empty one only. */
export async function requireEmpty(db: Database) {
  const row = await db
    .selectFrom('repositories')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  if (Number(row.count) > 0) throw new Conflict(BACKUP_MESSAGES.notEmpty);
}

/**
 * Puts each blob into the filestore through its staging step, which hashes what it reads:
 * a blob whose SHA-256 is not its name (or that is missing or short) is set aside as bad.
 */
async function installBlobs(filestore: Filestore, metadataFile: string, open: BlobOpener) {
  const bad = new Set<string>();
  let installed = 0;
  for await (const blob of blobRows(metadataFile)) {
    const staged = await open(blob.sha256)
      .then((source) => filestore.stage(source))
      .catch(() => undefined);
    if (!staged || staged.sha256 !== blob.sha256 || staged.size !== blob.size) {
      await filestore.discard(staged);
      bad.add(blob.sha256);
      continue;
    }
    await filestore.commit(staged);
    installed += 1;
  }
  return { bad, installed };
}

/** `repoKey/path` of every item whose content is one of `shas`. */
async function itemsUsing(metadataFile: string, shas: Set<string>): Promise<string[]> {
  const repoKeys = new Map<number, string>();
  const items: string[] = [];
  for await (const { table, rowText } of metadataLines(metadataFile)) {
    if (table === 'repositories') {
      const repo = JSON.parse(rowText) as { id: number; key: string };
      repoKeys.set(repo.id, repo.key);
    } else if (table === 'nodes') {
      const node = JSON.parse(rowText) as { repository_id: number; path: string; sha256: string };
      if (node.sha256 && shas.has(node.sha256))
        items.push(`${repoKeys.get(node.repository_id)}/${node.path}`);
    }
  }
  return items.sort();
}

const RESTORED_TABLES = new Set(BACKED_UP_TABLES.map((spec) => spec.table));

/** Inserts the rows table by table, each batch through `jsonb_populate_recordset`. */
async function insertRows(tx: Database, metadataFile: string): Promise<number> {
  let batch: string[] = [];
  let batchTable = '';
  let total = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const table = sql.table(batchTable);
    await sql`insert into ${table}
      select * from jsonb_populate_recordset(null::${table}, ${`[${batch.join(',')}]`}::jsonb)`.execute(
      tx,
    );
    total += batch.length;
    batch = [];
  };
  for await (const { table, rowText } of metadataLines(metadataFile)) {
    // Only a backed-up table is written: a crafted line must not add a session or a token.
    if (!RESTORED_TABLES.has(table)) throw new BadRequest(BACKUP_MESSAGES.tableNotBackedUp(table));
    if (table !== batchTable || batch.length >= INSERT_BATCH) await flush();
    batchTable = table;
    batch.push(rowText);
  }
  await flush();
  return total;
}

/** Moves every serial column's sequence past the largest id restored. */
async function resetSequences(tx: Database) {
  for (const { table } of BACKED_UP_TABLES) {
    const { rows } = await sql<{ sequence: string | null }>`
      select pg_get_serial_sequence(${table}, 'id') as sequence
      where exists (select 1 from information_schema.columns
                    where table_schema = current_schema() and table_name = ${table}
                      and column_name = 'id')`.execute(tx);
    const sequence = rows[0]?.sequence;
    if (!sequence) continue;
    await sql`select setval(${sequence}::regclass,
      coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(tx);
  }
}
