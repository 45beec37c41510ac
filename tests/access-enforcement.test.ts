import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzip } from './helpers/archives.ts';
import {
  adminAuth,
  basic,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Permission targets enforced on every way to reach an artifact: downloads, listings, the
 * storage API, deploy and overwrite, delete, properties, copy, virtual repositories, the
 * tree's roots, children pages and actions, and folder downloads. The default target
 * (read everything) is removed first, so each grant below is the only one there is.
 */
let depot: TestDepot;
const PERMISSIONS = '/artifactory/api/v2/security/permissions';
const as = (user: string) => ({ authorization: basic(user, `${user}-pass-1`) });
const DEV = as('dev');
const WRITER = as('writer');
const OUTSIDER = as('outsider');

async function call(method: string, url: string, headers: object, payload?: unknown) {
  return depot.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers },
    payload: payload as string,
  });
}
async function grant(name: string, repo: object) {
  const response = await call('PUT', `${PERMISSIONS}/${name}`, adminAuth(), { repo });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'team-local', 'local');
  await createRepository(depot, 'libs-local', 'local');
  await createRepository(depot, 'secret-local', 'local');
  await createRepository(depot, 'all-libs', 'virtual', {
    repositories: ['libs-local', 'team-local'],
  });
  for (const path of ['org/a.txt', 'org/secret/key.txt', 'other/x.txt'])
    await deployFile(depot, 'team-local', path);
  for (let i = 0; i < 12; i++) {
    const name = `f-${String(i).padStart(2, '0')}`;
    await deployFile(depot, 'team-local', `org/mix/${name}${i % 2 ? '.hidden' : '.txt'}`);
  }
  await deployFile(depot, 'libs-local', 'lib/l.jar');
  await deployFile(depot, 'secret-local', 's.txt');
  const { users, groups } = depot.services;
  for (const name of ['dev', 'writer', 'outsider'])
    await users.create({ name, email: `${name}@example.com`, password: `${name}-pass-1` });
  await groups.create({ name: 'team', usersInGroup: ['dev'] });
  expect((await call('DELETE', `${PERMISSIONS}/Anything`, adminAuth())).statusCode).toBe(200);
  await grant('team-rw', {
    'include-patterns': ['org/**'],
    'exclude-patterns': ['org/secret/**', '**/*.hidden'],
    repositories: ['team-local'],
    actions: { users: {}, groups: { team: ['delete'] } },
  });
  await grant('libs-read', {
    repositories: ['libs-local'],
    actions: { users: { dev: ['read'] }, groups: {} },
  });
  await grant('writers', {
    repositories: ['team-local'],
    actions: { users: { writer: ['write'] }, groups: {} },
  });
});
afterAll(() => depot.close());

const status = async (method: string, url: string, headers: object, payload?: unknown) =>
  (await call(method, url, headers, payload)).statusCode;

