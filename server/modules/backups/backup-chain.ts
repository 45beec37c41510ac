import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { Conflict } from '../../errors.ts';
import { readManifest, type BackupManifest, type SnapshotInfo } from './backup-manifest.ts';
import { BACKED_UP_TABLES } from './backup-tables.ts';
import { BACKUP_MESSAGES } from './messages.ts';
import { metadataLines } from './metadata-lines.ts';
import { newestBackupIn } from './retention.ts';

/** A full metadata dump, then at most this many deltas: a restore reads at most this chain. */
export const DELTAS_PER_FULL = 7;
/** Beyond this many transactions a 32-bit xmin no longer says which side of a snapshot it is. */
const XID_HORIZON = 2n ** 31n;
export const VANISHED_FILE = 'vanished.json';

/** The snapshot the transaction `tx` reads, and the database and table files it reads them from. */
export async function snapshotInfo(tx: Database): Promise<SnapshotInfo> {
  const { rows } = await sql<{ xmin: string; xmax: string; oid: string; control: boolean }>`
    select pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
           pg_snapshot_xmax(pg_current_snapshot())::text as xmax,
           (select oid::text from pg_database where datname = current_database()) as oid,
           has_function_privilege('pg_control_system()', 'execute') as control`.execute(tx);
  const { xmin, xmax, oid, control } = rows[0];
  // Who may read the cluster's identifier is the operator's choice; the oid is always there.
  const system = control
    ? (
        await sql<{
          id: string;
        }>`select system_identifier::text as id from pg_control_system()`.execute(tx)
      ).rows[0].id
    : '';
  const tables = BACKED_UP_TABLES.map((spec) => spec.table);
  const files = await sql<{ table: string; file: string }>`
    select relname::text as table, pg_relation_filenode(oid)::text as file from pg_class
     where relnamespace = current_schema()::regnamespace and relkind = 'r'
       and relname in (${sql.join(tables)})`.execute(tx);
  const relfilenodes = Object.fromEntries(files.rows.map((row) => [row.table, row.file]));
  return { xmin, xmax, database: `${system}/${oid}`, relfilenodes };
}

/** What a backup covers: a delta continues only a backup that covered the same. */
export interface Coverage {
  repositories: string[];
  contentIncluded: boolean;
  propertiesIncluded: boolean;
  buildsIncluded: boolean;
}

export interface DeltaBase {
  name: string;
  dir: string;
  manifest: BackupManifest;
}

/**
 * The backup an incremental backup into `dir` can be a delta of: the newest one there, when it
 * is an incremental directory backup of this format, of this database, with the same coverage
 * and schema, its tables not rewritten since, its chain shorter than DELTAS_PER_FULL, its
 * snapshot recent enough for 32-bit xmins, and its row positions intact. Otherwise none: the
 * backup dumps every row and starts a new chain.
 */
export async function deltaBaseIn(
  dir: string,
  coverage: Coverage,
  current: SnapshotInfo,
): Promise<DeltaBase | undefined> {
  const newest = await newestBackupIn(dir);
  if (!newest || newest.endsWith('.zip')) return undefined;
  let manifest: BackupManifest;
  try {
    manifest = await readManifest(newest, basename(newest));
  } catch {
    return undefined;
  }
  const base = manifest.snapshot;
  if (!base || !manifest.files || !manifest.incremental || manifest.packsDir !== '../packs')
    return undefined;
  if ((manifest.chainLength ?? 0) + 1 > DELTAS_PER_FULL) return undefined;
  if (base.database !== current.database) return undefined;
  if (JSON.stringify(base.relfilenodes) !== JSON.stringify(current.relfilenodes)) return undefined;
  const age = BigInt(current.xmax) - BigInt(base.xmin);
  if (age < 0n || age >= XID_HORIZON) return undefined;
  const covered: Coverage = {
    repositories: manifest.repositories,
    contentIncluded: manifest.contentIncluded,
    propertiesIncluded: manifest.propertiesIncluded,
    buildsIncluded: manifest.buildsIncluded,
  };
  if (JSON.stringify(covered) !== JSON.stringify(coverage)) return undefined;
  for (const [file, sha256] of Object.entries(manifest.files))
    if (file.startsWith('ids/') && (await fileSha256(join(newest, file))) !== sha256)
      return undefined;
  return { name: basename(newest), dir: newest, manifest };
}

export const fileSha256 = async (path: string) => {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch {
    return undefined;
  }
  return hash.digest('hex');
};

interface ChainLink {
  dir: string;
  manifest: BackupManifest;
}

/**
 * The backups a delta needs, its full base first, each checked against the checksums its
 * manifest recorded: a missing or damaged link refuses the restore (409) before anything is
 * restored.
 */
