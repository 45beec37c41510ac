import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabsAndActions } from '../server/modules/tree-browser/node-actions.ts';
import { TREE_MESSAGES } from '../server/modules/tree-browser/messages.ts';
import {
  adminAuth,
  basic,
  consoleSession,
  createRepository as createRepositoryIn,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

let depot: TestDepot;
const readerAuth = () => ({ authorization: basic('reader', 'reader-pass-1') });

const createRepository = (key: string, rclass: string, extra = {}) =>
  createRepositoryIn(depot, key, rclass, extra);

const deploy = (repoKey: string, path: string) => deployFile(depot, repoKey, path);

/** A file in a remote repository's cache, as a fetch from its upstream leaves it. */
async function cacheRemoteFile(repoKey: string, path: string) {
  const repo = await depot.services.artifacts.repository(repoKey);
  const staged = await depot.services.filestore.stage(Readable.from([Buffer.from(path)]), {});
  await depot.services.artifacts.recordCachedFile(repo, path, staged, 'anonymous');
}

function tabsAndActions(body: object, headers: object = adminAuth()) {
  return depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/treebrowser/tabsAndActions',
    headers: { ...headers },
    payload: body,
  });
}

/** The action names offered on a node, asked as the console asks. */
async function actionsOf(
  type: string,
  repoKey: string,
  path: string,
  headers: object = adminAuth(),
): Promise<string[]> {
  const response = await tabsAndActions({ type, repoKey, path }, headers);
  expect(response.statusCode, response.body).toBe(200);
  const answer: TabsAndActions = response.json();
  expect(answer.tabs[0]).toEqual({ name: 'General' });
  return answer.actions.map((action) => action.name);
}

/** The tab names listed for a node, asked as the console asks (by a reader: admins see more). */
async function tabsOf(type: string, repoKey: string, path: string, headers: object = readerAuth()) {
  const response = await tabsAndActions({ type, repoKey, path }, headers);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as TabsAndActions).tabs.map((tab) => tab.name);
}

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository('libs-local', 'local');
  await createRepository('cache-remote', 'remote', { url: 'http://127.0.0.1:9/' });
  await createRepository('all-virtual', 'virtual', { repositories: ['libs-local'] });
  await depot.services.users.create({
    name: 'reader',
    email: 'reader@example.com',
    password: 'reader-pass-1',
  } as never);
  await deploy('libs-local', 'org/acme/app/1.0/app-1.0.jar');
  await deploy('libs-local', 'gone/old.txt');
  const deleted = await depot.app.inject({
    method: 'DELETE',
    url: '/artifactory/libs-local/gone/old.txt',
    headers: adminAuth(),
  });
  expect(deleted.statusCode).toBe(204);
  await cacheRemoteFile('cache-remote', 'pkg/tool-1.0.tgz');
});
afterAll(() => depot.close());