describe('reading', () => {
  it('downloads what a grant covers, and refuses the rest', async () => {
    expect(await status('GET', '/artifactory/team-local/org/a.txt', DEV)).toBe(200);
    expect(await status('GET', '/artifactory/team-local/org/secret/key.txt', DEV)).toBe(403);
    expect(await status('GET', '/artifactory/team-local/other/x.txt', DEV)).toBe(403);
    expect(await status('GET', '/artifactory/secret-local/s.txt', DEV)).toBe(403);
    expect(await status('GET', '/artifactory/team-local/org/a.txt', OUTSIDER)).toBe(403);
    expect(await status('GET', '/artifactory/team-local/org/a.txt.sha1', OUTSIDER)).toBe(403);
    expect(await status('GET', '/artifactory/team-local/org/a.txt', {})).toBe(401);
    const refused = await call('GET', '/artifactory/team-local/other/x.txt', DEV);
    expect(refused.json().errors[0].message).toBe(
      "User 'dev' is not permitted to read 'team-local/other/x.txt'.",
    );
  });

  it('lists only what the caller may read, in listings and the storage API', async () => {
    const root = (await call('GET', '/artifactory/team-local/', DEV)).body;
    expect(root).toContain('org/');
    expect(root).not.toContain('other/');
    const deep = await call('GET', '/artifactory/api/storage/team-local/org?list&deep=1', DEV);
    const files = deep.json().files.map((f: { uri: string }) => f.uri);
    expect(files).toContain('/a.txt');
    expect(files).toContain('/mix/f-00.txt');
    expect(files).not.toContain('/secret/key.txt');
    expect(files).not.toContain('/mix/f-01.hidden');
    expect(await status('GET', '/artifactory/api/storage/team-local/other/x.txt', DEV)).toBe(403);
    const repos = (await call('GET', '/artifactory/api/repositories', DEV)).json();
    expect(repos.map((r: { key: string }) => r.key).sort()).toEqual([
      'all-libs',
      'libs-local',
      'team-local',
    ]);
  });

  it('reads through a virtual repository what its members let the caller read', async () => {
    expect(await status('GET', '/artifactory/all-libs/org/a.txt', DEV)).toBe(200);
    expect(await status('GET', '/artifactory/all-libs/lib/l.jar', DEV)).toBe(200);
    expect(await status('GET', '/artifactory/all-libs/org/a.txt', OUTSIDER)).toBe(403);
  });

  it('zips only the readable files of a folder', async () => {
    const zip = await call('GET', '/artifactory/api/archive/download/team-local/org', DEV);
    expect(zip.statusCode).toBe(200);
    const names = [...(await unzip(zip.rawPayload)).keys()].sort();
    expect(names).toEqual([
      'a.txt',
      ...[0, 2, 4, 6, 8, 10].map((i) => `mix/f-${String(i).padStart(2, '0')}.txt`),
    ]);
  });
});

describe('writing', () => {
  it('deploys where Deploy is granted, and overwrites only with Delete too', async () => {
    expect(await status('PUT', '/artifactory/team-local/org/new.txt', DEV, 'n')).toBe(201);
    expect(await status('PUT', '/artifactory/libs-local/lib/x.jar', DEV, 'x')).toBe(403);
    expect(await status('PUT', '/artifactory/team-local/other/y.txt', DEV, 'y')).toBe(403);
    expect(await status('PUT', '/artifactory/team-local/w/one.txt', WRITER, '1')).toBe(201);
    const overwrite = await call('PUT', '/artifactory/team-local/w/one.txt', WRITER, '2');
    expect(overwrite.statusCode).toBe(403);
    expect(overwrite.json().errors[0].message).toContain('overwrite');
    expect((await call('GET', '/artifactory/team-local/w/one.txt', adminAuth())).body).toBe('1');
    expect(await status('PUT', '/artifactory/team-local/org/new.txt', DEV, 'again')).toBe(201);
  });

  it('deletes with Delete only', async () => {
    expect(await status('DELETE', '/artifactory/team-local/w/one.txt', WRITER)).toBe(403);
    expect(await status('DELETE', '/artifactory/team-local/org/new.txt', DEV)).toBe(204);
    expect(await status('DELETE', '/artifactory/libs-local/lib/l.jar', DEV)).toBe(403);
  });

  it('sets properties with Annotate only', async () => {
    const url = (repo: string, path: string) =>
      `/artifactory/api/storage/${repo}/${path}?properties=stage=qa`;
    expect(await status('PUT', url('team-local', 'org/a.txt'), DEV)).toBe(204);
    expect(await status('PUT', url('libs-local', 'lib/l.jar'), DEV)).toBe(403);
  });

  it('copies only from what it may read into where it may deploy', async () => {
    const copy = (from: string, to: string) => `/artifactory/api/copy/${from}?to=/${to}`;
    expect(await status('POST', copy('team-local/org/a.txt', 'team-local/org/b.txt'), DEV)).toBe(
      200,
    );
    expect(await status('POST', copy('team-local/org/a.txt', 'libs-local/a.txt'), DEV)).toBe(403);
    expect(await status('POST', copy('libs-local/lib', 'team-local/org/lib'), OUTSIDER)).toBe(403);
    expect(await status('GET', '/artifactory/libs-local/a.txt', adminAuth())).toBe(404);
  });
});

