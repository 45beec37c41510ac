import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyCriterion, type RetentionPolicy } from '../server/modules/retention/policy-aql.ts';
import { totalsStatement } from '../server/modules/retention/preview-queries.ts';
import { buildInfo } from './helpers/build-info.ts';
import {
  adminAuth,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * The retention preview in a Depot where no build was ever stored: its statement then leaves
 * out the tests against what kept builds need (docs/retention.md, "The honest preview"), and
 * must count the same; once a build is stored, the next preview keeps what it lists, by
 * SHA-256 or by SHA-1 alone (migration 0060 resolves the SHA-1 as either side is written).
 */
let depot: TestDepot;
const PREVIEW = '/ui/api/v1/ui/retention/archive/policies/preview';

const content = {
  alone: randomBytes(4_000),
  twiceChosen: randomBytes(3_000),
  sharedWithKept: randomBytes(2_000),
  built: randomBytes(1_000),
};

async function preview() {
  const response = await depot.app.inject({
    method: 'POST',
    url: PREVIEW,
    headers: adminAuth(),
    payload: {
      key: 'no-builds',
      cronExp: '0 0 3 ? * SUN',
      enabled: false,
      action: 'archive',
      policyBase: 'FORM',
      repositories: ['chosen'],
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { count: number; totalSize: number; freedBytes: number };
}

/** Stores a build-info document over REST, as a CI server publishes it. */
async function storeBuild(document: object) {
  const stored = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/build',
    headers: adminAuth(),
    payload: document,
  });
  expect(stored.statusCode, stored.body).toBe(204);
}

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'chosen', 'local');
  await createRepository(depot, 'stays', 'local');
  await deployFile(depot, 'chosen', 'a/alone.bin', content.alone);
  await deployFile(depot, 'chosen', 'a/twice-1.bin', content.twiceChosen);
  await deployFile(depot, 'chosen', 'b/twice-2.bin', content.twiceChosen);
  await deployFile(depot, 'chosen', 'a/shared.bin', content.sharedWithKept);
  await deployFile(depot, 'stays', 'c/shared.bin', content.sharedWithKept);
  await deployFile(depot, 'chosen', 'a/built.bin', content.built);
}, 60_000);

afterAll(async () => {
  await depot?.close();
});

describe('the retention preview without builds', () => {
  it('counts every file and frees shared contents honestly; a build stored later keeps its file', async () => {
    const { alone, twiceChosen, sharedWithKept, built } = content;
    expect(await preview()).toMatchObject({
      count: 5,
      totalSize: alone.length + 2 * twiceChosen.length + sharedWithKept.length + built.length,
      // Both holders of twiceChosen are chosen: freed once. sharedWithKept stays in 'stays'.
      freedBytes: alone.length + twiceChosen.length + built.length,
    });

    const document = buildInfo({
      name: 'late',
      number: '1',
      modules: [{ id: 'late:app:1.0', artifacts: [{ name: 'built.bin', content: '' }] }],
    });
    const artifact = document.modules[0].artifacts[0] as Record<string, string>;
    for (const kind of ['sha1', 'sha256', 'md5'])
      artifact[kind] = createHash(kind).update(built).digest('hex');
    await storeBuild(document);

    expect(await preview()).toMatchObject({
      count: 4,
      totalSize: alone.length + 2 * twiceChosen.length + sharedWithKept.length,
      freedBytes: alone.length + twiceChosen.length,
    });
  });

  it('keeps what a build lists by SHA-1 alone, whether its content was stored before the build or after', async () => {
    const { alone, twiceChosen, sharedWithKept } = content;
    const deployedLater = randomBytes(1_500);
    const bySha1Alone = (name: string, data: Buffer) => ({
      type: 'bin',
      id: name,
      sha1: createHash('sha1').update(data).digest('hex'),
      md5: createHash('md5').update(data).digest('hex'),
    });
    const document = buildInfo({
      name: 'by-sha1',
      number: '1',
      modules: [{ id: 'by-sha1:app:1.0' }],
    });
    (document.modules[0] as Record<string, unknown>).dependencies = [
      bySha1Alone('alone.bin', alone),
      bySha1Alone('later.bin', deployedLater),
    ];
    await storeBuild(document);
    const withoutAlone = {
      count: 3,
      totalSize: 2 * twiceChosen.length + sharedWithKept.length,
      freedBytes: twiceChosen.length,
    };
    expect(await preview()).toMatchObject(withoutAlone);

    await deployFile(depot, 'chosen', 'a/later.bin', deployedLater);
    expect(await preview()).toMatchObject(withoutAlone);

    // Both tests of a file's content against the kept contents count the same: the hashed
    // `not in` the preview uses up to a bound of build files, and `not exists` above it.
    const where = policyCriterion(
      { key: 'no-builds', policyBase: 'FORM', repositories: ['chosen'] } as RetentionPolicy,
      { maxBytes: 10_000, maxCriteria: 100 },
    );
    for (const contentsHashed of [true, false]) {
      const lists = { files: true, contents: true, contentsHashed };
      const { rows } = await totalsStatement(where, undefined, lists).execute(depot.db);
      expect(
        rows.map(({ count, total_size, freed }) => [count, total_size, freed].map(Number)),
      ).toEqual([[withoutAlone.count, withoutAlone.totalSize, withoutAlone.freedBytes]]);
    }
  });
});
