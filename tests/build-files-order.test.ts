import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInfo, checksumsOf, type FileSpec } from './helpers/build-info.ts';
import { adminAuth, createRepository, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * A build's artifacts and dependencies are read in its document's order, not in the order
 * their rows sit in the table (docs/builds.md, "Where a build lives"). Deleting builds leaves
 * free space in `build_files`; once VACUUM hands it out again, a new build's rows land in it
 * out of order (here the table is reversed outright: reverseTheTable). Every reader (the
 * diff, the Builds tab, Published Modules, a module's artifacts, the build-info GET) must
 * still answer in the document's order, each listing of a name a module gives twice with
 * its own checksums.
 */
let depot: TestDepot;
const API = '/artifactory/api/build';
const UI = '/ui/api/v1/ui/builds';
const STORED_PATH = 'org/acme/lib/1.0/lib-1.0.jar';
const STORED = 'the stored jar';
const START = {
  previous: new Date('2026-04-01T10:00:00Z'),
  current: new Date('2026-04-02T10:00:00Z'),
};
/** A long name, as some are, in a module of its own. */
const BIG_NAME = `big-${'x'.repeat(1000)}.jar`;
const ARTIFACTS = 100;

const named = (prefix: string, count: number, content: (i: number) => string): FileSpec[] =>
  Array.from({ length: count }, (_, i) => {
    const name = `${prefix}-${String(i).padStart(3, '0')}.jar`;
    return { name, content: content(i) };
  });
const firstListing = named('a', ARTIFACTS, (i) => `a${i} first`);
/** The module lists every artifact again, each time with the stored jar's content. */
const secondListing = named('a', ARTIFACTS, () => STORED);

const previousBuild = buildInfo({
  name: 'ordered',
  number: '1',
  started: START.previous,
  modules: [
    { id: 'm0', artifacts: [{ name: BIG_NAME, content: 'big before' }] },
    { id: 'm1', artifacts: firstListing },
  ],
});
const currentBuild = (m1: FileSpec[]) =>
  buildInfo({
    name: 'ordered',
    number: '2',
    started: START.current,
    modules: [
      { id: 'm0', artifacts: [{ name: BIG_NAME, content: STORED }] },
      { id: 'm1', artifacts: m1 },
    ],
  });

const upload = async (document: object) => {
  const response = await depot.app.inject({
    method: 'PUT',
    url: API,
    headers: adminAuth(),
    payload: document,
  });
  expect(response.statusCode, response.body).toBe(204);
};
const get = async (url: string) => {
  const response = await depot.app.inject({ method: 'GET', url, headers: adminAuth() });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
/**
 * Puts every row of `build_files` in the reverse of its document's order. In use, a build's
 * rows land out of order where deleted builds left space that VACUUM hands out again; where
 * exactly depends on the free space map's state and on autovacuum's timing, which made a
 * test built on it pass or fail by chance on PostgreSQL. CLUSTER on a reversed index gives
 * the same kind of table, every time, on both databases.
 */
async function reverseTheTable() {
  await sql`create index build_files_reversed
            on build_files (build_id, module_position desc, position desc)`.execute(depot.db);
  await sql`cluster build_files using build_files_reversed`.execute(depot.db);
  await sql`drop index build_files_reversed`.execute(depot.db);
}

/** The current build's rows in the table's order, as their places in the document. */
async function tableOrder() {
  const { rows } = await sql<{ module_id: string; name: string; sha1: string }>`
    select f.module_id, f.name, f.sha1 from build_files f join builds b on b.id = f.build_id
    where b.name = 'ordered' and b.number = '2' order by f.ctid`.execute(depot.db);
  const stored = checksumsOf(STORED).sha1;
  return rows.map((row) => {
    if (row.module_id === 'm0') return 0;
    const index = Number(row.name.slice(2, 5));
    return row.sha1 === stored ? 1 + ARTIFACTS + index : 1 + index;
  });
}

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'libs-local', 'local');
  const deployed = await depot.app.inject({
    method: 'PUT',
    url: `/artifactory/libs-local/${STORED_PATH}`,
    headers: adminAuth(),
    payload: STORED,
  });
  expect(deployed.statusCode, deployed.body).toBe(201);
  await upload(previousBuild);
  await upload(currentBuild([...firstListing, ...secondListing]));
  await reverseTheTable();
});

afterAll(async () => {
  await depot?.close();
});

const entry = (file: FileSpec, module: string) => ({
  name: file.name,
  type: 'jar',
  ...checksumsOf(file.content),
  module,
});

describe('a build whose rows sit out of order in the table', () => {
  it('has rows out of the document order in the table (what the rest relies on)', async () => {
    const order = await tableOrder();
    const placeOf = (documentIndex: number) => order.indexOf(documentIndex);
    // A second listing sits before its first, and a row of m1 before m0's.
    expect(
      secondListing.some((_, i) => placeOf(1 + ARTIFACTS + i) < placeOf(1 + i)),
      `rows by ctid: ${order.join(',')}`,
    ).toBe(true);
    expect(order[0], `rows by ctid: ${order.join(',')}`).not.toBe(0);
  });

  it('diffs in the document order, a name listed twice by its last checksums', async () => {
    const diff = await get(`${API}/ordered/2?diff=1`);
    expect(diff.artifacts).toEqual({
      new: [],
      updated: [
        entry({ name: BIG_NAME, content: STORED }, 'm0'),
        ...secondListing.map((file) => entry(file, 'm1')),
      ],
      unchanged: [],
      removed: [],
    });
  });

  it("lists the build's modules in the document order on the stored jar's Builds tab", async () => {
    const tab = await get(`/ui/api/v1/ui/artifactbuilds?repoKey=libs-local&path=${STORED_PATH}`);
    expect(
      tab.producedBy.map((build: { number: string; moduleID: string }) => build.moduleID),
    ).toEqual(['m0', 'm1']);
    expect(tab.usedBy).toEqual([]);
  });

  it('answers Published Modules, module artifacts and the build-info as the document gives them', async () => {
    const at = `ordered/2/${START.current.getTime()}`;
    const modules = await get(`${UI}/publishedModules/${at}`);
    expect(modules.modules).toEqual([
      { moduleId: 'm0', type: '', numOfArtifacts: 1, numOfDependencies: 0 },
      { moduleId: 'm1', type: '', numOfArtifacts: 2 * ARTIFACTS, numOfDependencies: 0 },
    ]);
    const { artifacts } = await get(`${UI}/modulesArtifact/${at}/m1`);
    const listed = [...firstListing, ...secondListing];
    expect(artifacts.map((a: { name: string; sha1: string }) => [a.name, a.sha1])).toEqual(
      listed.map((file) => [file.name, checksumsOf(file.content).sha1]),
    );
    const { buildInfo } = await get(`${API}/ordered/2`);
    expect(buildInfo.modules).toEqual(currentBuild(listed).modules);
  });

  it('orders by the document uploaded again under the same number and start', async () => {
    const reversed = [...secondListing].reverse();
    await upload(currentBuild(reversed));
    const diff = await get(`${API}/ordered/2?diff=1`);
    expect(diff.artifacts.updated).toEqual([
      entry({ name: BIG_NAME, content: STORED }, 'm0'),
      ...reversed.map((file) => entry(file, 'm1')),
    ]);
  });
});