export async function chainOf(dir: string, manifest: BackupManifest): Promise<ChainLink[]> {
  const backup = basename(dir);
  const links: ChainLink[] = [];
  let link: ChainLink | undefined = { dir, manifest };
  while (link) {
    const name = basename(link.dir);
    for (const file of ['metadata.jsonl', VANISHED_FILE]) {
      const expected = link.manifest.files?.[file];
      if (file === VANISHED_FILE && link.manifest.metadata !== 'delta') continue;
      if (!expected || (await fileSha256(join(link.dir, file))) !== expected)
        throw new Conflict(BACKUP_MESSAGES.brokenChain(backup, name, damaged(file)));
    }
    links.unshift(link);
    if (link.manifest.metadata !== 'delta') return links;
    if (links.length > DELTAS_PER_FULL + 1)
      throw new Conflict(BACKUP_MESSAGES.brokenChain(backup, name, 'is part of a loop'));
    const baseName = link.manifest.basedOn ?? '';
    const baseDir = join(dirname(link.dir), basename(baseName));
    let base: BackupManifest;
    try {
      base = await readManifest(baseDir, baseName);
    } catch {
      throw new Conflict(BACKUP_MESSAGES.brokenChain(backup, baseName, 'is missing or unreadable'));
    }
    link = { dir: baseDir, manifest: base };
  }
  return links;
}

const damaged = (file: string) => `has a damaged or missing ${file} (its checksum does not match)`;

/** Rows of one table a chain's deltas replaced: by position, the newest row, or null (gone). */
type Overrides = Map<string, Map<number, string | null>>;

async function overridesOf(deltas: ChainLink[]): Promise<Overrides> {
  const overrides: Overrides = new Map();
  const of = (table: string) => {
    let rows = overrides.get(table);
    if (!rows) overrides.set(table, (rows = new Map()));
    return rows;
  };
  for (const delta of deltas) {
    const vanished = JSON.parse(await readFile(join(delta.dir, VANISHED_FILE), 'utf8')) as Record<
      string,
      number[]
    >;
    for (const [table, positions] of Object.entries(vanished))
      for (const at of positions) of(table).set(at, null);
    for await (const { table, rowText, at } of metadataLines(join(delta.dir, 'metadata.jsonl'))) {
      if (at === undefined) throw new Error('a delta row has no position');
      of(table).set(at, rowText);
    }
  }
  return overrides;
}

/**
 * Writes the metadata a chain adds up to, in the one format a restore reads: the full base's
 * rows, each replaced by its newest version in a later delta or left out when a delta says it
 * vanished, and the deltas' new rows after their table's (blobs kept in SHA-256 order, which
 * the packs are read in). Memory holds the deltas' rows only.
 */
export async function writeChainMetadata(links: ChainLink[], file: string): Promise<void> {
  const overrides = await overridesOf(links.slice(1));
  const out = createWriteStream(file, { flags: 'wx' });
  const failed = once(out, 'error').then(([error]) => {
    throw error;
  });
  failed.catch(() => undefined);
  const write = async (table: string, at: number, rowText: string) => {
    if (!out.write(`{"table":${JSON.stringify(table)},"at":${at},"row":${rowText}}\n`))
      await Promise.race([once(out, 'drain'), failed]);
  };
  const order = BACKED_UP_TABLES.map((spec) => spec.table);
  const done = new Set<string>();
  let blobsStarted = false;
  let pendingBlobs: { sha256: string; at: number; rowText: string }[] = [];
  const addedRows = (table: string) =>
    [...(overrides.get(table) ?? new Map<number, string | null>())].filter(
      (entry): entry is [number, string] => entry[1] !== null,
    );
  /** Writes the new rows of every table up to `table` (in the backup's order) not yet written. */
  const finishTablesBefore = async (table: string | undefined) => {
    for (const name of order) {
      if (name === table) return;
      if (done.has(name)) continue;
      done.add(name);
      if (name === 'blobs') {
        const rest = blobsStarted ? pendingBlobs.splice(0) : sortedBlobs(addedRows(name));
        for (const blob of rest) await write(name, blob.at, blob.rowText);
      } else for (const [at, rowText] of addedRows(name)) await write(name, at, rowText);
    }
  };
  try {
    let current: string | undefined;
    for await (const { table, rowText, at } of metadataLines(
      join(links[0].dir, 'metadata.jsonl'),
    )) {
      if (table !== current) {
        await finishTablesBefore(table);
        current = table;
        if (table === 'blobs') {
          pendingBlobs = sortedBlobs(addedRows('blobs'));
          blobsStarted = true;
        }
      }
      if (at === undefined) throw new Error('a full dump row has no position');
      const replaced = overrides.get(table)?.has(at);
      if (table === 'blobs') {
        const sha256 = (JSON.parse(rowText) as { sha256: string }).sha256;
        while (pendingBlobs.length > 0 && pendingBlobs[0].sha256 < sha256) {
          const blob = pendingBlobs.shift()!;
          await write(table, blob.at, blob.rowText);
        }
      }
      if (!replaced) await write(table, at, rowText);
    }
    await finishTablesBefore(undefined);
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
  } finally {
    out.destroy();
  }
}

function sortedBlobs(rows: [number, string][]) {
  return rows
    .map(([at, rowText]) => ({
      at,
      rowText,
      sha256: (JSON.parse(rowText) as { sha256: string }).sha256,
    }))
    .sort((a, b) => (a.sha256 < b.sha256 ? -1 : a.sha256 > b.sha256 ? 1 : 0));
}
