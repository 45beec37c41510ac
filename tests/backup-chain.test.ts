import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockBackupDir } from '../server/modules/backups/backup-lock.ts';
import { BACKED_UP_TABLES } from '../server/modules/backups/backup-tables.ts';
import { countAndVisitWritten, scanRanges } from '../server/modules/backups/position-scans.ts';
import { removeExpiredBackups } from '../server/modules/backups/retention.ts';
import { rowPositionOf } from '../server/modules/backups/row-positions.ts';
import {
  adminAuth,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Incremental metadata (docs/backup.md): an incremental backup after the first dumps only the
 * rows written since the one before and the positions of rows gone since; a restore adds the
 * chain up. Runs on the embedded database and, with DEPOT_TEST_DATABASE_URL, on PostgreSQL.
 */
const allowed = mkdtempSync(join(tmpdir(), 'depot-chain-'));
const env = { DEPOT_BACKUP_DIRS: allowed };
const dir = join(allowed, 'chain');
let source: TestDepot;
const fresh: TestDepot[] = [];

interface Manifest {
  metadata: 'full' | 'delta';
  basedOn?: string;
  chainLength: number;
  rowsWritten: number;
  counts: Record<string, number>;
  finishedAt: string;
  snapshot: { xmin: string };
  blobs: { count: number; bytes: number; copied: number; copiedBytes: number };
}

/** A system export's streamed lines: the last says how it ended. */
async function exportLines(exportPath: string, extra: object = {}) {
  const response = await source.app.inject({
    method: 'POST',
    url: '/artifactory/api/export/system',
    headers: adminAuth(),
    payload: { exportPath, ...extra },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.body.trimEnd().split('\n');
}

async function exportIncremental(extra: object = {}, into = 'chain') {
  const lines = await exportLines(into, { incremental: true, ...extra });
  const response = { body: lines.join('\n') };
  const path = /^Export finished successfully: (.+)$/.exec(lines.at(-1)!)?.[1];
  expect(path, response.body).toBeDefined();
  const name = path!.split('/').at(-1)!;
  return { path: path!, name, manifest: manifestOf(name, join(allowed, into)), lines };
}

const manifestOf = (name: string, inDir = dir) =>
  JSON.parse(readFileSync(join(inDir, name, 'manifest.json'), 'utf8')) as Manifest;

/** Rows of `table` in a backup's metadata.jsonl (a delta's: the new and changed ones). */
const linesOf = (name: string, table: string) =>
  readFileSync(join(dir, name, 'metadata.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith(`{"table":"${table}",`)).length;

/**
 * Every backed-up row of a Depot, table by table, sorted: two Depots restored equal match.
 * Blobs no item uses any more (waiting for garbage collection) are not backed up. A blob
 * row's `written_xid` names the transaction of the database that wrote it (migration 0061):
 * a restore writes it again, so it is no part of what must come back equal.
 */
async function everyRow(depot: TestDepot) {
  const tables: Record<string, string[]> = {};
  for (const { table } of BACKED_UP_TABLES) {
    const used = table === 'blobs' ? sql`where t.sha256 in (select sha256 from nodes)` : sql``;
    const { rows } = await sql<{ row: string }>`
      select (to_jsonb(t) - 'written_xid')::text as row
        from ${sql.table(table)} t ${used}`.execute(depot.db);
    tables[table] = rows.map((row) => row.row).sort();
  }
  return tables;
}

async function restoreInto(path: string) {
  const target = await startTestDepot(env);
  fresh.push(target);
  const response = await target.app.inject({
    method: 'POST',
    url: '/artifactory/api/import/system',
    headers: adminAuth(),
    payload: { importPath: path },
  });
  return { target, response };
}

beforeAll(async () => {
  source = await startTestDepot(env);
  await createRepository(source, 'files', 'local');
  await source.services.trash.updateConfig({ enabled: false });
  for (let n = 0; n < 6; n += 1)
    await deployFile(source, 'files', `docs/${n}.txt;team=docs;n=${n}`, `file ${n}`);
  await source.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  });
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([source?.close(), ...fresh.map((depot) => depot.close())]);
  rmSync(allowed, { recursive: true, force: true });
});

describe('incremental metadata', () => {
  const remove = async (path: string) => {
    const response = await source.app.inject({
      method: 'DELETE',
      url: `/artifactory/files/${path}`,
      headers: adminAuth(),
    });
    expect(response.statusCode).toBe(204);
  };
  let names: string[] = [];

  it('restores a full dump and two deltas equal to the source', async () => {
    const first = await exportIncremental();
    expect(first.manifest).toMatchObject({ metadata: 'full', chainLength: 0 });

    await deployFile(source, 'files', 'docs/new-a.txt;team=new', 'new a');
    await deployFile(source, 'files', 'docs/new-b.txt', 'new b');
    await deployFile(source, 'files', 'docs/1.txt;team=changed', 'file 1, changed');
    await remove('docs/2.txt');
    await source.services.users.create({
      name: 'ops',
      email: 'ops@example.com',
      password: 'ops-pass-1',
    });
    // On PostgreSQL a transaction still running at the second backup's snapshot writes a
    // property: the second backup must not hold it, the third must.
    const second = process.env.DEPOT_TEST_DATABASE_URL
      ? await source.db.transaction().execute(async (tx) => {
          await sql`insert into node_properties (node_id, key, value)
            select id, 'late', 'yes' from nodes where path = 'docs/3.txt'`.execute(tx);
          return exportIncremental();
        })
      : await exportIncremental();
    expect(second.manifest).toMatchObject({
      metadata: 'delta',
      basedOn: first.name,
      chainLength: 1,
    });
    expect(second.lines.at(-3)).toBe(
      `Metadata: ${second.manifest.rowsWritten} rows new or changed since ${first.name}, which this backup builds on`,
    );
    // Only what changed: two new files and a redeployed one (folders' rows may change too).
    expect(linesOf(second.name, 'nodes')).toBeLessThanOrEqual(5);
    expect(linesOf(second.name, 'nodes')).toBeGreaterThanOrEqual(3);
    expect(linesOf(second.name, 'users')).toBeLessThanOrEqual(2);
    expect(second.manifest.counts.nodes).toBeGreaterThan(linesOf(second.name, 'nodes'));
    const vanished = JSON.parse(readFileSync(join(second.path, 'vanished.json'), 'utf8'));
    expect(Object.keys(vanished)).toContain('nodes');
    if (process.env.DEPOT_TEST_DATABASE_URL)
      expect(readFileSync(join(second.path, 'metadata.jsonl'), 'utf8')).not.toContain('"late"');

    // Frozen rows keep their xmin: they read as old and stay out of the next delta.
    await sql`vacuum freeze nodes`.execute(source.db);
    await remove('docs/new-a.txt');
    await deployFile(source, 'files', 'docs/new-b.txt', 'new b, changed');
    await deployFile(source, 'files', 'docs/new-c.txt;team=c', 'new c');
    const dev = await source.app.inject({
      method: 'DELETE',
      url: '/artifactory/api/security/users/dev',
      headers: adminAuth(),
    });
    expect(dev.statusCode, dev.body).toBe(200);
    // A blob no item used at the second backup (docs/2.txt's, deleted) comes back into use
    // without its own row being written: the third backup holds its row all the same.
    await sql`update nodes set sha256 = (select b.sha256 from blobs b where b.size = 6
        and not exists (select 1 from nodes n where n.sha256 = b.sha256)
        order by b.sha256 limit 1)
      where path = 'docs/4.txt'`.execute(source.db);
    // A blob row of the base rewritten by a statement that sets only its MD5 (as a checksum
    // filled in later is): the third backup holds the row as it is now.
    await sql`update blobs set md5 = ${'0'.repeat(32)}
      where sha256 = (select sha256 from nodes where path = 'docs/3.txt')`.execute(source.db);
    const third = await exportIncremental();
    expect(third.manifest).toMatchObject({
      metadata: 'delta',
      basedOn: second.name,
      chainLength: 2,
    });
    expect(linesOf(third.name, 'nodes')).toBeLessThanOrEqual(5);
    if (process.env.DEPOT_TEST_DATABASE_URL)
      expect(readFileSync(join(third.path, 'metadata.jsonl'), 'utf8')).toContain('"late"');
    const expected = await everyRow(source);
    names = [first.name, second.name, third.name];

    const { target, response } = await restoreInto(third.path);
    expect(response.statusCode, response.body).toBe(200);
    expect(await everyRow(target)).toEqual(expected);
    const file = await target.app.inject({
      url: '/artifactory/files/docs/new-b.txt',
      headers: adminAuth(),
    });
    expect(file.body).toBe('new b, changed');
  }, 120_000);

  it('refuses a chain with a damaged delta, naming it, and changes nothing', async () => {
    const [, second, third] = names;
    const metadata = join(dir, second, 'metadata.jsonl');
    const good = readFileSync(metadata);
    const bad = Buffer.from(good);
    bad[Math.floor(bad.length / 2)] ^= 1;
    writeFileSync(metadata, bad);
    try {
      const { target, response } = await restoreInto(join(dir, third));
      expect(response.statusCode).toBe(409);
      const message = response.json().errors[0].message as string;
      expect(message).toContain(`builds on '${second}'`);
      expect(message).toContain('metadata.jsonl');
      expect(await target.db.selectFrom('repositories').select('key').execute()).toEqual([]);
      expect(readdirSync(dir).filter((name) => name.startsWith('backup-'))).toEqual(names);
    } finally {
      writeFileSync(metadata, good);
    }
  }, 60_000);

  it('keeps a kept delta’s chain, and lets it go after a full dump', async () => {
    const age = (name: string) => {
      const path = join(dir, name, 'manifest.json');
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
      const old = new Date(Date.now() - 1000 * 3600 * 1000).toISOString();
      writeFileSync(path, JSON.stringify({ ...manifest, finishedAt: old }));
    };
    const [first, second, third] = names;
    age(first);
    age(second);
    expect(await removeExpiredBackups(dir, 1, join(dir, third))).toBe(0);
    // Another coverage (no properties) cannot continue the chain: a full dump.
    const full = await exportIncremental({ includeMetadata: false });
    expect(full.manifest).toMatchObject({ metadata: 'full', chainLength: 0 });
    age(third);
    expect(await removeExpiredBackups(dir, 1, full.path)).toBe(3);
    expect(names.some((name) => existsSync(join(dir, name)))).toBe(false);
  }, 60_000);
});

describe('earlier formats', () => {
  it('still restores a backup of version 2 (no row positions, no deltas)', async () => {
    const lines = await exportLines('v2');
    const path = /^Export finished successfully: (.+)$/.exec(lines.at(-1)!)![1];
    const metadata = join(path, 'metadata.jsonl');
    writeFileSync(metadata, readFileSync(metadata, 'utf8').replace(/"at":\d+,/g, ''));
    const manifestPath = join(path, 'manifest.json');
    const {
      metadata: _metadata,
      chainLength: _chain,
      snapshot: _snapshot,
      files: _files,
      ...v2
    } = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifestPath, JSON.stringify({ ...v2, formatVersion: 2 }));
    const expected = await everyRow(source);
    const { target, response } = await restoreInto(path);
    expect(response.statusCode, response.body).toBe(200);
    expect(await everyRow(target)).toEqual(expected);
  }, 60_000);
});

describe('two backups into one directory', () => {
  const busy = join(allowed, 'busy');
  const lock = join(busy, LOCK_FILE);
  const backups = () => readdirSync(busy).filter((name) => name.startsWith('backup-'));

  it('refuses the second while the first holds the directory, and takes over a dead lock', async () => {
    mkdirSync(busy, { recursive: true });
    // A backup of this process holds the directory (as a running export or job does).
    const release = await lockBackupDir(busy);
    const held = readFileSync(lock, 'utf8');
    expect(JSON.parse(held)).toMatchObject({ pid: process.pid, node: hostname() });
    try {
      expect((await exportLines('busy')).at(-1)).toBe(
        'Export failed: A backup is already running into this directory',
      );
      expect(backups()).toEqual([]);
      expect(readFileSync(lock, 'utf8')).toBe(held);
    } finally {
      await release();
    }
    expect(existsSync(lock)).toBe(false);

    // The holder died without releasing: its pid no longer runs on this node.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(lock, JSON.stringify({ pid: dead, node: hostname(), since: 'then' }));
    expect((await exportLines('busy')).at(-1)).toMatch(/^Export finished successfully: /);
    expect(backups()).toHaveLength(1);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);
});

describe("a delta's rows, exactly", () => {
  const into = 'exact';
  const onPostgres = Boolean(process.env.DEPOT_TEST_DATABASE_URL);

  /** A backup's rows of each table, `at` → the row's text, as its metadata.jsonl holds them. */
  function rowsOf(path: string) {
    const tables = new Map<string, Map<number, string>>();
    for (const line of readFileSync(join(path, 'metadata.jsonl'), 'utf8').split('\n')) {
      if (!line) continue;
      const { table, at, row } = JSON.parse(line) as { table: string; at: number; row: unknown };
      if (!tables.has(table)) tables.set(table, new Map());
      tables.get(table)!.set(at, JSON.stringify(row));
    }
    return tables;
  }

  /**
   * The rows of `table` written since a base's snapshot, computed in SQL as the delta does (a
   * row's xmin at least the base's xmin): `at` → the row's text. Only blobs an item uses.
   */
  async function writtenSince(table: string, baseXmin: string) {
    const xid = (BigInt(baseXmin) & 0xffffffffn).toString();
    const used = table === 'blobs' ? sql`and t.sha256 in (select sha256 from nodes)` : sql``;
    const { rows } = await sql<{ at: string; row: string }>`
      select t.ctid::text as at, row_to_json(t)::text as row from ${sql.table(table)} t
       where age(t.xmin) <= age(${xid}::xid) ${used}`.execute(source.db);
    return new Map(rows.map(({ at, row }) => [positionOf(at), JSON.stringify(JSON.parse(row))]));
  }

  const positionOf = (ctid: string) => {
    const [block, offset] = ctid.slice(1, -1).split(',').map(Number);
    return block * 65536 + offset;
  };

  /**
   * Checks a delta against the source: its blob and item rows are exactly those written since
   * its base plus `extraBlobs`; any other row it holds was written since too, or is word for
   * word the base's row at that position (a transaction that ended between the base's xmin and
   * xmax, which the embedded database's single session never has).
   */
  async function expectExactDelta(delta: string, base: string, extraBlobs: Map<number, string>) {
    const baseXmin = manifestOf(base, join(allowed, into)).snapshot.xmin;
    // The blobs the backup covers (every one an item uses), though the delta wrote few rows.
    const { rows: covered } = await sql<{ count: string; bytes: string }>`
      select count(*)::text as count, coalesce(sum(t.size), 0)::text as bytes from blobs t
       where t.sha256 in (select sha256 from nodes)`.execute(source.db);
    expect(manifestOf(delta, join(allowed, into)).blobs).toMatchObject({
      count: Number(covered[0].count),
      bytes: Number(covered[0].bytes),
    });
    const written = rowsOf(join(allowed, into, delta));
    const held = rowsOf(join(allowed, into, base));
    const blobs = await writtenSince('blobs', baseXmin);
    for (const [at, row] of extraBlobs) blobs.set(at, row);
    expect(written.get('blobs') ?? new Map()).toEqual(blobs);
    expect(written.get('nodes') ?? new Map()).toEqual(await writtenSince('nodes', baseXmin));
    for (const [table, rows] of written) {
      if (table === 'blobs' || table === 'nodes') continue;
      const since = await writtenSince(table, baseXmin);
      for (const [at, row] of rows) {
        if (since.get(at) === row) continue;
        expect(onPostgres, `${table} at ${at} was not written since the base`).toBe(true);
        expect(held.get(table)?.get(at), `${table} at ${at}`).toBe(row);
      }
    }
  }

  /**
   * A blob row no item uses (its only item deployed, then deleted), which an item added later
   * uses again: its content's SHA-256, and its row as a delta writes it (`at` → text).
   */
  async function orphanBlob(content: string) {
    const sha256 = createHash('sha256').update(content).digest('hex');
    await deployFile(source, 'files', `exact/orphan-${sha256}.txt`, content);
    const deleted = await source.app.inject({
      method: 'DELETE',
      url: `/artifactory/files/exact/orphan-${sha256}.txt`,
      headers: adminAuth(),
    });
    expect(deleted.statusCode).toBe(204);
    const { rows } = await sql<{ at: string; row: string }>`
      select t.ctid::text as at, row_to_json(t)::text as row from blobs t
       where t.sha256 = ${sha256}`.execute(source.db);
    expect(rows).toHaveLength(1);
    return {
      sha256,
      row: new Map([[positionOf(rows[0].at), JSON.stringify(JSON.parse(rows[0].row))]]),
    };
  }

  it('writes exactly the rows added, then the rows of a delete, each restoring equal', async () => {
    // An orphan blob (its only item deleted before the chain starts) that an item added later
    // uses again: a row not written since the base that the base did not hold.
    const orphan = await orphanBlob('used again later');
    const orphanSha256 = orphan.sha256;

    const base = await exportIncremental({}, into);
    expect(base.manifest).toMatchObject({ metadata: 'full', chainLength: 0 });

    // Additions only: two new files, one then pointed at the orphan blob (as the database
    // lets an item take content already stored without writing the blob row again).
    await deployFile(source, 'files', 'exact/a.txt;team=exact', 'exact a');
    await deployFile(source, 'files', 'exact/again.txt', 'exact b');
    await sql`update nodes set sha256 = ${orphanSha256}, size = 16
      where path = 'exact/again.txt'`.execute(source.db);
    const added = await exportIncremental({}, into);
    expect(added.manifest).toMatchObject({ metadata: 'delta', basedOn: base.name });
    expect(JSON.parse(readFileSync(join(added.path, 'vanished.json'), 'utf8'))).toEqual({});
    await expectExactDelta(added.name, base.name, orphan.row);
    const afterAdding = await everyRow(source);
    const restoredAdded = await restoreInto(added.path);
    expect(restoredAdded.response.statusCode, restoredAdded.response.body).toBe(200);
    expect(await everyRow(restoredAdded.target)).toEqual(afterAdding);

    // A delete: the item's row vanishes, and no blob row is written again.
    const { rows: gone } = await sql<{ at: string }>`
      select ctid::text as at from nodes where path = 'exact/a.txt'`.execute(source.db);
    const deleted = await source.app.inject({
      method: 'DELETE',
      url: '/artifactory/files/exact/a.txt',
      headers: adminAuth(),
    });
    expect(deleted.statusCode).toBe(204);
    const removed = await exportIncremental({}, into);
    expect(removed.manifest).toMatchObject({ metadata: 'delta', basedOn: added.name });
    const vanished = JSON.parse(
      readFileSync(join(removed.path, 'vanished.json'), 'utf8'),
    ) as Record<string, number[]>;
    expect(vanished.nodes).toContain(positionOf(gone[0].at));
    await expectExactDelta(removed.name, added.name, new Map());
    const afterDeleting = await everyRow(source);
    const restoredRemoved = await restoreInto(removed.path);
    expect(restoredRemoved.response.statusCode, restoredRemoved.response.body).toBe(200);
    expect(await everyRow(restoredRemoved.target)).toEqual(afterDeleting);

    // Content an item of the base uses (exact/again.txt's), deployed again at a new path: the
    // deploy claims the base's blob row, which moves to a new position (its old one vanishes)
    // though no item of the base changed.
    const { rows: claimed } = await sql<{ at: string }>`
      select ctid::text as at from blobs where sha256 = ${orphanSha256}`.execute(source.db);
    expect(claimed).toHaveLength(1);
    // (A second orphan for the last delta, made before this one's snapshot.)
    const secondOrphan = await orphanBlob('orphan once more');
    await deployFile(source, 'files', 'exact/same-as-again.txt', 'used again later');
    const again = await exportIncremental({}, into);
    expect(again.manifest).toMatchObject({ metadata: 'delta', basedOn: removed.name });
    const moved = JSON.parse(readFileSync(join(again.path, 'vanished.json'), 'utf8')) as Record<
      string,
      number[]
    >;
    expect(moved.blobs).toEqual([positionOf(claimed[0].at)]);
    await expectExactDelta(again.name, removed.name, new Map());
    const afterAgain = await everyRow(source);
    const restoredAgain = await restoreInto(again.path);
    expect(restoredAgain.response.statusCode, restoredAgain.response.body).toBe(200);
    expect(await everyRow(restoredAgain.target)).toEqual(afterAgain);

    // Content stored before used again, while the covered repository's row was written since:
    // the pass over the items then reads every position (a count proves nothing), and the new
    // items' contents are read by their positions rather than with them.
    await sql`update repositories set key = key where key = 'files'`.execute(source.db);
    await deployFile(source, 'files', 'exact/reused.txt', 'exact c');
    await sql`update nodes set sha256 = ${secondOrphan.sha256}, size = 16
      where path = 'exact/reused.txt'`.execute(source.db);
    const reused = await exportIncremental({}, into);
    expect(reused.manifest).toMatchObject({ metadata: 'delta', basedOn: again.name });
    await expectExactDelta(reused.name, again.name, secondOrphan.row);
    const afterReusing = await everyRow(source);
    const restoredReused = await restoreInto(reused.path);
    expect(restoredReused.response.statusCode, restoredReused.response.body).toBe(200);
    expect(await everyRow(restoredReused.target)).toEqual(afterReusing);
  }, 120_000);
});

describe('row positions read a range of blocks at a time', () => {
  const onPostgres = Boolean(process.env.DEPOT_TEST_DATABASE_URL);

  it('reads every row once, in table order, with its written flag and size; counts in the same pass', async () => {
    const db = source.db;
    await sql`create table ranged_probe (id int, size bigint, pad text)
      with (fillfactor = 100)`.execute(db);
    try {
      // About 16 rows a block: 320 rows fill 20 blocks.
      await sql`insert into ranged_probe
        select n, n * 1000000000::bigint, repeat('x', 480) from generate_series(1, 320) n`.execute(
        db,
      );
      // "Written since" is since the update's transaction: every row it rewrote and no other
      // (a snapshot's xmin could be older on PostgreSQL, where other sessions run).
      const updateXid = await db.transaction().execute(async (tx) => {
        await sql`update ranged_probe set pad = repeat('y', 480) where id % 5 = 0`.execute(tx);
        const { rows } = await sql<{ xid: string }>`
          select pg_current_xact_id()::text as xid`.execute(tx);
        return rows[0].xid;
      });
      await sql`delete from ranged_probe where id % 7 = 0`.execute(db);
      const { rows: blocks } = await sql<{ blocks: number }>`
        select (pg_relation_size('ranged_probe') / current_setting('block_size')::int)::int
          as blocks`.execute(db);
      expect(blocks[0].blocks).toBeGreaterThanOrEqual(20);

      // All in one transaction, as a backup reads: `age` counts from a "now" that stays the
      // same only within one (on PostgreSQL other sessions' transactions move it), and a
      // cursor needs one.
      const xid = (BigInt(updateXid) & 0xffffffffn).toString();
      const read: string[] = [];
      const counted = { even: 0, written: [] as number[] };
      const expected = await db.transaction().execute(async (tx) => {
        const { rows: age } = await sql<{ age: number }>`select age(${xid}::xid) as age`.execute(
          tx,
        );
        const written = sql<boolean>`age(t.xmin) <= ${sql.lit(Number(age[0].age))}`;
        const scan = { tx, table: 'ranged_probe', written, copyToBlob: !onPostgres };
        await scanRanges(
          { ...scan, where: sql`true`, sizes: true },
          (position, flag, size) => read.push(`${position}:${flag}:${size}`),
          3,
        );
        counted.even = await countAndVisitWritten(
          { ...scan, where: sql`t.id % 2 = 0` },
          (position) => counted.written.push(position),
          3,
        );
        const { rows } = await sql<{ at: string; written: boolean; size: string; id: number }>`
          select t.ctid::text as at, ${written} as written, t.size::text as size, t.id
            from ranged_probe t order by t.ctid`.execute(tx);
        return rows;
      });
      expect(read).toEqual(
        expected.map((row) => `${rowPositionOf(row.at)}:${row.written}:${row.size}`),
      );
      const even = expected.filter((row) => row.id % 2 === 0);
      expect(counted.even).toBe(even.length);
      expect(counted.written).toEqual(
        even.filter((row) => row.written).map((row) => rowPositionOf(row.at)),
      );
      // Some rows of each kind: updated (written since), kept, and gaps where rows went.
      expect(read.filter((entry) => entry.includes(':true:')).length).toBeGreaterThan(40);
      expect(read.filter((entry) => entry.includes(':false:')).length).toBeGreaterThan(200);
      expect(counted.written.length).toBeGreaterThan(20);
    } finally {
      await sql`drop table ranged_probe`.execute(db);
    }
  }, 60_000);
});
