import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKED_UP_TABLES, NOT_BACKED_UP } from '../server/modules/backups/backup-tables.ts';
import { indexEntries, type IndexEntry } from '../server/modules/backups/pack.ts';
import { packTarball, publishDocument } from './helpers/npm-cli.ts';
import { mountSmallDisk } from './helpers/small-disk.ts';
import { startSmtpServer } from './helpers/smtp.ts';
import {
  adminAuth,
  basic,
  createMavenRepository,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Backups that restore (docs/backup.md): a system export taken while deploys go on, restored
 * into a fresh Depot, holds every item, checksum, property, user and permission of one
 * moment; an incremental one copies only new blobs; a corrupt blob is named by its item.
 */
const allowed = mkdtempSync(join(tmpdir(), 'depot-backups-'));
// A small disk of its own, for the backup that does not fit (mounting needs root, as CI has).
const disk = mountSmallDisk('depot-backup-disk-', 4 * 1024 * 1024);
const env = { DEPOT_BACKUP_DIRS: `${allowed},${disk.path}` };
let source: TestDepot;
const POM =
  '<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId>' +
  '<artifactId>app</artifactId><version>1.0</version></project>';
const fresh: TestDepot[] = [];
let emptyAfterRefusal: TestDepot | undefined;

/** Restores into `target`, or into a new empty Depot. */
async function restoreInto(path: string, target?: TestDepot) {
  if (!target) {
    target = await startTestDepot(env);
    fresh.push(target);
  }
  const response = await target.app.inject({
    method: 'POST',
    url: '/artifactory/api/import/system',
    headers: adminAuth(),
    payload: { importPath: path },
  });
  return { target, response };
}

interface Manifest {
  blobs: { count: number; copied: number };
  snapshotAt: string;
  packs?: string[];
  packsDir?: string;
}

/** A system export's streamed answer, its lines: the last says how it ended. */
async function exportAnswer(exportPath: string, extra: object = {}) {
  const response = await source.app.inject({
    method: 'POST',
    url: '/artifactory/api/export/system',
    headers: adminAuth(),
    payload: { exportPath, includeMetadata: true, ...extra },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
  return response.body.trimEnd().split('\n');
}

async function exportSystem(exportPath: string, extra: object = {}) {
  const last = await exportAnswer(exportPath, extra);
  const summary = last.at(-2)!;
  const path = /^Export finished successfully: (.+)$/.exec(last.at(-1)!)?.[1];
  expect(path, last.join('\n')).toBeDefined();
  const manifest = path!.endsWith('.zip')
    ? undefined
    : (JSON.parse(readFileSync(join(path!, 'manifest.json'), 'utf8')) as Manifest);
  return { path: path!, manifest: manifest!, summary };
}

/** The index entries of a directory's packs (a backup's own, or a directory's shared ones). */
async function packEntries(packsDir: string) {
  const entries: IndexEntry[] = [];
  for (const name of readdirSync(packsDir).filter((file) => file.endsWith('.idx')))
    for await (const entry of indexEntries(join(packsDir, name), name.slice(0, -4)))
      entries.push(entry);
  return entries;
}

/** Waits (with a deadline) for a configured backup's run to end; answers its status. */
async function lastRunOf(key: string, previousStart?: string) {
  const deadline = Date.now() + 30_000;
  let status: {
    running: boolean;
    lastRun: { outcome: string; info: string; startedAt: string } | null;
  };
  do {
    const response = await source.app.inject({
      url: `/ui/api/v1/ui/backup/${key}/status`,
      headers: adminAuth(),
    });
    status = response.json();
    const { lastRun } = status;
    if (
      !status.running &&
      lastRun &&
      lastRun.outcome !== 'running' &&
      lastRun.startedAt !== previousStart
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  } while (Date.now() < deadline);
  return status;
}

/** Every item with its checksums and properties, as `repo/path` → description. */
async function items(depot: TestDepot) {
  const { rows } = await sql<{ item: string; sums: string; props: string | null }>`
    select r.key || '/' || n.path as item,
           coalesce(b.sha256, '') || ' ' || coalesce(b.sha1, '') || ' ' || n.size as sums,
           (select string_agg(p.key || '=' || p.value, ',' order by p.key, p.value)
              from node_properties p where p.node_id = n.id) as props
      from nodes n join repositories r on r.id = n.repository_id
      left join blobs b on b.sha256 = n.sha256
     order by 1`.execute(depot.db);
  return new Map(rows.map((row) => [row.item, `${row.sums} ${row.props ?? ''}`]));
}

const users = (depot: TestDepot) =>
  depot.db
    .selectFrom('users')
    .select(['name', 'email', 'admin', 'password_hash'])
    .orderBy('name')
    .execute();

beforeAll(async () => {
  source = await startTestDepot(env);
  await createRepository(source, 'files', 'local');
  await createMavenRepository(source, 'libs', 'local');
  await createRepository(source, 'npm-local', 'local', { packageType: 'npm' });
  for (let n = 0; n < 8; n += 1)
    await deployFile(source, 'files', `docs/file-${n}.txt;team=docs;n=${n}`, `generic ${n}`);
  await deployFile(source, 'files', 'docs/copy.txt', 'generic 0'); // shares a blob
  await deployFile(source, 'libs', 'org/acme/app/1.0/app-1.0.jar', 'jar bytes');
  await deployFile(source, 'libs', 'org/acme/app/1.0/app-1.0.pom', POM);
  const tarball = await packTarball({
    'package.json': JSON.stringify({ name: 'left-pad', version: '1.0.0' }),
  });
  const published = await source.app.inject({
    method: 'PUT',
    url: '/artifactory/api/npm/npm-local/left-pad',
    headers: { ...adminAuth(), 'content-type': 'application/json' },
    payload: publishDocument('left-pad', '1.0.0', tarball),
  });
  expect(published.statusCode, published.body).toBe(201);
  await source.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  });
  const target = await source.app.inject({
    method: 'PUT',
    url: '/artifactory/api/v2/security/permissions/readers',
    headers: adminAuth(),
    payload: {
      repo: { repositories: ['files'], actions: { users: { dev: ['read'] }, groups: {} } },
    },
  });
  expect(target.statusCode, target.body).toBe(201);
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([source?.close(), ...fresh.map((depot) => depot.close())]);
  rmSync(allowed, { recursive: true, force: true });
  disk.release();
});

describe('backup and restore', () => {
  it('backs up every table or says why not', async () => {
    const { rows } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
       where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(source.db);
    const known = new Set([
      ...BACKED_UP_TABLES.map((spec) => spec.table),
      ...Object.keys(NOT_BACKED_UP),
    ]);
    expect(rows.map((row) => row.name).filter((name) => !known.has(name))).toEqual([]);
  });

  it('names exactly the item whose blob is corrupt, and restores nothing', async () => {
    const backup = await exportSystem('corrupt');
    const [row] = await source.db
      .selectFrom('nodes')
      .innerJoin('repositories', 'repositories.id', 'nodes.repository_id')
      .select(['nodes.sha256'])
      .where('repositories.key', '=', 'libs')
      .where('nodes.path', '=', 'org/acme/app/1.0/app-1.0.jar')
      .execute();
    const sha = row.sha256!;
    // One byte of that blob, in the middle of the backup's one pack, is changed.
    const entries = await packEntries(join(backup.path, 'packs'));
    expect(entries.length).toBe(backup.manifest.blobs.count);
    const entry = entries.find((candidate) => candidate.sha256 === sha)!;
    const packFile = join(backup.path, 'packs', `${entry.pack}.pack`);
    const pack = readFileSync(packFile);
    expect(pack.subarray(entry.offset, entry.offset + entry.length).toString()).toBe('jar bytes');
    pack.write('z', entry.offset + entry.length - 1);
    writeFileSync(packFile, pack);
    const { target, response } = await restoreInto(backup.path);
    expect(existsSync(join(backup.path, 'security'))).toBe(false);
    expect(response.statusCode).toBe(409);
    const message = response.json().errors[0].message as string;
    expect(message).toContain('1 binaries');
    expect(message).toContain('libs/org/acme/app/1.0/app-1.0.jar');
    expect(message.match(/[a-z-]+\/\S+/g)).toEqual(['libs/org/acme/app/1.0/app-1.0.jar']);
    expect(await target.db.selectFrom('repositories').select('key').execute()).toEqual([]);
    emptyAfterRefusal = target;
  }, 60_000);

  it('restores one moment of a Depot that kept deploying, into an empty one', async () => {
    let deploying = true;
    let deployed = 0;
    const loop = (async () => {
      while (deploying) {
        await deployFile(source, 'files', `loop/${deployed}.txt;n=${deployed}`, `loop ${deployed}`);
        deployed += 1;
      }
    })();
    while (deployed < 3) await new Promise((resolve) => setImmediate(resolve));
    const before = deployed;
    const backup = await exportSystem('full');
    deploying = false;
    await loop;
    const after = await items(source);

    // The Depot the corrupt backup left as it was takes the good one.
    const { target, response } = await restoreInto(backup.path, emptyAfterRefusal);
    expect(response.statusCode, response.body).toBe(200);
    const restored = await items(target);
    // Everything but the loop is as it was; of the loop, a prefix: deploys are sequential.
    const loopItems = [...restored.keys()].filter((item) => item.startsWith('files/loop/'));
    const loopCount = loopItems.filter((item) => item.endsWith('.txt')).length;
    expect(loopCount).toBeGreaterThanOrEqual(before);
    expect(loopCount).toBeLessThanOrEqual(deployed);
    for (const [item, description] of after) {
      const n = /^files\/loop\/(\d+)\.txt$/.exec(item)?.[1];
      if (n !== undefined && Number(n) >= loopCount) expect(restored.has(item)).toBe(false);
      else expect(restored.get(item), item).toBe(description);
    }
    expect(restored.size).toBe(after.size - (deployed - loopCount));
    expect(await users(target)).toEqual(await users(source));

    // Every binary is there and readable, properties and permissions decide as before.
    for (const item of ['files/docs/file-3.txt', 'libs/org/acme/app/1.0/app-1.0.jar'])
      expect(
        (await target.app.inject({ url: `/artifactory/${item}`, headers: adminAuth() })).body,
      ).toBe((await source.app.inject({ url: `/artifactory/${item}`, headers: adminAuth() })).body);
    const dev = { authorization: basic('dev', 'dev-pass-1') };
    expect(
      (await target.app.inject({ url: '/artifactory/files/docs/file-1.txt', headers: dev }))
        .statusCode,
    ).toBe(200);
    const refused = await target.app.inject({
      method: 'PUT',
      url: '/artifactory/files/docs/new.txt',
      headers: dev,
      payload: 'x',
    });
    expect(refused.statusCode).toBe(403);
    const npmDoc = await target.app.inject({
      url: '/artifactory/api/npm/npm-local/left-pad',
      headers: adminAuth(),
    });
    expect(npmDoc.json()).toMatchObject({ name: 'left-pad', 'dist-tags': { latest: '1.0.0' } });
    // A restored Depot goes on deploying: its id sequences moved past the restored rows.
    await deployFile(target, 'files', 'after-restore.txt', 'new');
  }, 120_000);

  it('copies only new blobs into an incremental backup', async () => {
    const first = await exportSystem('incremental', { incremental: true });
    const packsDir = join(allowed, 'incremental', 'packs');
    const count = async () => (await packEntries(packsDir)).length;
    expect(first.manifest.blobs.copied).toBe(await count());
    expect(first.manifest.packs).toEqual([first.path.split('/').at(-1)]);
    for (let n = 0; n < 3; n += 1) await deployFile(source, 'files', `more/${n}.txt`, `more ${n}`);
    await deployFile(source, 'files', 'more/again.txt', 'generic 1'); // content it has already
    const before = await count();
    const second = await exportSystem('incremental', { incremental: true });
    expect(second.manifest.blobs.copied).toBe(3);
    expect(await count()).toBe(before + 3);
    // The second needs the first's pack and its own, which holds exactly the 3 new blobs.
    const secondName = second.path.split('/').at(-1)!;
    expect(second.manifest).toMatchObject({
      packsDir: '../packs',
      packs: [first.path.split('/').at(-1), secondName],
    });
    const own = (await packEntries(packsDir)).filter((entry) => entry.pack === secondName);
    expect(own.map((entry) => entry.sha256).sort()).toEqual(
      (
        await source.db
          .selectFrom('nodes')
          .select('sha256')
          .where('path', 'in', ['more/0.txt', 'more/1.txt', 'more/2.txt'])
          .execute()
      )
        .map((row) => row.sha256)
        .sort(),
    );

    const { target, response } = await restoreInto(second.path);
    expect(response.statusCode, response.body).toBe(200);
    expect((await items(target)).get('files/more/2.txt')).toBe(
      (await items(source)).get('files/more/2.txt'),
    );
  }, 60_000);

  it('writes a backup as one zip and restores it', async () => {
    const refused = await source.app.inject({
      method: 'POST',
      url: '/artifactory/api/export/system',
      headers: adminAuth(),
      payload: { exportPath: 'zipped', createArchive: true, incremental: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].message).toMatch(/^A zip archive holds a full backup/);
    const backup = await exportSystem('zipped', { createArchive: true });
    const expected = await items(source);
    expect(backup.path).toMatch(/\/zipped\/backup-\d{8}\.\d{6}\.zip$/);
    expect(readdirSync(join(allowed, 'zipped'))).toEqual([backup.path.split('/').at(-1)]);
    const [, binaries, written] = /and (\d+) binaries \((\d+) written/.exec(backup.summary)!;
    expect(written).toBe(binaries);

    // The directory of backups names the zip as its newest.
    const { target, response } = await restoreInto('zipped');
    expect(response.statusCode, response.body).toBe(200);
    expect(await items(target)).toEqual(expected);
    for (const item of ['files/docs/file-3.txt', 'libs/org/acme/app/1.0/app-1.0.jar'])
      expect(
        (await target.app.inject({ url: `/artifactory/${item}`, headers: adminAuth() })).body,
      ).toBe((await source.app.inject({ url: `/artifactory/${item}`, headers: adminAuth() })).body);
    expect(readdirSync(join(target.config.filestoreDir, '_tmp'))).toEqual([]);
  }, 60_000);

  it('refuses a Depot with repositories, and paths outside the allowed list', async () => {
    const full = join(allowed, 'full');
    const busy = await source.app.inject({
      method: 'POST',
      url: '/artifactory/api/import/system',
      headers: adminAuth(),
      payload: { importPath: full },
    });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().errors[0].message).toMatch(/empty Depot only/);
    for (const exportPath of ['../escape', tmpdir(), `${allowed}-sibling`]) {
      const refused = await source.app.inject({
        method: 'POST',
        url: '/artifactory/api/export/system',
        headers: adminAuth(),
        payload: { exportPath },
      });
      expect(refused.statusCode, exportPath).toBe(400);
      expect(refused.json().errors[0].message).toContain('outside the backup directories');
    }
    expect(existsSync(join(allowed, '..', 'escape'))).toBe(false);
    const user = await source.app.inject({
      method: 'POST',
      url: '/artifactory/api/export/system',
      headers: { authorization: basic('dev', 'dev-pass-1') },
      payload: { exportPath: 'mine' },
    });
    expect(user.statusCode).toBe(403);
  });
});

describe('a backup that does not fit', () => {
  it('is refused before it copies, and the previous one stays as it was', async () => {
    const target = join(disk.path, 'nightly');
    const first = await exportSystem(target);
    const manifestBefore = readFileSync(join(first.path, 'manifest.json'), 'utf8');
    await deployFile(source, 'files', 'big.bin', Buffer.alloc(768 * 1024, 0x42));
    disk.fill(256 * 1024);
    try {
      // The answer started before the space was known: its last line says why it failed.
      expect((await exportAnswer(target)).at(-1)).toMatch(
        /^Export failed: Not enough free space for the backup: it needs .+, the target has .+ free$/,
      );
    } finally {
      disk.empty();
    }
    expect(readdirSync(target)).toEqual([first.path.split('/').at(-1)]);
    expect(readFileSync(join(first.path, 'manifest.json'), 'utf8')).toBe(manifestBefore);
  });

  it('refuses an incremental backup that does not fit, leaving its directory and packs as they were', async () => {
    const target = join(disk.path, 'refused');
    try {
      const base = await exportSystem(target, { incremental: true });
      const before = [readdirSync(target), readdirSync(join(target, 'packs'))];
      // New content: no earlier pack holds it, so the delta's pack (its thread started with
      // the backup) would need room the disk does not have.
      await deployFile(source, 'files', 'big-new.bin', Buffer.alloc(768 * 1024, 0x43));
      disk.fill(256 * 1024);
      try {
        expect((await exportAnswer(target, { incremental: true })).at(-1)).toMatch(
          /^Export failed: Not enough free space for the backup: it needs .+, the target has .+ free$/,
        );
      } finally {
        disk.empty();
      }
      expect([readdirSync(target), readdirSync(join(target, 'packs'))]).toEqual(before);
      expect(before[0]).toContain(base.path.split('/').at(-1));
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });

  it('lets an incremental backup whose new blob rows earlier packs hold run on a nearly full disk', async () => {
    const target = join(disk.path, 'held');
    try {
      const base = await exportSystem(target, { incremental: true });
      // The same content again at a new path: the deploy claims the blob row, so the delta
      // names the blob though the base's pack holds it.
      await deployFile(source, 'files', 'big-again.bin', Buffer.alloc(768 * 1024, 0x42));
      disk.fill(256 * 1024);
      try {
        const delta = await exportSystem(target, { incremental: true });
        expect(delta.manifest.blobs.copied).toBe(0);
        expect(delta.manifest.packs).toEqual(base.manifest.packs);
      } finally {
        disk.empty();
      }
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });

  it('fails a configured backup with its reason, and mails the admins', async () => {
    const smtp = await startSmtpServer();
    try {
      const mail = await source.app.inject({
        method: 'PUT',
        url: '/ui/api/v1/ui/mail',
        headers: adminAuth(),
        payload: {
          enabled: true,
          host: '127.0.0.1',
          port: smtp.port,
          from: 'depot@example.test',
          baseUrl: 'https://depot.example.test',
        },
      });
      expect(mail.statusCode, mail.body).toBe(200);
      const created = await source.app.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/backup',
        headers: adminAuth(),
        payload: { key: 'on-disk', cronExp: '0 0 3 * * ?', dir: join(disk.path, 'on-disk') },
      });
      expect(created.statusCode, created.body).toBe(201);
      await deployFile(source, 'files', 'bigger.bin', Buffer.alloc(768 * 1024, 0x43));
      disk.fill(256 * 1024);
      try {
        const run = await source.app.inject({
          method: 'POST',
          url: '/ui/api/v1/ui/backup/on-disk/runnow',
          headers: adminAuth(),
        });
        expect(run.statusCode, run.body).toBe(200);
        const status = await lastRunOf('on-disk');
        expect(status.lastRun?.outcome).toBe('failure');
        expect(status.lastRun?.info).toMatch(/^Failed: Not enough free space for the backup/);
        const [sent] = await smtp.waitFor(1);
        expect(sent.to).toEqual(['admin@localhost']);
        expect(sent.subject).toContain("Depot backup 'on-disk' failed");
        expect(sent.text).toContain('Not enough free space for the backup');
      } finally {
        disk.empty();
      }
      expect(readdirSync(join(disk.path, 'on-disk'))).toEqual([]);
    } finally {
      await smtp.close();
    }
  });
});

describe('configured backups', () => {
  const ui = '/ui/api/v1/ui/backup';

  it('refuses an invalid cron and a path outside the list', async () => {
    const bad = await source.app.inject({
      method: 'POST',
      url: ui,
      headers: adminAuth(),
      payload: { key: 'broken', cronExp: 'every night' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({
      message: 'The cron expression is invalid',
      field: 'cronExp',
    });
    const zipIncremental = await source.app.inject({
      method: 'POST',
      url: ui,
      headers: adminAuth(),
      payload: { key: 'zipinc', cronExp: '0 0 2 * * ?', incremental: true, createArchive: true },
    });
    expect(zipIncremental.statusCode).toBe(400);
    expect(zipIncremental.json().errors[0].field).toBe('createArchive');
    const outside = await source.app.inject({
      method: 'POST',
      url: ui,
      headers: adminAuth(),
      payload: { key: 'outside', cronExp: '0 0 2 * * ?', dir: '../../elsewhere' },
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().errors[0].field).toBe('dir');
  });

  it('runs now, reports its result, and leaves out excluded repositories', async () => {
    const created = await source.app.inject({
      method: 'POST',
      url: ui,
      headers: adminAuth(),
      payload: {
        key: 'nightly',
        cronExp: '0 0 2 * * ?',
        excludedRepositories: ['libs'],
        exportMasterKey: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const run = await source.app.inject({
      method: 'POST',
      url: `${ui}/nightly/runnow`,
      headers: adminAuth(),
    });
    expect(run.statusCode, run.body).toBe(200);
    const status = await lastRunOf('nightly');
    expect(status.lastRun).toMatchObject({ outcome: 'success' });
    const written = readdirSync(join(allowed, 'nightly')).filter((name) =>
      name.startsWith('backup-'),
    );
    expect(written).toHaveLength(1);
    const manifest = JSON.parse(
      readFileSync(join(allowed, 'nightly', written[0], 'manifest.json'), 'utf8'),
    ) as { repositories: string[]; counts: Record<string, number> };
    expect(manifest.repositories).toEqual(['files', 'npm-local']);
    const metadata = readFileSync(join(allowed, 'nightly', written[0], 'metadata.jsonl'), 'utf8');
    expect(metadata).not.toContain('app-1.0.jar');
    expect(metadata).toContain('file-1.txt');
    // Asked for, the master key is in it, and the manifest warns.
    const first = join(allowed, 'nightly', written[0]);
    expect(readFileSync(join(first, 'security', 'master.key'), 'utf8').trim()).toBe(
      readFileSync(join(source.config.home, 'security', 'master.key'), 'utf8').trim(),
    );
    expect(manifest).toMatchObject({ masterKeyIncluded: true, warnings: [expect.any(String)] });

    // Retention: once a new backup succeeds, one that finished 169 hours ago goes.
    const manifestPath = join(first, 'manifest.json');
    const aged = { ...JSON.parse(readFileSync(manifestPath, 'utf8')) };
    aged.finishedAt = new Date(Date.now() - 169 * 3600 * 1000).toISOString();
    writeFileSync(manifestPath, JSON.stringify(aged));
    const again = await source.app.inject({
      method: 'POST',
      url: `${ui}/nightly/runnow`,
      headers: adminAuth(),
    });
    expect(again.statusCode, again.body).toBe(200);
    const second = await lastRunOf('nightly', status.lastRun?.startedAt);
    expect(second.lastRun).toMatchObject({ outcome: 'success' });
    expect(second.lastRun?.info).toContain('removed 1 expired backups');
    const left = readdirSync(join(allowed, 'nightly'));
    expect(left).toHaveLength(1);
    expect(left[0]).not.toBe(written[0]);
    // The console's Restore takes the newest backup, and refuses a Depot with repositories.
    const shown = await source.app.inject({ url: `${ui}/nightly/status`, headers: adminAuth() });
    expect(shown.json().newestBackup).toBe(left[0]);
    const restore = await source.app.inject({
      method: 'POST',
      url: `${ui}/nightly/restore`,
      headers: adminAuth(),
    });
    expect(restore.statusCode).toBe(409);
    expect(restore.json().errors[0].message).toBe(
      'This Depot has repositories already: a backup restores into an empty Depot only (no repositories)',
    );
    const none = await source.app.inject({
      method: 'POST',
      url: `${ui}/on-disk/restore`,
      headers: adminAuth(),
    });
    expect(none.statusCode).toBe(404);
    expect(none.json().errors[0].message).toBe(
      "Backup 'on-disk' has not written a backup yet: run it first",
    );
    const missing = await source.app.inject({
      method: 'POST',
      url: `${ui}/nope/runnow`,
      headers: adminAuth(),
    });
    expect(missing.statusCode).toBe(404);
  }, 60_000);

  it('holds garbage collection off while a backup copies blobs', async () => {
    await source.services.trash.updateConfig({ enabled: false });
    await deployFile(source, 'files', 'gone.txt', 'to be collected');
    const deleted = await source.app.inject({
      method: 'DELETE',
      url: '/artifactory/files/gone.txt',
      headers: adminAuth(),
    });
    expect(deleted.statusCode).toBe(204);
    const held = await source.services.blobHold.during(() =>
      source.services.garbageCollector.collect(0),
    );
    expect(held.heldOff).toBe(true);
    expect(held.binaries).toBe(0);
    const free = await source.services.garbageCollector.collect(0);
    expect(free.heldOff).toBeUndefined();
    expect(free.binaries).toBeGreaterThan(0);
  });
});

describe('repository export and import', () => {
  const exportRepos = (payload: object, headers = adminAuth()) =>
    source.app.inject({
      method: 'POST',
      url: '/artifactory/api/export/repositories',
      headers,
      payload,
    });
  const importRepos = (depot: TestDepot, payload: object) =>
    depot.app.inject({
      method: 'POST',
      url: '/artifactory/api/import/repositories',
      headers: adminAuth(),
      payload,
    });
  const itemsOf = async (depot: TestDepot, repoKey: string, as = repoKey) =>
    new Map(
      [...(await items(depot))]
        .filter(([item]) => item.startsWith(`${repoKey}/`))
        .map(([item, description]) => [`${as}${item.slice(repoKey.length)}`, description]),
    );
  let target: TestDepot;

  beforeAll(async () => {
    target = await startTestDepot(env);
    fresh.push(target);
    await createRepository(target, 'files', 'local');
    await createMavenRepository(target, 'libs', 'local');
    await createRepository(target, 'copy', 'local');
    await deployFile(target, 'files', 'docs/file-1.txt', 'to be replaced');
  }, 60_000);

  it('writes files and their properties in the repository layout, and imports them byte-identical', async () => {
    const exported = await exportRepos({
      exportPath: 'repos',
      repositories: ['files', 'libs'],
      includeMetadata: true,
      m2: true,
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const expected = { files: await itemsOf(source, 'files'), libs: await itemsOf(source, 'libs') };
    const root = join(allowed, 'repos');
    expect(readdirSync(root).sort()).toEqual(['files', 'libs']);
    expect(readFileSync(join(root, 'files/docs/file-3.txt'), 'utf8')).toBe('generic 3');
    const metadata = join(root, 'files/docs/.artifactory-metadata');
    const properties = readFileSync(join(metadata, 'file-3.txt.properties.xml'), 'utf8');
    expect(properties).toContain('<property><key>team</key><value>docs</value></property>');
    expect(properties).toContain('<property><key>n</key><value>3</value></property>');
    expect(readFileSync(join(metadata, 'file-3.txt.artifactory-file.xml'), 'utf8')).toContain(
      `<type>sha256</type>`,
    );
    expect(readFileSync(join(root, 'libs/org/acme/app/1.0/app-1.0.jar.sha1'), 'utf8')).toMatch(
      /^[0-9a-f]{40}$/,
    );
    // m2: the artifact's maven-metadata.xml, as a GET answers it, with its checksums.
    const mavenMetadata = readFileSync(join(root, 'libs/org/acme/app/maven-metadata.xml'), 'utf8');
    const served = await source.app.inject({
      method: 'GET',
      url: '/artifactory/libs/org/acme/app/maven-metadata.xml',
      headers: adminAuth(),
    });
    expect(mavenMetadata).toBe(served.body);
    expect(mavenMetadata).toContain('<artifactId>app</artifactId>');
    expect(mavenMetadata).toContain('<version>1.0</version>');
    expect(readFileSync(join(root, 'libs/org/acme/app/maven-metadata.xml.sha1'), 'utf8')).toBe(
      createHash('sha1').update(mavenMetadata).digest('hex'),
    );
    expect(existsSync(join(root, 'files/docs/maven-metadata.xml'))).toBe(false);

    const imported = await importRepos(target, { importPath: 'repos', includeMetadata: true });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(await itemsOf(target, 'files')).toEqual(expected.files);
    expect(await itemsOf(target, 'libs')).toEqual(expected.libs);
    for (const item of ['files/docs/file-1.txt', 'libs/org/acme/app/1.0/app-1.0.jar'])
      expect(
        (await target.app.inject({ url: `/artifactory/${item}`, headers: adminAuth() })).rawPayload,
      ).toEqual(
        (await source.app.inject({ url: `/artifactory/${item}`, headers: adminAuth() })).rawPayload,
      );

    // One repository's folder into another repository.
    const one = await importRepos(target, { importPath: 'repos/files', repo: 'copy' });
    expect(one.statusCode, one.body).toBe(200);
    expect(await itemsOf(target, 'copy', 'files')).toEqual(expected.files);
  }, 60_000);

  it('refuses a file whose checksum does not match, naming it, and imports nothing', async () => {
    const exported = await exportRepos({ exportPath: 'tampered', repositories: ['files'] });
    expect(exported.statusCode, exported.body).toBe(200);
    writeFileSync(join(allowed, 'tampered/files/docs/file-5.txt'), 'generic X');
    const before = await items(target);
    const refused = await importRepos(target, { importPath: 'tampered/files', repo: 'copy' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0].message).toMatch(
      /^Nothing was imported: 1 files do not match .*: copy\/docs\/file-5\.txt$/,
    );
    expect(await items(target)).toEqual(before);
  });

  it('refuses paths outside the allowed list, unknown repositories and non-admins, writing nothing', async () => {
    for (const exportPath of ['../escape-repos', tmpdir()]) {
      const refused = await exportRepos({ exportPath });
      expect(refused.statusCode, exportPath).toBe(400);
      expect(refused.json().errors[0].message).toContain('outside the backup directories');
    }
    expect(existsSync(join(allowed, '..', 'escape-repos'))).toBe(false);
    const outside = await importRepos(target, { importPath: tmpdir(), repo: 'copy' });
    expect(outside.statusCode).toBe(400);

    const unknown = await exportRepos({ exportPath: 'unknown', repositories: ['files', 'nope'] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors[0].message).toBe("Repository 'nope' could not be found.");
    expect(existsSync(join(allowed, 'unknown'))).toBe(false);

    // Importing all: a folder that names no local repository of the target refuses it all.
    const before = await items(target);
    const noRepo = await importRepos(target, { importPath: 'repos', repo: 'nope' });
    expect(noRepo.statusCode).toBe(404);
    const exported = await exportRepos({
      exportPath: 'with-npm',
      repositories: ['files', 'npm-local'],
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const all = await importRepos(target, { importPath: 'with-npm' });
    expect(all.statusCode).toBe(404);
    expect(all.json().errors[0].message).toMatch(/^No local repository matches 'npm-local'/);
    expect(await items(target)).toEqual(before);

    const dev = { authorization: basic('dev', 'dev-pass-1') };
    expect((await exportRepos({ exportPath: 'mine' }, dev)).statusCode).toBe(403);
  });
});

describe('packs', () => {
  const ui = '/ui/api/v1/ui/backup';

  /** Rewrites a packed backup as version 1 wrote it: a file per blob, no packs. */
  async function asVersion1(backupPath: string) {
    const packsDir = join(backupPath, 'packs');
    for (const entry of await packEntries(packsDir)) {
      const pack = readFileSync(join(packsDir, `${entry.pack}.pack`));
      const dir = join(backupPath, 'blobs', entry.sha256.slice(0, 2));
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, entry.sha256),
        pack.subarray(entry.offset, entry.offset + entry.length),
      );
    }
    rmSync(packsDir, { recursive: true });
    const manifestPath = join(backupPath, 'manifest.json');
    const {
      packs: _packs,
      packsDir: _dir,
      ...rest
    } = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    writeFileSync(manifestPath, JSON.stringify({ ...rest, formatVersion: 1, blobsDir: 'blobs' }));
  }

  it('still restores a backup of the first format (a file per blob)', async () => {
    const backup = await exportSystem('version-1');
    const expected = await items(source);
    await asVersion1(backup.path);
    expect(existsSync(join(backup.path, 'packs'))).toBe(false);
    const { target, response } = await restoreInto(backup.path);
    expect(response.statusCode, response.body).toBe(200);
    expect(await items(target)).toEqual(expected);
    const item = '/artifactory/libs/org/acme/app/1.0/app-1.0.jar';
    expect((await target.app.inject({ url: item, headers: adminAuth() })).body).toBe('jar bytes');
  }, 60_000);

  it('removes expired incremental backups but keeps every pack a kept one needs', async () => {
    const created = await source.app.inject({
      method: 'POST',
      url: ui,
      headers: adminAuth(),
      payload: { key: 'chain', cronExp: '0 0 4 * * ?', incremental: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const dir = join(allowed, 'chain');
    let previous: string | undefined;
    const run = async () => {
      const started = await source.app.inject({
        method: 'POST',
        url: `${ui}/chain/runnow`,
        headers: adminAuth(),
      });
      expect(started.statusCode, started.body).toBe(200);
      const { lastRun } = await lastRunOf('chain', previous);
      expect(lastRun?.outcome, lastRun?.info).toBe('success');
      previous = lastRun!.startedAt;
      return { info: lastRun!.info, name: backupsIn().at(-1)! };
    };
    const backupsIn = () =>
      readdirSync(dir)
        .filter((name) => name.startsWith('backup-'))
        .sort();
    const manifestOf = (name: string) =>
      JSON.parse(readFileSync(join(dir, name, 'manifest.json'), 'utf8')) as Manifest & {
        finishedAt: string;
      };
    const age = (name: string) =>
      writeFileSync(
        join(dir, name, 'manifest.json'),
        JSON.stringify({
          ...manifestOf(name),
          finishedAt: new Date(Date.now() - 169 * 3600 * 1000).toISOString(),
        }),
      );
    const packFiles = () => readdirSync(join(dir, 'packs')).sort();
    const filesOf = (...packs: string[]) => packs.flatMap((p) => [`${p}.idx`, `${p}.pack`]).sort();

    const a = (await run()).name;
    await deployFile(source, 'files', 'chain/x.txt', 'chain x');
    const b = (await run()).name;
    expect(manifestOf(b).packs).toEqual([a, b]);
    expect(manifestOf(b).blobs.copied).toBe(1);

    // b's metadata is a delta of a's: a stays, however old, while a backup builds on it.
    expect(manifestOf(b)).toMatchObject({ metadata: 'delta', basedOn: a, chainLength: 1 });
    age(a);
    const c = await run();
    expect(c.info).toContain('removed 0 expired backups');
    expect(manifestOf(c.name)).toMatchObject({ basedOn: b, packs: [a, b], blobs: { copied: 0 } });
    expect(backupsIn()).toEqual([a, b, c.name]);
    expect(packFiles()).toEqual(filesOf(a, b));

    // x leaves the snapshot (no trash to keep it). A rewritten table (VACUUM FULL moves every
    // row) ends the chain: the next backup dumps all metadata, needs a's pack only, and the
    // expired chain goes with the pack only it needed.
    await source.services.trash.updateConfig({ enabled: false });
    const deleted = await source.app.inject({
      method: 'DELETE',
      url: '/artifactory/files/chain/x.txt',
      headers: adminAuth(),
    });
    expect(deleted.statusCode).toBe(204);
    await sql`vacuum full settings`.execute(source.db);
    age(b);
    age(c.name);
    const d = await run();
    expect(d.info).toContain('removed 3 expired backups');
    expect(backupsIn()).toEqual([d.name]);
    expect(manifestOf(d.name)).toMatchObject({ metadata: 'full', chainLength: 0, packs: [a] });
    expect(packFiles()).toEqual(filesOf(a));

    const expected = await items(source);
    const { target, response } = await restoreInto(join(dir, d.name));
    expect(response.statusCode, response.body).toBe(200);
    expect(await items(target)).toEqual(expected);
  }, 90_000);

  it('answers the export at once and tells its progress while it works', async () => {
    await deployFile(source, 'files', 'slow/fifo.bin', 'fifo content');
    const [{ sha256 }] = await source.db
      .selectFrom('nodes')
      .select('sha256')
      .where('path', '=', 'slow/fifo.bin')
      .execute();
    // The blob's file becomes a pipe that already holds the blob's bytes, kept open for
    // writing by the test (read-write, which never blocks on Linux): the export reads the
    // bytes, then waits for the end of the file until the test closes its end. The bytes sit
    // in the pipe from the start, so no open by the export (its non-blocking probe, then its
    // read) can miss them, and the pipe lives as long as the test's end does.
    const blobPath = source.services.filestore.pathOf(sha256!);
    rmSync(blobPath);
    execFileSync('mkfifo', [blobPath]);
    let pipeEnd: number | undefined = openSync(blobPath, constants.O_RDWR);
    writeSync(pipeEnd, 'fifo content');
    const closePipe = () => {
      if (pipeEnd !== undefined) closeSync(pipeEnd);
      pipeEnd = undefined;
    };
    const address = await source.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const response = await fetch(`${address}/artifactory/api/export/system`, {
        method: 'POST',
        headers: { ...adminAuth(), 'content-type': 'application/json' },
        body: JSON.stringify({ exportPath: 'streamed' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (!text.includes('Checking the free space')) {
        const { value, done } = await reader.read();
        expect(done, text).toBe(false);
        text += value;
      }
      expect(text).toMatch(/^Exporting the system to 'streamed'\nReading the metadata/);
      // Headers and lines came while the export could not end: no backup is complete yet.
      expect(readdirSync(join(allowed, 'streamed')).filter((n) => !n.startsWith('.'))).toEqual([]);
      // Closed once the export's blocking read has the pipe open: closed before, that open
      // would wait for a writer forever.
      await blockingReaderOf(blobPath);
      closePipe();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      const lines = text.trimEnd().split('\n');
      expect(lines.at(-2), text).toMatch(
        /^Exported \d+ items and \d+ binaries \(\d+ written, .+\) in /,
      );
      const written = /^Export finished successfully: (.+)$/.exec(lines.at(-1)!)?.[1];
      expect(written, text).toBeDefined();
      expect(existsSync(join(written!, 'manifest.json'))).toBe(true);
    } finally {
      closePipe();
      rmSync(blobPath, { force: true });
      writeFileSync(blobPath, 'fifo content');
    }
  }, 60_000);
});

/**
 * Waits until this process (the Depot under test runs in it) has `path` open read-only
 * without O_NONBLOCK, as /proc says: the export's read of the pipe, not its probe (which is
 * non-blocking) nor the test's own end (read-write).
 */
async function blockingReaderOf(path: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    for (const fd of readdirSync('/proc/self/fd')) {
      const flags = openFlagsOf(fd, path);
      const readOnly = flags !== undefined && (flags & 3) === constants.O_RDONLY; // not the test's end
      if (readOnly && (flags & constants.O_NONBLOCK) === 0) return;
    }
    if (Date.now() > deadline) throw new Error(`nothing opened ${path} for a blocking read`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The open flags of this process's descriptor `fd` if it is open on `path`. */
function openFlagsOf(fd: string, path: string): number | undefined {
  try {
    if (readlinkSync(`/proc/self/fd/${fd}`) !== path) return undefined;
    const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    return flags ? parseInt(flags[1], 8) : undefined;
  } catch {
    return undefined; // closed since the directory was read
  }
}