describe('an admin', () => {
  it('may download, copy, move and delete files and folders of a local repository', async () => {
    expect(await actionsOf('file', 'libs-local', 'org/acme/app/1.0/app-1.0.jar')).toEqual([
      'download',
      'watch',
      'copy',
      'move',
      'delete',
    ]);
    expect(await actionsOf('folder', 'libs-local', 'org/acme')).toEqual([
      'downloadfolder',
      'watch',
      'copy',
      'move',
      'delete',
    ]);
    expect(await actionsOf('repository', 'libs-local', '')).toEqual(['downloadfolder', 'watch']);
  });

  it("may download and delete a remote repository's cached files, and zap its cache", async () => {
    expect(await actionsOf('file', 'cache-remote', 'pkg/tool-1.0.tgz')).toEqual([
      'download',
      'watch',
      'delete',
    ]);
    expect(await actionsOf('repository', 'cache-remote', '')).toEqual([
      'downloadfolder',
      'watch',
      'zap',
    ]);
    expect(await actionsOf('folder', 'cache-remote', 'pkg')).toEqual([
      'downloadfolder',
      'watch',
      'zap',
      'delete',
    ]);
  });

  it('may only download through a virtual repository, which stores nothing itself, and zap its members', async () => {
    expect(await actionsOf('file', 'all-virtual', 'org/acme/app/1.0/app-1.0.jar')).toEqual([
      'download',
      'watch',
    ]);
    expect(await actionsOf('folder', 'all-virtual', 'org')).toEqual([
      'downloadfolder',
      'watch',
      'zapVirtual',
    ]);
  });

  it("may restore and delete the trash can's items and empty it", async () => {
    expect(await actionsOf('repository', 'auto-trashcan', '')).toEqual([
      'downloadfolder',
      'emptytrash',
    ]);
    expect(await actionsOf('folder', 'auto-trashcan', 'libs-local/gone')).toEqual([
      'downloadfolder',
      'restore',
      'delete',
    ]);
    // A text file in the trash can may be read before it is restored, as it may be downloaded.
    expect(await actionsOf('file', 'auto-trashcan', 'libs-local/gone/old.txt')).toEqual([
      'download',
      'view',
      'restore',
      'delete',
    ]);
  });

  it('says on each delete whether it is permanent: in the trash can, a cache, or with the trash can off', async () => {
    const deleteOf = async (type: string, repoKey: string, path: string) => {
      const response = await tabsAndActions({ type, repoKey, path });
      const answer: TabsAndActions = response.json();
      return answer.actions.find((action) => action.name === 'delete');
    };
    const file = 'org/acme/app/1.0/app-1.0.jar';
    expect(await deleteOf('file', 'libs-local', file)).toEqual({
      name: 'delete',
      permanent: false,
    });
    expect(await deleteOf('file', 'auto-trashcan', 'libs-local/gone/old.txt')).toEqual({
      name: 'delete',
      permanent: true,
    });
    expect(await deleteOf('file', 'cache-remote', 'pkg/tool-1.0.tgz')).toEqual({
      name: 'delete',
      permanent: true,
    });
    await depot.services.trash.updateConfig({ enabled: false });
    try {
      expect(await deleteOf('file', 'libs-local', file)).toEqual({
        name: 'delete',
        permanent: true,
      });
    } finally {
      await depot.services.trash.updateConfig({ enabled: true });
    }
  });

  it('gets the same list through a console session', async () => {
    const session = await consoleSession(depot, 'admin', 'admin-secret-1');
    expect(await actionsOf('folder', 'libs-local', 'org', session.headers)).toEqual([
      'downloadfolder',
      'watch',
      'copy',
      'move',
      'delete',
    ]);
  });

  it('is answered for the node the server finds, whatever type the console sent', async () => {
    const response = await tabsAndActions({
      type: 'folder',
      repoKey: 'LIBS-LOCAL',
      path: '/org/acme/app/1.0/app-1.0.jar',
      repoType: 'local',
      repoPkgType: 'generic',
      repoPath: 'libs-local/org/acme/app/1.0/app-1.0.jar',
      text: 'app-1.0.jar',
      cached: false,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().actions[0]).toEqual({ name: 'download' });
  });
});

describe('a reader', () => {
  it('may only download and watch', async () => {
    const reader = readerAuth();
    expect(await actionsOf('file', 'libs-local', 'org/acme/app/1.0/app-1.0.jar', reader)).toEqual([
      'download',
      'watch',
    ]);
    expect(await actionsOf('folder', 'libs-local', 'org', reader)).toEqual([
      'downloadfolder',
      'watch',
    ]);
    // The trash can holds what was deleted from every repository: only a permission target
    // naming it lets a non-admin in (docs/access-control.md).
    for (const [type, path] of [
      ['repository', ''],
      ['file', 'libs-local/gone/old.txt'],
    ]) {
      const refused = await tabsAndActions({ type, repoKey: 'auto-trashcan', path }, reader);
      expect(refused.statusCode, refused.body).toBe(403);
    }
  });

  it('is refused the writing actions the list leaves out', async () => {
    const body = { repoKey: 'libs-local', path: 'org', targetRepoKey: 'libs-local' };
    for (const [action, payload] of [
      ['copy', { ...body, targetPath: 'copied' }],
      ['delete', { repoKey: 'libs-local', path: 'org' }],
      ['restore', { repoKey: 'auto-trashcan', path: 'libs-local/gone/old.txt' }],
      ['emptytrash', undefined],
    ] as const) {
      const response = await depot.app.inject({
        method: 'POST',
        url: `/ui/api/v1/ui/artifactactions/${action}`,
        headers: readerAuth(),
        payload,
      });
      expect(response.statusCode, action).toBe(403);
    }
  });
});

describe('tabs', () => {
  it("lists the tabs that apply, in the console's order", async () => {
    const jar = 'org/acme/app/1.0/app-1.0.jar';
    expect(await tabsOf('file', 'libs-local', jar)).toEqual([
      'General',
      'Properties',
      'Watch',
      'ViewSource',
    ]);
    expect(await tabsOf('folder', 'libs-local', 'org/acme')).toEqual([
      'General',
      'Properties',
      'Watch',
    ]);
    expect(await tabsOf('repository', 'libs-local', '')).toEqual([
      'General',
      'Properties',
      'Watch',
    ]);
    expect(await tabsOf('repository', 'all-virtual', '')).toEqual(['General', 'Watch']);
    expect(await tabsOf('file', 'cache-remote', 'pkg/tool-1.0.tgz')).toEqual([
      'General',
      'Properties',
      'Watch',
      'ViewSource',
    ]);
    expect(await tabsOf('file', 'all-virtual', jar)).toEqual([
      'General',
      'Properties',
      'Watch',
      'ViewSource',
    ]);
    expect(await tabsOf('folder', 'all-virtual', 'org')).toEqual(['General', 'Watch']);
    expect(await tabsOf('repository', 'auto-trashcan', '', adminAuth())).toEqual([
      'General',
      'EffectivePermission',
    ]);
    expect(await tabsOf('file', 'auto-trashcan', 'libs-local/gone/old.txt', adminAuth())).toEqual([
      'General',
      'EffectivePermission',
      'Properties',
    ]);
  });
});

describe('bad requests', () => {
  it('answers a missing node and an unknown repository with 404', async () => {
    const missing = await tabsAndActions({ type: 'file', repoKey: 'libs-local', path: 'org/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].message).toBe(TREE_MESSAGES.notFound('libs-local', 'org/nope'));
    const unknown = await tabsAndActions({ type: 'repository', repoKey: 'nope-local', path: '' });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses bodies it cannot read with 400', async () => {
    for (const body of [
      { type: 'junction', repoKey: 'libs-local', path: '' },
      { type: 'file', path: 'org' },
      { type: 'file', repoKey: 'libs-local' },
      { type: 'file', repoKey: 'libs-local', path: '../../etc/passwd' },
      { type: 'file', repoKey: 'libs-local', path: 'org', unknown: true },
    ]) {
      const response = await tabsAndActions(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('is for signed-in users while anonymous access is off', async () => {
    const response = await tabsAndActions(
      { type: 'repository', repoKey: 'libs-local', path: '' },
      {},
    );
    expect(response.statusCode).toBe(401);
  });
});
