import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_MESSAGES } from '../server/modules/archives/messages.ts';
import { craftZip, type CraftedEntry } from './helpers/archives.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';

/**
 * Exploding an archive without holding the database (issue 22, item 9): a deploy that need
 * not be atomic is recorded in batches of files, each its own short transaction, and still
 * keeps the files before a refused one as separate deploys would; an atomic one is one
 * transaction, all or nothing, and therefore holds at most DEPOT_ATOMIC_DEPLOY_MAX_ENTRIES
 * entries. Over real HTTP on loopback.
 */
const MAX_ATOMIC = 100;
const FILES = 120; // nearly five batches of 25

let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot({ DEPOT_ATOMIC_DEPLOY_MAX_ENTRIES: String(MAX_ATOMIC) });
  await depot.services.repositories.create({
    key: 'libs',
    rclass: 'local',
    packageType: 'generic',
  });
});
afterAll(() => depot?.close());

const fileName = (i: number) => `f-${String(i).padStart(3, '0')}.txt`;
const entries = (count: number, prefix = ''): CraftedEntry[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `${prefix}${fileName(i)}`,
    data: Buffer.from(`${prefix} file ${i}`),
  }));

const explode = (path: string, archive: Buffer, atomic: boolean) =>
  depot.request(`/artifactory/libs/${path}`, {
    method: 'PUT',
    headers: {
      'x-explode-archive': 'true',
      ...(atomic ? { 'x-explode-archive-atomic': 'true' } : {}),
    },
    body: archive as unknown as BodyInit,
  });

const filestoreRoot = () => join(depot.config.home, 'filestore');
const tempFiles = () => readdirSync(join(filestoreRoot(), '_tmp'));
const blobRows = async () =>
  Number((await sql<{ n: string }>`select count(*) as n from blobs`.execute(depot.db)).rows[0].n);
const blobFiles = () =>
  readdirSync(filestoreRoot())
    .filter((d) => d !== '_tmp')
    .flatMap((a) =>
      readdirSync(join(filestoreRoot(), a)).flatMap((b) =>
        readdirSync(join(filestoreRoot(), a, b)),
      ),
    ).length;

/** The names of the files stored in a folder of `libs`, sorted. */
async function filesIn(folder: string): Promise<string[]> {
  const repo = await depot.services.artifacts.repository('libs');
  const rows = await depot.db
    .selectFrom('nodes')
    .select('name')
    .where('repository_id', '=', repo.id)
    .where('parent_path', '=', folder)
    .where('folder', '=', false)
    .orderBy('name')
    .execute();
  return rows.map((row) => row.name);
}

async function errorOf(response: Response) {
  return { status: response.status, message: (await response.json()).errors[0].message };
}

describe('an atomic explode', () => {
  it(`holds at most ${MAX_ATOMIC} entries, refused with a 413 that keeps nothing`, async () => {
    const [rows, blobs] = [await blobRows(), blobFiles()];
    const response = await explode('big/a.zip', craftZip(entries(MAX_ATOMIC + 1)), true);
    expect(await errorOf(response)).toEqual({
      status: 413,
      message: ARCHIVE_MESSAGES.tooManyAtomicEntries(MAX_ATOMIC),
    });
    expect(ARCHIVE_MESSAGES.tooManyAtomicEntries(MAX_ATOMIC)).toMatch(
      /^The archive has more than 100 entries, the most an atomic deploy/,
    );
    expect(await filesIn('big')).toEqual([]);
    expect([await blobRows(), blobFiles(), tempFiles()]).toEqual([rows, blobs, []]);
  });

  it('deploys the most it may hold, every file in one go', async () => {
    const response = await explode('full/a.zip', craftZip(entries(MAX_ATOMIC)), true);
    expect(response.status).toBe(201);
    expect(await filesIn('full')).toHaveLength(MAX_ATOMIC);
  });

  it('keeps nothing when its last file clashes with a stored folder', async () => {
    const folder = await depot.request(`/artifactory/libs/clash/${fileName(99)}/inner.txt`, {
      method: 'PUT',
      body: 'in the way',
    });
    expect(folder.status).toBe(201);
    const [rows, blobs] = [await blobRows(), blobFiles()];
    const response = await explode('clash/a.zip', craftZip(entries(MAX_ATOMIC)), true);
    expect(await errorOf(response)).toEqual({
      status: 409,
      message: `A folder exists at 'clash/${fileName(99)}': a file cannot replace it`,
    });
    expect(await filesIn('clash')).toEqual([]);
    expect([await blobRows(), blobFiles(), tempFiles()]).toEqual([rows, blobs, []]);
  });
});

describe('an explode that need not be atomic', () => {
  it('is not held to the atomic limit, and sets the PUT’s properties on every file', async () => {
    const response = await depot.request('/artifactory/libs/loose/a.zip;team=core;tier=1,2', {
      method: 'PUT',
      headers: { 'x-explode-archive': 'true' },
      body: craftZip(entries(FILES)) as unknown as BodyInit,
    });
    expect(response.status).toBe(201);
    expect(await filesIn('loose')).toEqual(Array.from({ length: FILES }, (_, i) => fileName(i)));
    const rows = await sql<{ key: string; n: string }>`
      select p.key, count(*) as n from node_properties p join nodes n on n.id = p.node_id
      where n.parent_path = 'loose' group by p.key order by p.key`.execute(depot.db);
    expect(rows.rows.map((row) => [row.key, Number(row.n)])).toEqual([
      ['team', FILES],
      ['tier', FILES * 2],
    ]);
  });

  it('keeps the files before a clash in a later batch, and none after it', async () => {
    const clash = 80; // the sixth file of the fourth batch
    const folder = await depot.request(`/artifactory/libs/part/${fileName(clash)}/inner.txt`, {
      method: 'PUT',
      body: 'in the way',
    });
    expect(folder.status).toBe(201);
    const response = await explode('part/a.zip', craftZip(entries(FILES)), false);
    expect(await errorOf(response)).toEqual({
      status: 409,
      message: `A folder exists at 'part/${fileName(clash)}': a file cannot replace it`,
    });
    expect(await filesIn('part')).toEqual(Array.from({ length: clash }, (_, i) => fileName(i)));
    expect(tempFiles()).toEqual([]);
  });
});
