import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { adminAuth, basic, startTestDepot } from './helpers/test-app.ts';

/**
 * The storage summary over real HTTP: files deployed to two local repositories, one content
 * deployed to both and fetched once more through a remote repository's cache, one file
 * deleted into the trash can. Every figure is known in advance.
 */
const SHARED = 'shared content '.repeat(200); // 3000 bytes, stored once, referred to thrice
const BIG = 'a'.repeat(1000);
const TOOL = 'b'.repeat(500);
const SUMMARY = '/ui/api/v1/ui/storagesummary';

let depot: HttpDepot;
let upstream: Server;

function startUpstream(): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/files/shared.txt') response.writeHead(200).end(SHARED);
    else response.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function expectStatus(response: Promise<Response>, status: number) {
  const answer = await response;
  expect(answer.status, `${answer.url}: ${await answer.clone().text()}`).toBe(status);
  return answer;
}

const deploy = (path: string, body: string) =>
  expectStatus(depot.request(`/artifactory/${path}`, { method: 'PUT', body }), 201);

const createRepo = (key: string, body: object) =>
  expectStatus(
    depot.request(`/artifactory/api/repositories/${key}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    200,
  );

beforeAll(async () => {
  [depot, upstream] = await Promise.all([startHttpDepot(), startUpstream()]);
  const upstreamBase = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
  await createRepo('libs-a', { rclass: 'local', packageType: 'generic' });
  await createRepo('libs-b', { rclass: 'local', packageType: 'maven' });
  await createRepo('upstream', {
    rclass: 'remote',
    packageType: 'generic',
    url: `${upstreamBase}/files/`,
  });
  await createRepo('everything', {
    rclass: 'virtual',
    packageType: 'generic',
    repositories: ['libs-a', 'libs-b'],
  });
  await deploy('libs-a/docs/shared.txt', SHARED);
  await deploy('libs-a/big.bin', BIG);
  await deploy('libs-b/copy/shared.txt', SHARED);
  await deploy('libs-b/org/acme/tool-1.0.jar', TOOL);
  await expectStatus(depot.request('/artifactory/upstream/shared.txt'), 200);
  await expectStatus(
    depot.request('/artifactory/libs-b/org/acme/tool-1.0.jar', { method: 'DELETE' }),
    204,
  );
  await depot.services.users.create({
    name: 'plain',
    email: 'plain@example.com',
    password: 'plain-pass-1',
    groups: [],
  });
});
afterAll(async () => {
  await Promise.all([depot?.close(), new Promise((resolve) => upstream?.close(resolve))]);
});

const summary = async () => (await expectStatus(depot.request(SUMMARY), 200)).json();

describe('storage summary', () => {
  it('counts each content once as a binary and every file as an artifact', async () => {
    expect((await summary()).binariesSummary).toEqual({
      binariesCount: 3,
      binariesSize: 3000 + 1000 + 500,
      artifactsCount: 5,
      // libs-a 3000 + 1000, libs-b 3000, the remote's cache 3000, the trash 500
      artifactsSize: 10500,
      // Folders: docs; copy, org, org/acme; libs-b, libs-b/org, libs-b/org/acme in the trash.
      itemsCount: 5 + 7,
      // What is on disk against what the artifacts add up to: 4500 / 10500.
      optimization: 42.86,
    });
  });

  it('lists every repository by key, the remote one as its cache, the trash can, and a total', async () => {
    expect((await summary()).repositoriesSummaryList).toEqual([
      {
        repoKey: 'auto-trashcan',
        repoType: 'TRASH',
        packageType: 'Generic',
        foldersCount: 3,
        filesCount: 1,
        itemsCount: 4,
        usedSpace: 500,
        percentage: 4.76,
      },
      {
        repoKey: 'everything',
        repoType: 'VIRTUAL',
        packageType: 'Generic',
        foldersCount: 0,
        filesCount: 0,
        itemsCount: 0,
        usedSpace: 0,
        percentage: 0,
      },
      {
        repoKey: 'libs-a',
        repoType: 'LOCAL',
        packageType: 'Generic',
        foldersCount: 1,
        filesCount: 2,
        itemsCount: 3,
        usedSpace: 4000,
        percentage: 38.1,
      },
      {
        repoKey: 'libs-b',
        repoType: 'LOCAL',
        packageType: 'Maven',
        foldersCount: 3,
        filesCount: 1,
        itemsCount: 4,
        usedSpace: 3000,
        percentage: 28.57,
      },
      {
        repoKey: 'upstream-cache',
        repoType: 'CACHE',
        packageType: 'Generic',
        foldersCount: 0,
        filesCount: 1,
        itemsCount: 1,
        usedSpace: 3000,
        percentage: 28.57,
      },
      {
        repoKey: 'TOTAL',
        repoType: 'NA',
        packageType: 'NA',
        foldersCount: 7,
        filesCount: 5,
        itemsCount: 12,
        usedSpace: 10500,
        percentage: 100,
      },
    ]);
  });

  it("describes the filestore's directory and disk", async () => {
    const { fileStoreSummary } = await summary();
    expect(fileStoreSummary).toMatchObject({
      storageType: 'filesystem',
      storageDirectory: join(depot.config.home, 'filestore'),
    });
    expect(fileStoreSummary.totalSpace).toBeGreaterThan(0);
    expect(fileStoreSummary.freeSpace).toBeGreaterThan(0);
    expect(fileStoreSummary.usedSpace + fileStoreSummary.freeSpace).toBe(
      fileStoreSummary.totalSpace,
    );
  });

  it('answers /artifactory/api/storageinfo from the same figures, as Artifactory writes them', async () => {
    const [console, rest] = await Promise.all([
      summary(),
      expectStatus(depot.request('/artifactory/api/storageinfo'), 200).then((r) => r.json()),
    ]);
    expect(rest.binariesSummary).toEqual({
      binariesCount: '3',
      binariesSize: '4.39 KB',
      artifactsSize: '10.25 KB',
      optimization: '42.86%',
      itemsCount: '12',
      artifactsCount: '5',
    });
    expect(rest.repositoriesSummaryList.map((r: { repoKey: string }) => r.repoKey)).toEqual(
      console.repositoriesSummaryList.map((r: { repoKey: string }) => r.repoKey),
    );
    expect(rest.repositoriesSummaryList[4]).toEqual({
      repoKey: 'upstream-cache',
      repoType: 'CACHE',
      packageType: 'Generic',
      foldersCount: 0,
      filesCount: 1,
      itemsCount: 1,
      usedSpace: '2.93 KB',
      usedSpaceInBytes: 3000,
      percentage: '28.57%',
    });
    expect(rest.fileStoreSummary).toMatchObject({
      storageType: 'filesystem',
      storageDirectory: join(depot.config.home, 'filestore'),
      totalSpace: expect.stringMatching(/^\d+(\.\d\d)? (bytes|KB|MB|GB|TB|PB)$/),
      usedSpace: expect.stringMatching(/ \(\d+(\.\d+)?%\)$/),
      freeSpace: expect.stringMatching(/ \(\d+(\.\d+)?%\)$/),
    });
  });

  it('is for admins only', async () => {
    const anonymous = await depot.request(SUMMARY, { headers: { authorization: '' } });
    expect(anonymous.status).toBe(401);
    const plain = { authorization: basic('plain', 'plain-pass-1') };
    expect((await depot.request(SUMMARY, { headers: plain })).status).toBe(403);
    expect((await depot.request('/artifactory/api/storageinfo', { headers: plain })).status).toBe(
      403,
    );
  });
});

describe('storage summary of an empty instance', () => {
  it('answers zeros and a zero optimization, not a division by zero', async () => {
    const empty = await startTestDepot();
    try {
      const response = await empty.app.inject({ url: SUMMARY, headers: adminAuth() });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.binariesSummary).toEqual({
        binariesCount: 0,
        binariesSize: 0,
        artifactsCount: 0,
        artifactsSize: 0,
        itemsCount: 0,
        optimization: 0,
      });
      expect(body.repositoriesSummaryList).toEqual([
        {
          repoKey: 'TOTAL',
          repoType: 'NA',
          packageType: 'NA',
          foldersCount: 0,
          filesCount: 0,
          itemsCount: 0,
          usedSpace: 0,
          percentage: 0,
        },
      ]);
    } finally {
      await empty.close();
    }
  });
});
