import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_MESSAGES as M } from '../server/modules/projects/messages.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';
import { craftZip } from './helpers/archives.ts';

/**
 * Projects through JFrog Access's API: key rules, the limit, members with roles (users and
 * groups), custom roles, repositories made in a project with its prefix, sharing, and what
 * project admins may and may not do. Users here are in no group, so only projects grant them.
 */
let depot: TestDepot;
const PROJECTS = '/access/api/v1/projects';
const as = (name: string) => ({ authorization: basic(name, `${name}-pass-1`) });

function call(method: string, url: string, headers: object, payload?: unknown) {
  return depot.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers },
    payload: payload as string,
  });
}
const asAdmin = (method: string, url: string, payload?: unknown) =>
  call(method, url, adminAuth(), payload);
const firstError = (response: Awaited<ReturnType<typeof call>>) => response.json().errors[0];

async function createRepo(key: string, projectKey: string | undefined, headers = adminAuth()) {
  return call('PUT', `/artifactory/api/repositories/${key}`, headers, {
    rclass: 'local',
    packageType: 'generic',
    ...(projectKey ? { projectKey } : {}),
  });
}
const deploy = (user: string, path: string) => call('PUT', `/artifactory/${path}`, as(user), 'x');
const download = (user: string, path: string) => call('GET', `/artifactory/${path}`, as(user));

beforeAll(async () => {
  depot = await startTestDepot({ DEPOT_PROJECTS_LIMIT: '3' });
  for (const name of ['dev', 'vic', 'pam', 'out', 'grp'])
    await depot.services.users.create({
      name,
      email: `${name}@example.com`,
      password: `${name}-pass-1`,
      groups: [],
    });
  await depot.services.groups.create({ name: 'team', usersInGroup: ['grp'] });
});
afterAll(() => depot.close());

