import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TabsAndActions } from '../server/modules/tree-browser/node-actions.ts';
import { TREE_MESSAGES } from '../server/modules/tree-browser/messages.ts';
import { WATCH_MESSAGES } from '../server/modules/watches/messages.ts';
import {
  adminAuth,
  basic,
  consoleSession,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

let depot: TestDepot;
const readerAuth = () => ({ authorization: basic('reader', 'reader-pass-1') });
const otherAuth = () => ({ authorization: basic('other', 'other-pass-1') });
const JAR = 'org/acme/app/1.0/app-1.0.jar';

interface WatchStatus {
  watching: boolean;
  watchers: { name: string; path: string; watchingSince: string }[];
}

const deploy = (repoKey: string, path: string) => deployFile(depot, repoKey, path);

function status(repoKey: string, path: string, headers: object = readerAuth()) {
  return depot.app.inject({
    url: `/ui/api/v1/ui/artifactwatches?${new URLSearchParams({ repoKey, path })}`,
    headers: { ...headers },
  });
}

async function watchStatus(repoKey: string, path: string, headers: object = readerAuth()) {
  const response = await status(repoKey, path, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as WatchStatus;
}

function post(url: string, body: object, headers: object) {
  return depot.app.inject({
    method: 'POST',
    url: `/ui/api/v1/ui/${url}`,
    headers: { ...headers },
    payload: body,
  });
}

const watch = (repoKey: string, path: string, headers: object = readerAuth()) =>
  post('artifactwatches', { repoKey, path }, headers);
const unwatch = (body: object, headers: object = readerAuth()) =>
  post('artifactwatches/remove', body, headers);

async function actionsOf(type: string, repoKey: string, path: string, headers: object) {
  const response = await post('treebrowser/tabsAndActions', { type, repoKey, path }, headers);
  expect(response.statusCode, response.body).toBe(200);
  const answer: TabsAndActions = response.json();
  return {
    tabs: answer.tabs.map((tab) => tab.name),
    actions: answer.actions.map((action) => action.name),
  };
}

beforeAll(async () => {
  depot = await startTestDepot();
  for (const key of ['libs-local', 'gone-local']) {
    await depot.services.repositories.create({
      key,
      rclass: 'local',
      packageType: 'generic',
    } as never);
  }
  for (const name of ['reader', 'other']) {
    await depot.services.users.create({
      name,
      email: `${name}@example.com`,
      password: `${name}-pass-1`,
    } as never);
  }
  await deploy('libs-local', JAR);
  await deploy('libs-local', 'org/acme/readme.txt');
  await deploy('gone-local', 'a/b.txt');
  // Something in the Trash Can, so that it exists.
  await deploy('libs-local', 'trashed.txt');
  const deleted = await depot.app.inject({
    method: 'DELETE',
    url: '/artifactory/libs-local/trashed.txt',
    headers: adminAuth(),
  });
  expect(deleted.statusCode).toBe(204);
});
afterAll(() => depot.close());

describe('watching', () => {
  it('watches a file, once however often asked', async () => {
    const first = await watch('libs-local', JAR);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ info: `You are now watching 'libs-local/${JAR}'` });
    const since = (await watchStatus('libs-local', JAR)).watchers[0]!.watchingSince;
    expect((await watch('libs-local', JAR)).statusCode).toBe(200);
    expect(await watchStatus('libs-local', JAR)).toEqual({
      watching: true,
      watchers: [{ name: 'reader', path: `libs-local/${JAR}`, watchingSince: since }],
    });
    expect(Date.parse(since)).not.toBeNaN();
  });

  it('shows the watchers of the node and of every folder and repository above it', async () => {
    expect((await watch('libs-local', 'org', otherAuth())).statusCode).toBe(200);
    expect((await watch('libs-local', '', adminAuth())).statusCode).toBe(200);
    expect((await watch('libs-local', 'org/acme/readme.txt', otherAuth())).statusCode).toBe(200);
    const answer = await watchStatus('libs-local', JAR, adminAuth());
    expect(answer.watching).toBe(false);
    expect(answer.watchers.map(({ name, path }) => ({ name, path }))).toEqual([
      { name: 'admin', path: 'libs-local/' },
      { name: 'other', path: 'libs-local/org' },
      { name: 'reader', path: `libs-local/${JAR}` },
    ]);
    const repository = await watchStatus('libs-local', '', adminAuth());
    expect(repository.watching).toBe(true);
    expect(repository.watchers.map((w) => w.name)).toEqual(['admin']);
  });

  it('answers a missing node and an unknown repository with 404, bad input with 400', async () => {
    const missing = await watch('libs-local', 'org/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].message).toBe(TREE_MESSAGES.notFound('libs-local', 'org/nope'));
    expect((await status('libs-local', 'org/nope')).statusCode).toBe(404);
    expect((await watch('nope-local', '')).statusCode).toBe(404);
    expect((await watch('libs-local', '../x')).statusCode).toBe(400);
    expect(
      (await post('artifactwatches', { repoKey: 'libs-local' }, readerAuth())).statusCode,
    ).toBe(400);
  });

  it('refuses the Trash Can', async () => {
    // A reader may not even read it (docs/access-control.md); an admin may, but not watch it.
    expect((await watch('auto-trashcan', '')).statusCode).toBe(403);
    const response = await watch('auto-trashcan', '', adminAuth());
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toBe(WATCH_MESSAGES.trash);
  });

  it('works through a console session', async () => {
    const session = await consoleSession(depot, 'other', 'other-pass-1');
    const response = await watch('libs-local', 'org/acme', session.headers);
    expect(response.statusCode, response.body).toBe(200);
    expect((await watchStatus('libs-local', 'org/acme', otherAuth())).watching).toBe(true);
  });
});

describe('anonymous callers', () => {
  it('need anonymous access to read, and may never watch', async () => {
    expect((await status('libs-local', JAR, {})).statusCode).toBe(401);
    expect((await watch('libs-local', JAR, {})).statusCode).toBe(401);
    await depot.services.securityConfig.update({ anonAccessEnabled: true });
    try {
      const answer = await watchStatus('libs-local', JAR, {});
      expect(answer.watching).toBe(false);
      expect(answer.watchers.map((w) => w.path)).toEqual([
        'libs-local/',
        'libs-local/org',
        'libs-local/org/acme',
        `libs-local/${JAR}`,
      ]);
      const refused = await watch('libs-local', JAR, {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json().errors[0].message).toBe('Anonymous users cannot watch artifacts');
      expect((await unwatch({ repoKey: 'libs-local', path: JAR }, {})).statusCode).toBe(403);
      const { actions } = await actionsOf('file', 'libs-local', JAR, {});
      expect(actions).toEqual(['download']);
    } finally {
      await depot.services.securityConfig.update({ anonAccessEnabled: false });
    }
  });
});

describe('the Watch tab and the watch actions', () => {
  it('lists the Watch tab and watch or unwatch, whichever applies', async () => {
    expect(await actionsOf('file', 'libs-local', JAR, readerAuth())).toEqual({
      tabs: ['General', 'Properties', 'Watch', 'ViewSource'],
      actions: ['download', 'unwatch'],
    });
    expect((await actionsOf('folder', 'libs-local', 'org', readerAuth())).actions).toEqual([
      'downloadfolder',
      'watch',
    ]);
    const repository = await actionsOf('repository', 'libs-local', '', adminAuth());
    expect(repository.tabs).toContain('Watch');
    expect(repository.actions.slice(0, 2)).toEqual(['downloadfolder', 'unwatch']);
    expect((await actionsOf('repository', 'auto-trashcan', '', adminAuth())).actions).toEqual([
      'downloadfolder',
      'emptytrash',
    ]);
  });
});

describe('stopping a watch', () => {
  it("removes the caller's own watch, and is no error when there is none", async () => {
    const response = await unwatch({ repoKey: 'libs-local', path: JAR });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ info: `Stopped watching 'libs-local/${JAR}'` });
    expect((await watchStatus('libs-local', JAR)).watching).toBe(false);
    expect((await unwatch({ repoKey: 'libs-local', path: JAR })).statusCode).toBe(200);
    expect((await actionsOf('file', 'libs-local', JAR, readerAuth())).actions).toEqual([
      'download',
      'watch',
    ]);
  });

  it("lets only admins remove another user's watch", async () => {
    const refused = await unwatch({ repoKey: 'libs-local', path: 'org', name: 'other' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].message).toBe(WATCH_MESSAGES.othersWatch);
    expect((await watchStatus('libs-local', 'org')).watchers.map((w) => w.name)).toEqual([
      'admin',
      'other',
    ]);
    const removed = await unwatch(
      { repoKey: 'libs-local', path: 'org', name: 'other' },
      adminAuth(),
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().info).toBe("Stopped watching 'libs-local/org'");
    expect((await watchStatus('libs-local', 'org')).watchers.map((w) => w.name)).toEqual(['admin']);
  });
});

describe('deleting what is watched', () => {
  it("keeps the watch of a deleted node, and drops a deleted repository's", async () => {
    expect((await watch('gone-local', 'a/b.txt')).statusCode).toBe(200);
    const deleted = await depot.app.inject({
      method: 'DELETE',
      url: '/artifactory/gone-local/a/b.txt',
      headers: adminAuth(),
    });
    expect(deleted.statusCode).toBe(204);
    await deploy('gone-local', 'a/b.txt');
    expect((await watchStatus('gone-local', 'a/b.txt')).watching).toBe(true);
    await depot.services.repositories.delete('gone-local', 'admin');
    const left = await depot.db
      .selectFrom('watches')
      .select('username')
      .where('path', '=', 'a/b.txt')
      .execute();
    expect(left).toEqual([]);
  });
});
