import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';

let depot: HttpDepot;
const sha = (kind: string, data: string) => createHash(kind).update(data).digest('hex');

beforeAll(async () => {
  depot = await startHttpDepot();
  await depot.services.repositories.create({
    key: 'libs',
    rclass: 'local',
    packageType: 'generic',
  });
  for (const [path, content] of [
    ['org/acme/a.txt', 'aaa'],
    ['org/acme/sub/b.txt', 'bbbb'],
    ['org/c.txt', 'aaa'],
  ]) {
    const response = await depot.request(`/artifactory/libs/${path}`, {
      method: 'PUT',
      body: content,
    });
    expect(response.status).toBe(201);
  }
});
afterAll(() => depot?.close());

const storage = async (path: string, init?: RequestInit) =>
  depot.request(`/artifactory/api/storage/${path}`, init);
const json = async (path: string) => (await storage(path)).json();

describe('storage API', () => {
  it('answers file info with checksums', async () => {
    const info = await json('libs/org/acme/a.txt');
    expect(info).toMatchObject({
      repo: 'libs',
      path: '/org/acme/a.txt',
      createdBy: 'admin',
      modifiedBy: 'admin',
      downloadUri: `${depot.base}/artifactory/libs/org/acme/a.txt`,
      mimeType: 'text/plain',
      size: '3',
      checksums: { sha1: sha('sha1', 'aaa'), md5: sha('md5', 'aaa'), sha256: sha('sha256', 'aaa') },
      uri: `${depot.base}/artifactory/api/storage/libs/org/acme/a.txt`,
    });
  });

  it('answers folder info with its children', async () => {
    const info = await json('libs/org/acme');
    expect(info.children).toEqual([
      { uri: '/a.txt', folder: false },
      { uri: '/sub', folder: true },
    ]);
    const root = await json('libs');
    expect(root.children).toEqual([{ uri: '/org', folder: true }]);
  });

  it('lists files, deeply when asked, with folders when asked', async () => {
    const shallow = await json('libs/org?list');
    expect(shallow.files.map((f: { uri: string }) => f.uri)).toEqual(['/c.txt']);
    const deep = await json('libs/org?list&deep=1');
    expect(deep.files).toEqual([
      expect.objectContaining({
        uri: '/acme/a.txt',
        size: 3,
        folder: false,
        sha1: sha('sha1', 'aaa'),
        sha2: sha('sha256', 'aaa'),
      }),
      expect.objectContaining({ uri: '/acme/sub/b.txt', size: 4, folder: false }),
      expect.objectContaining({ uri: '/c.txt', size: 3, folder: false }),
    ]);
    const withFolders = await json('libs/org?list&deep=1&listFolders=1');
    expect(withFolders.files.map((f: { uri: string }) => f.uri)).toEqual([
      '/acme',
      '/acme/a.txt',
      '/acme/sub',
      '/acme/sub/b.txt',
      '/c.txt',
    ]);
  });

  it('sets, reads and deletes properties, recursively on folders', async () => {
    expect(
      (await storage('libs/org/acme?properties=team=core;tier=gold,silver', { method: 'PUT' }))
        .status,
    ).toBe(204);
    expect(await json('libs/org/acme/sub/b.txt?properties')).toEqual({
      properties: { team: ['core'], tier: ['gold', 'silver'] },
      uri: `${depot.base}/artifactory/api/storage/libs/org/acme/sub/b.txt`,
    });
    expect(
      (await storage('libs/org/acme/sub/b.txt?properties=tier', { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await json('libs/org/acme/sub/b.txt?properties')).properties).toEqual({
      team: ['core'],
    });
    expect((await json('libs/org/acme/a.txt?properties')).properties).toEqual({
      team: ['core'],
      tier: ['gold', 'silver'],
    });
  });

  it("keeps a repository's own properties on its root, and sets them on its items unless recursive=0", async () => {
    await depot.services.repositories.create({
      key: 'owned',
      rclass: 'local',
      packageType: 'generic',
    });
    expect(
      (await depot.request('/artifactory/owned/lib/x.txt', { method: 'PUT', body: 'aaa' })).status,
    ).toBe(201);
    const put = (query: string) => storage(`owned?properties=${query}`, { method: 'PUT' });

    expect((await put('owner=team-a&recursive=0')).status).toBe(204);
    expect(await json('owned?properties')).toEqual({
      properties: { owner: ['team-a'] },
      uri: `${depot.base}/artifactory/api/storage/owned`,
    });
    expect((await json('owned/lib/x.txt?properties')).properties).toEqual({});

    // A folder's change reaches everything below it by default, and the root is a folder.
    expect((await put('tier=gold,silver')).status).toBe(204);
    expect((await json('owned?properties')).properties).toEqual({
      owner: ['team-a'],
      tier: ['gold', 'silver'],
    });
    expect((await json('owned/lib/x.txt?properties')).properties).toEqual({
      tier: ['gold', 'silver'],
    });

    expect((await storage('owned?properties=owner,tier', { method: 'DELETE' })).status).toBe(204);
    expect((await json('owned?properties')).properties).toEqual({});
    expect((await json('owned/lib/x.txt?properties')).properties).toEqual({});

    // A caller who may not annotate the repository changes nothing.
    await depot.services.users.create({
      name: 'nobody',
      email: 'n@example.com',
      password: 'nobody-pass-1',
    });
    expect((await put('owner=team-a')).status).toBe(204);
    const refused = await fetch(
      `${depot.base}/artifactory/api/storage/owned?properties=owner=them`,
      {
        method: 'PUT',
        headers: {
          authorization: `Basic ${Buffer.from('nobody:nobody-pass-1').toString('base64')}`,
        },
      },
    );
    expect(refused.status).toBe(403);
    expect((await json('owned?properties')).properties).toEqual({ owner: ['team-a'] });

    // A virtual repository stores nothing of its own.
    await depot.services.repositories.create({
      key: 'owned-virtual',
      rclass: 'virtual',
      packageType: 'generic',
      repositories: ['owned'],
    });
    const virtual = await storage('owned-virtual?properties=owner=team-a', { method: 'PUT' });
    expect(virtual.status).toBe(400);
    await depot.services.repositories.delete('owned-virtual', 'admin');

    // They go with the repository.
    await depot.services.repositories.delete('owned', 'admin');
    await depot.services.repositories.create({
      key: 'owned',
      rclass: 'local',
      packageType: 'generic',
    });
    expect((await json('owned?properties')).properties).toEqual({});
    await depot.services.repositories.delete('owned', 'admin');
  });

  it('answers 404 for a missing item and 400 for a property call without properties', async () => {
    expect((await storage('libs/nothing/here')).status).toBe(404);
    expect((await storage('libs/org/c.txt', { method: 'PUT' })).status).toBe(400);
  });

  it("sums up storage: binaries once, artifacts each, in Artifactory's display strings", async () => {
    const info = await (await depot.request('/artifactory/api/storageinfo')).json();
    expect(info.binariesSummary).toEqual({
      binariesCount: '2',
      binariesSize: '7 bytes',
      artifactsSize: '10 bytes',
      optimization: '70%',
      itemsCount: '6',
      artifactsCount: '3',
    });
    expect(info.repositoriesSummaryList).toEqual([
      {
        repoKey: 'libs',
        repoType: 'LOCAL',
        packageType: 'Generic',
        filesCount: 3,
        foldersCount: 3,
        itemsCount: 6,
        usedSpace: '10 bytes',
        usedSpaceInBytes: 10,
        percentage: '100%',
      },
      {
        repoKey: 'TOTAL',
        repoType: 'NA',
        filesCount: 3,
        foldersCount: 3,
        itemsCount: 6,
        usedSpace: '10 bytes',
        usedSpaceInBytes: 10,
      },
    ]);
  });
});