describe('projects', () => {
  it('checks the key and name with the spec messages, and refuses duplicates', async () => {
    const cases: Array<[object, string]> = [
      [{ project_key: '1abc', display_name: 'x' }, M.keyStart],
      [{ project_key: 'Abc', display_name: 'x' }, M.keyStart],
      [{ project_key: 'ab', display_name: 'x' }, M.keyChars],
      [{ project_key: 'abcdefghijk', display_name: 'x' }, M.keyChars],
      [{ project_key: 'ab-c', display_name: 'x' }, M.keyChars],
      [{ project_key: 'abc', display_name: 'x'.repeat(33) }, M.tooLong],
      [{ project_key: 'abc', display_name: '  ' }, M.nameRequired],
    ];
    for (const [body, message] of cases) {
      const response = await asAdmin('POST', PROJECTS, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(firstError(response).message).toBe(message);
    }
    const created = await asAdmin('POST', PROJECTS, {
      project_key: 'alpha',
      display_name: 'Alpha',
      description: 'The first one',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      project_key: 'alpha',
      display_name: 'Alpha',
      description: 'The first one',
      admin_privileges: { manage_members: true, manage_resources: true, index_resources: true },
      storage_quota_bytes: null,
    });
    expect(
      (await asAdmin('POST', PROJECTS, { project_key: 'alpha', display_name: 'B' })).statusCode,
    ).toBe(409);
    expect(
      (await asAdmin('POST', PROJECTS, { project_key: 'other', display_name: 'alpha' })).statusCode,
    ).toBe(409);
    expect(
      (await asAdmin('POST', PROJECTS, { project_key: 'beta', display_name: 'Beta' })).statusCode,
    ).toBe(201);
  });

  it('stops at the configured limit with the spec message', async () => {
    expect(
      (await asAdmin('POST', PROJECTS, { project_key: 'gamma', display_name: 'Gamma' })).statusCode,
    ).toBe(201);
    const over = await asAdmin('POST', PROJECTS, { project_key: 'delta', display_name: 'Delta' });
    expect(over.statusCode).toBe(400);
    expect(firstError(over).message).toBe(M.limitReached);
    expect((await asAdmin('DELETE', `${PROJECTS}/gamma`)).statusCode).toBe(204);
  });

  it('creates repositories in a project only with its prefix', async () => {
    const wrong = await createRepo('libs-local', 'alpha');
    expect(wrong.statusCode).toBe(400);
    expect(firstError(wrong).message).toBe(M.repoPrefix('alpha'));
    expect((await createRepo('alpha-libs', 'nope')).statusCode).toBe(400);
    expect((await createRepo('alpha-libs', 'alpha')).statusCode).toBe(200);
    expect((await createRepo('beta-data', 'beta')).statusCode).toBe(200);
    const config = await asAdmin('GET', '/artifactory/api/repositories/alpha-libs');
    expect(config.json()).toMatchObject({ key: 'alpha-libs', projectKey: 'alpha' });
    await call('PUT', '/artifactory/beta-data/shared.txt', adminAuth(), 'beta');
  });

  it('grants the role’s actions on the project’s repositories, and nothing elsewhere', async () => {
    expect(
      (await asAdmin('PUT', `${PROJECTS}/alpha/users/dev`, { roles: ['Developer'] })).statusCode,
    ).toBe(200);
    expect(
      (await asAdmin('PUT', `${PROJECTS}/alpha/users/vic`, { roles: ['Viewer'] })).statusCode,
    ).toBe(200);
    expect(
      (await asAdmin('PUT', `${PROJECTS}/alpha/groups/team`, { roles: ['Contributor'] }))
        .statusCode,
    ).toBe(200);
    expect(
      (await asAdmin('PUT', `${PROJECTS}/alpha/users/ghost`, { roles: ['Viewer'] })).statusCode,
    ).toBe(404);
    expect(
      (await asAdmin('PUT', `${PROJECTS}/alpha/users/dev`, { roles: ['Boss'] })).statusCode,
    ).toBe(400);

    expect((await deploy('dev', 'alpha-libs/a.txt')).statusCode).toBe(201);
    expect((await call('DELETE', '/artifactory/alpha-libs/a.txt', as('dev'))).statusCode).toBe(204);
    expect((await deploy('grp', 'alpha-libs/b.txt')).statusCode).toBe(201);
    expect((await call('DELETE', '/artifactory/alpha-libs/b.txt', as('grp'))).statusCode).toBe(403);
    expect((await deploy('vic', 'alpha-libs/c.txt')).statusCode).toBe(403);
    expect((await download('vic', 'alpha-libs/b.txt')).statusCode).toBe(200);
    expect((await download('out', 'alpha-libs/b.txt')).statusCode).toBe(403);
    // Membership of alpha says nothing about beta.
    expect((await download('dev', 'beta-data/shared.txt')).statusCode).toBe(403);
  });

  it('shares a repository read-only with another project', async () => {
    const shared = await asAdmin('PUT', `${PROJECTS}/_/share/repositories/beta-data/alpha`);
    expect(shared.json()).toMatchObject({ sharedWithProjects: ['alpha'] });
    expect((await download('vic', 'beta-data/shared.txt')).statusCode).toBe(200);
    expect((await deploy('dev', 'beta-data/new.txt')).statusCode).toBe(403);
    await asAdmin('DELETE', `${PROJECTS}/_/share/repositories/beta-data/alpha`);
    expect((await download('vic', 'beta-data/shared.txt')).statusCode).toBe(403);
  });

  it('applies custom roles, and takes a deleted role from its members', async () => {
    const role = await asAdmin('POST', `${PROJECTS}/alpha/roles`, {
      name: 'Uploader',
      actions: ['READ_REPOSITORY', 'DEPLOY_CACHE_REPOSITORY'],
    });
    expect(role.statusCode).toBe(201);
    const bad = await asAdmin('POST', `${PROJECTS}/alpha/roles`, { name: 'X', actions: ['FLY'] });
    expect(firstError(bad).message).toBe(M.unknownAction('FLY'));
    expect(
      (await asAdmin('PUT', `${PROJECTS}/alpha/roles/Viewer`, { actions: [] })).statusCode,
    ).toBe(400);
    await asAdmin('PUT', `${PROJECTS}/alpha/users/out`, { roles: ['Uploader'] });
    expect((await deploy('out', 'alpha-libs/u.txt')).statusCode).toBe(201);
    expect((await asAdmin('DELETE', `${PROJECTS}/alpha/roles/Uploader`)).statusCode).toBe(204);
    const members = (await asAdmin('GET', `${PROJECTS}/alpha/users`)).json().members;
    expect(members).toContainEqual({ name: 'out', roles: [] });
    expect((await deploy('out', 'alpha-libs/u2.txt')).statusCode).toBe(403);
  });

  it('applies each role only on repositories in its environments', async () => {
    const environments = await call('GET', '/access/api/v1/environments', as('dev'));
    expect(environments.json()).toEqual([{ name: 'DEV' }, { name: 'PROD' }]);
    // A new project repository sits in DEV; alpha-prod is moved to PROD.
    expect((await createRepo('alpha-prod', 'alpha')).statusCode).toBe(200);
    const config = await asAdmin('GET', '/artifactory/api/repositories/alpha-prod');
    expect(config.json()).toMatchObject({ environments: ['DEV'] });
    const unknown = await asAdmin('POST', '/artifactory/api/repositories/alpha-prod', {
      environments: ['QA'],
    });
    expect(unknown.statusCode).toBe(400);
    const toProd = await asAdmin('POST', '/artifactory/api/repositories/alpha-prod', {
      environments: ['PROD'],
    });
    expect(toProd.statusCode).toBe(200);
    await call('PUT', '/artifactory/alpha-prod/release.txt', adminAuth(), 'release');

    // Developer is a DEV role: it deploys to DEV repositories and has nothing in PROD.
    expect((await deploy('dev', 'alpha-libs/dev.txt')).statusCode).toBe(201);
    expect((await deploy('dev', 'alpha-prod/dev.txt')).statusCode).toBe(403);
    expect((await download('dev', 'alpha-prod/release.txt')).statusCode).toBe(403);
    // Viewer spans DEV and PROD: it reads both.
    expect((await download('vic', 'alpha-prod/release.txt')).statusCode).toBe(200);
    // Adding Viewer to the developer gives read in PROD, and still no deploy there.
    await asAdmin('PUT', `${PROJECTS}/alpha/users/dev`, { roles: ['Developer', 'Viewer'] });
    expect((await download('dev', 'alpha-prod/release.txt')).statusCode).toBe(200);
    expect((await deploy('dev', 'alpha-prod/dev.txt')).statusCode).toBe(403);

    // A custom role names its environments, from the ones that exist.
    const badRole = await asAdmin('POST', `${PROJECTS}/alpha/roles`, {
      name: 'Releaser',
      environments: ['STAGE'],
      actions: ['READ_REPOSITORY'],
    });
    expect(badRole.statusCode).toBe(400);
    const releaser = await asAdmin('POST', `${PROJECTS}/alpha/roles`, {
      name: 'Releaser',
      environments: ['PROD'],
      actions: ['READ_REPOSITORY', 'DEPLOY_CACHE_REPOSITORY'],
    });
    expect(releaser.json()).toMatchObject({ environments: ['PROD'] });
    await asAdmin('PUT', `${PROJECTS}/alpha/users/dev`, { roles: ['Developer', 'Releaser'] });
    expect((await deploy('dev', 'alpha-prod/dev.txt')).statusCode).toBe(201);
    expect((await call('DELETE', '/artifactory/alpha-prod/dev.txt', as('dev'))).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', '/artifactory/alpha-libs/dev.txt', as('dev'))).statusCode).toBe(
      204,
    );
    await asAdmin('PUT', `${PROJECTS}/alpha/users/dev`, { roles: ['Developer'] });
    await asAdmin('DELETE', '/artifactory/api/repositories/alpha-prod');
  });
});

describe('project admins', () => {
  it('manage their project’s members and repositories, and nothing else', async () => {
    await asAdmin('PUT', `${PROJECTS}/alpha/users/pam`, { roles: ['Project Admin'] });
    const pam = as('pam');
    expect(
      (await call('GET', PROJECTS, pam)).json().map((p: { project_key: string }) => p.project_key),
    ).toEqual(['alpha']);
    expect(
      (await call('PUT', `${PROJECTS}/alpha/users/vic`, pam, { roles: ['Developer'] })).statusCode,
    ).toBe(200);
    expect((await createRepo('alpha-tools', 'alpha', pam)).statusCode).toBe(200);
    expect((await deploy('pam', 'alpha-tools/t.txt')).statusCode).toBe(201);

    // Outside the project: refused, nothing created or changed.
    expect(
      (await call('PUT', `${PROJECTS}/beta/users/vic`, pam, { roles: ['Viewer'] })).statusCode,
    ).toBe(403);
    expect((await createRepo('beta-tools', 'beta', pam)).statusCode).toBe(403);
    expect((await createRepo('free-local', undefined, pam)).statusCode).toBe(403);
    expect(
      (await call('POST', PROJECTS, pam, { project_key: 'pams', display_name: 'Pam' })).statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', `${PROJECTS}/_/attach/repositories/beta-data/alpha`, pam)).statusCode,
    ).toBe(403);
    expect((await call('DELETE', '/artifactory/api/repositories/beta-data', pam)).statusCode).toBe(
      403,
    );
    expect(
      (await call('POST', '/artifactory/api/repositories/alpha-tools', pam, { projectKey: 'beta' }))
        .statusCode,
    ).toBe(403);
    expect((await asAdmin('GET', '/artifactory/api/repositories/beta-data')).statusCode).toBe(200);
    expect((await asAdmin('GET', `${PROJECTS}/beta/users`)).json().members).toEqual([]);

    // Without the project's leave to manage members, the role is not enough.
    await asAdmin('PUT', `${PROJECTS}/alpha`, { admin_privileges: { manage_members: false } });
    expect(
      (await call('PUT', `${PROJECTS}/alpha/users/vic`, pam, { roles: ['Viewer'] })).statusCode,
    ).toBe(403);
    await asAdmin('PUT', `${PROJECTS}/alpha`, { admin_privileges: { manage_members: true } });
  });

  it('refuses plain members the project calls', async () => {
    expect((await call('GET', `${PROJECTS}/alpha/users`, as('dev'))).statusCode).toBe(403);
    expect((await call('GET', PROJECTS, as('dev'))).json()).toEqual([]);
  });
});

describe('assigning and deleting', () => {
  it('keeps a project with repositories, and deletes it once they are unassigned', async () => {
    const refused = await asAdmin('DELETE', `${PROJECTS}/beta`);
    expect(refused.statusCode).toBe(409);
    expect(firstError(refused).message).toBe(M.hasRepositories('beta'));
    const unassigned = await asAdmin('DELETE', `${PROJECTS}/_/attach/repositories/beta-data`);
    expect(unassigned.json()).toEqual({ info: M.unassigned('beta-data', 'beta') });
    expect(
      (await asAdmin('GET', '/artifactory/api/repositories/beta-data')).json().projectKey,
    ).toBeUndefined();
    expect((await asAdmin('DELETE', `${PROJECTS}/beta`)).statusCode).toBe(204);
    const assigned = await asAdmin('PUT', `${PROJECTS}/_/attach/repositories/beta-data/alpha`);
    expect(assigned.json()).toEqual({ info: M.assigned('beta-data', 'alpha') });
    expect((await download('vic', 'beta-data/shared.txt')).statusCode).toBe(200);
  });
});

describe('storage quota', () => {
  it('refuses a deploy past the quota with 413 and keeps nothing; an overwrite frees its old size', async () => {
    expect(
      (await asAdmin('POST', PROJECTS, { project_key: 'quota', display_name: 'Quota' })).statusCode,
    ).toBe(201);
    expect((await createRepo('quota-a', 'quota')).statusCode).toBe(200);
    expect((await createRepo('quota-b', 'quota')).statusCode).toBe(200);
    expect(
      (await asAdmin('PUT', `${PROJECTS}/quota`, { storage_quota_bytes: 100 })).statusCode,
    ).toBe(200);

    expect(
      (await call('PUT', '/artifactory/quota-a/one.bin', adminAuth(), 'a'.repeat(60))).statusCode,
    ).toBe(201);
    // 60 used in quota-a; 50 more in the other repository of the project is over 100.
    const over = await call('PUT', '/artifactory/quota-b/two.bin', adminAuth(), 'b'.repeat(50));
    expect(over.statusCode).toBe(413);
    expect(firstError(over).message).toBe(M.quotaExceeded('quota'));
    expect((await asAdmin('GET', '/artifactory/quota-b/two.bin')).statusCode).toBe(404);
    // Replacing the 60-byte file with 90 bytes fits: 90 of 100.
    expect(
      (await call('PUT', '/artifactory/quota-a/one.bin', adminAuth(), 'c'.repeat(90))).statusCode,
    ).toBe(201);
    expect(
      (await call('PUT', '/artifactory/quota-b/two.bin', adminAuth(), 'd'.repeat(10))).statusCode,
    ).toBe(201);

    const storage = await asAdmin('GET', `${PROJECTS}/quota/storage`);
    expect(storage.json()).toMatchObject({
      projectKey: 'quota',
      quotaBytes: 100,
      usedBytes: 100,
      repositories: [
        { repoKey: 'quota-a', filesCount: 1, usedSpace: 90 },
        { repoKey: 'quota-b', filesCount: 1, usedSpace: 10 },
      ],
    });
    // An exploded archive counts its files (each content once, so two different ones):
    // atomic, a refusal keeps none of them; otherwise each file is its own deploy, and the
    // files before the refused one stay.
    const zip = craftZip([
      { name: 'z/one.txt', data: Buffer.alloc(40, 'z') },
      { name: 'z/two.txt', data: Buffer.alloc(40, 'y') },
    ]);
    await asAdmin('PUT', `${PROJECTS}/quota`, { storage_quota_bytes: 150 });
    const explode = (atomic: boolean) =>
      depot.app.inject({
        method: 'PUT',
        url: '/artifactory/quota-b/bundle.zip',
        headers: {
          ...adminAuth(),
          'x-explode-archive': 'true',
          'x-explode-archive-atomic': String(atomic),
        },
        payload: zip,
      });
    expect((await explode(true)).statusCode).toBe(413);
    expect((await asAdmin('GET', '/artifactory/quota-b/z/one.txt')).statusCode).toBe(404);
    expect((await explode(false)).statusCode).toBe(413);
    expect((await asAdmin('GET', '/artifactory/quota-b/z/one.txt')).statusCode).toBe(200);
    expect((await asAdmin('GET', '/artifactory/quota-b/z/two.txt')).statusCode).toBe(404);
    expect((await asAdmin('DELETE', '/artifactory/quota-b/z')).statusCode).toBe(204);
    // Without a quota (-1) anything goes.
    await asAdmin('PUT', `${PROJECTS}/quota`, { storage_quota_bytes: -1 });
    expect(
      (await call('PUT', '/artifactory/quota-b/big.bin', adminAuth(), 'e'.repeat(500))).statusCode,
    ).toBe(201);
    expect((await call('GET', `${PROJECTS}/quota/storage`, as('dev'))).statusCode).toBe(403);
  });
});

describe('the console’s repository calls in a project context', () => {
  const UI = '/ui/api/v1/ui/admin/repositories';
  const form = (repoKey: string, projectKey?: string) => ({
    type: 'local',
    general: { repoKey, ...(projectKey ? { projectKey } : {}) },
    typeSpecific: { repoType: 'generic' },
  });

  it('let a project admin list, check, create, edit and delete their project’s repositories only', async () => {
    const pam = as('pam');
    const keys = async (query: string, headers: object) =>
      (await call('GET', `${UI}?${query}`, headers))
        .json()
        .map((r: { repoKey: string }) => r.repoKey);

    // beta-data came into alpha when it was assigned above.
    expect(await keys('type=local&projectKey=alpha', pam)).toEqual([
      'alpha-libs',
      'alpha-tools',
      'beta-data',
    ]);
    expect((await call('GET', `${UI}?type=local`, pam)).statusCode).toBe(403);
    expect((await call('GET', `${UI}?type=local&projectKey=quota`, pam)).statusCode).toBe(403);

    const check = await call(
      'GET',
      `${UI}/validatereponame?repoType=local&repoKey=libs&projectKey=alpha`,
      pam,
    );
    expect(check.json()).toEqual({ valid: false, error: M.repoPrefix('alpha') });

    expect((await call('POST', UI, pam, form('alpha-web', 'alpha'))).statusCode).toBe(201);
    expect((await call('POST', UI, pam, form('quota-web', 'quota'))).statusCode).toBe(403);
    expect((await call('POST', UI, pam, form('loose-web'))).statusCode).toBe(403);
    const read = await call('GET', `${UI}/local/alpha-web`, pam);
    expect(read.json().general).toEqual({ repoKey: 'alpha-web', projectKey: 'alpha' });
    expect((await call('GET', `${UI}/local/quota-a`, pam)).statusCode).toBe(403);
    // A key that does not exist answers the same: no oracle for other projects' keys.
    expect((await call('GET', `${UI}/local/no-such-repo`, pam)).statusCode).toBe(403);
    // Moving it out of the project is refused; deleting it is theirs to do.
    expect((await call('PUT', UI, pam, form('alpha-web', 'quota'))).statusCode).toBe(403);
    expect((await call('DELETE', `${UI}/local/quota-a`, pam)).statusCode).toBe(403);
    expect((await call('DELETE', `${UI}/local/alpha-web`, pam)).statusCode).toBe(200);
    expect(await keys('type=local', adminAuth())).toContain('quota-a');
  });

  it('narrow the tree’s roots and the search to the project’s repositories', async () => {
    await call('PUT', '/artifactory/alpha-libs/ctx-probe.txt', adminAuth(), 'in alpha');
    await call('PUT', '/artifactory/quota-a/ctx-probe.txt', adminAuth(), 'in quota');
    const roots = async (projectKey?: string) =>
      (
        await asAdmin('POST', '/ui/api/v1/ui/treebrowser', {
          type: 'root',
          sortBy: 'repoKey',
          ...(projectKey ? { projectKey } : {}),
        })
      )
        .json()
        .data.map((node: { repoKey: string }) => node.repoKey);
    expect(await roots('alpha')).toEqual(['alpha-libs', 'alpha-tools', 'beta-data']);
    // "All" (the default context) is every repository, the trash can included.
    for (const all of [undefined, 'default'])
      expect(await roots(all)).toEqual(
        expect.arrayContaining(['alpha-libs', 'quota-a', 'auto-trashcan']),
      );

    const found = async (body: object) =>
      (await asAdmin('POST', '/ui/api/v1/ui/artifactsearch/quick', body))
        .json()
        .results.map((row: { repoKey: string }) => row.repoKey)
        .sort();
    expect(await found({ query: 'ctx-probe.txt', projectKey: 'alpha' })).toEqual(['alpha-libs']);
    expect(await found({ query: 'ctx-probe.txt' })).toEqual(['alpha-libs', 'quota-a']);
    // A repository outside the context is not searched, even when named.
    expect(
      await found({
        query: 'ctx-probe.txt',
        projectKey: 'alpha',
        selectedRepositories: ['quota-a'],
      }),
    ).toEqual([]);
  });

  it('tells an admin the project limit and how many exist', async () => {
    const limit = await asAdmin('GET', '/ui/api/v1/projects/limit');
    expect(limit.json()).toEqual({ limit: 3, count: 2 });
    expect((await call('GET', '/ui/api/v1/projects/limit', as('pam'))).statusCode).toBe(403);
  });
});