describe('the tree browser', () => {
  const tree = (headers: object, body: object) =>
    call('POST', '/ui/api/v1/ui/treebrowser', headers, body);

  it('shows the repositories and children the caller may read, pages filled before the limit', async () => {
    const roots = (await tree(DEV, { type: 'root' })).json();
    expect(roots.data.map((r: { repoKey: string }) => r.repoKey).sort()).toEqual([
      'all-libs',
      'libs-local',
      'team-local',
    ]);
    const top = (await tree(DEV, { type: 'junction', repoKey: 'team-local', path: '' })).json();
    expect(top.data.map((n: { text: string }) => n.text)).toEqual(['org']);
    const seen: string[] = [];
    let continueState: string | undefined;
    do {
      const page = (
        await tree(DEV, {
          type: 'junction',
          repoKey: 'team-local',
          path: 'org/mix',
          limit: 4,
          ...(continueState ? { continueState } : {}),
        })
      ).json();
      if (page.continueState) expect(page.data).toHaveLength(4);
      seen.push(...page.data.map((n: { text: string }) => n.text));
      continueState = page.continueState;
    } while (continueState);
    expect(seen).toEqual([0, 2, 4, 6, 8, 10].map((i) => `f-${String(i).padStart(2, '0')}.txt`));
    const hidden = await tree(DEV, { type: 'junction', repoKey: 'secret-local', path: '' });
    expect(hidden.statusCode).toBe(403);
  });

  it('offers the actions the caller may take on the node', async () => {
    const actionsOn = async (repoKey: string, path: string) => {
      const response = await call('POST', '/ui/api/v1/ui/treebrowser/tabsAndActions', DEV, {
        type: 'file',
        repoKey,
        path,
      });
      return response.json().actions.map((a: { name: string }) => a.name);
    };
    expect(await actionsOn('team-local', 'org/a.txt')).toEqual(
      expect.arrayContaining(['download', 'copy', 'move', 'delete']),
    );
    expect(await actionsOn('libs-local', 'lib/l.jar')).not.toContain('delete');
    expect(await actionsOn('libs-local', 'lib/l.jar')).toContain('copy');
    const general = await call('POST', '/ui/api/v1/ui/artifactgeneral', DEV, {
      type: 'file',
      repoKey: 'team-local',
      path: 'other/x.txt',
    });
    expect(general.statusCode).toBe(403);
  });

  it('views and lists natively only what the caller may read', async () => {
    const view = (headers: object, repoKey: string, path: string) =>
      call('POST', '/ui/api/v1/ui/artifactactions/view', headers, { repoKey, path });
    expect((await view(DEV, 'team-local', 'org/a.txt')).statusCode).toBe(200);
    expect((await view(DEV, 'team-local', 'org/secret/key.txt')).statusCode).toBe(403);
    expect((await view(DEV, 'team-local', 'other/x.txt')).statusCode).toBe(403);
    expect((await view(OUTSIDER, 'secret-local', 's.txt')).statusCode).toBe(403);
    expect((await view(OUTSIDER, 'secret-local', 'missing.txt')).statusCode).toBe(403);
    const native = (headers: object, url: string) =>
      call('GET', `/ui/api/v1/ui/nativeBrowser/${url}`, headers);
    const org = (await native(DEV, 'team-local/org')).json();
    const treeOrg = (await tree(DEV, { type: 'junction', repoKey: 'team-local', path: 'org' }))
      .json()
      .data.map((n: { text: string }) => n.text);
    expect(org.children.map((e: { name: string }) => e.name)).toEqual(treeOrg);
    expect(treeOrg).toContain('a.txt');
    const mix = (await native(DEV, 'team-local/org/mix')).json();
    expect(mix.children).toHaveLength(6);
    expect(mix.children.every((e: { name: string }) => e.name.endsWith('.txt'))).toBe(true);
    expect((await native(OUTSIDER, 'secret-local')).statusCode).toBe(403);
    expect((await native(OUTSIDER, 'secret-local/no/such')).statusCode).toBe(403);
  });
});
