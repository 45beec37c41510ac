import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInfo } from './helpers/build-info.ts';
import {
  adminAuth,
  basic,
  createRepository,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * The console's build calls (spec 02 §7 "Builds"; docs/builds.md, "Console"): the search,
 * a build's views, its diff, delete and promotion, each through the caller's build
 * permissions, on a real Depot with its real database.
 */
let depot: TestDepot;
const UI = '/ui/api/v1';
const dev = { authorization: basic('dev', 'dev-pass-1') };
const t = (day: number) => new Date(Date.UTC(2026, 2, day, 10));

const call = (method: 'GET' | 'POST', url: string, payload?: object, headers = adminAuth()) =>
  depot.app.inject({ method, url: `${UI}${url}`, headers, payload });
const search = (body: object, headers = adminAuth()) =>
  call('POST', '/global-search/builds', body, headers);
const upload = async (document: object) => {
  const response = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/build',
    headers: adminAuth(),
    payload: document,
  });
  expect(response.statusCode, response.body).toBe(204);
};
const at = (name: string, number: string, day: number) =>
  `${encodeURIComponent(name)}/${number}/${t(day).getTime()}`;

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'pages-local', 'local');
  await createRepository(depot, 'pages-release', 'local');
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  } as never);
  const put = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/pages-local/team/lib-1.jar',
    headers: adminAuth(),
    payload: 'lib one',
  });
  expect(put.statusCode).toBe(201);
  for (const [number, day, content] of [
    ['1', 1, 'lib one'],
    ['2', 2, 'lib two'],
  ] as const)
    await upload(
      buildInfo({
        name: 'team/lib',
        number,
        started: t(day),
        properties: {
          'buildInfo.env.STAGE': `s${number}`,
          'buildInfo.env.DEPLOY_TOKEN': 'tok-very-secret',
          'java.version': '21',
        },
        modules: [{ id: 'lib', artifacts: [{ name: `lib-${number}.jar`, content }] }],
      }),
    );
  for (let n = 0; n < 3; n++)
    await upload(buildInfo({ name: `other-${n}`, number: '1', started: t(10 + n), modules: [] }));
});

afterAll(async () => {
  await depot?.close();
});

describe('the builds list and versions', () => {
  it('lists each name once with its latest build, newest first, a page at a time', async () => {
    const first = await search({ num_of_rows: 2 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().versions.map((v: { build_name: string }) => v.build_name)).toEqual([
      'other-2',
      'other-1',
    ]);
    expect(first.json().hasMore).toBe(true);
    const rest = (await search({ num_of_rows: 2, offset: 2 })).json();
    expect(rest.versions.map((v: { build_name: string }) => v.build_name)).toEqual([
      'other-0',
      'team/lib',
    ]);
    expect(rest.versions[1]).toMatchObject({
      build_number: '2',
      build_time: t(2).getTime(),
      project_key: 'unassigned',
    });
    const named = (await search({ name: 'TEAM' })).json().versions;
    expect(named.map((v: { build_name: string }) => v.build_name)).toEqual(['team/lib']);
    const unassigned = (await search({ projectKey: 'unassigned' })).json().versions;
    expect(unassigned).toHaveLength(4);
    expect((await search({ projectKey: 'nosuch' })).json().versions).toEqual([]);
  });

  it('narrows by repository and start, and sorts by the column and direction asked', async () => {
    const names = async (body: object) => {
      const response = await search(body);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().versions.map((v: { build_name: string }) => v.build_name);
    };
    expect(await names({ buildRepo: 'artifactory-build-info' })).toHaveLength(4);
    expect(await names({ buildRepo: 'shop-build-info' })).toEqual([]);
    // Strictly between: other-0 (day 10) and other-2 (day 12) are the window's edges.
    expect(await names({ after: t(10).getTime(), before: t(12).getTime() })).toEqual(['other-1']);
    // A name's latest build in the window stands for it: team/lib's build 1, not 2.
    const early = (await search({ before: t(2).getTime() })).json().versions;
    expect(early).toMatchObject([{ build_name: 'team/lib', build_number: '1' }]);
    expect(await names({ order_by: 'build_name', direction: 'asc' })).toEqual([
      'other-0',
      'other-1',
      'other-2',
      'team/lib',
    ]);
    expect(await names({ order_by: 'build_time', direction: 'asc' })).toEqual([
      'team/lib',
      'other-0',
      'other-1',
      'other-2',
    ]);
    expect(await names({ order_by: 'build_name' })).toEqual([
      'team/lib',
      'other-2',
      'other-1',
      'other-0',
    ]);
    const versions = await call('POST', `/global-search/builds/${encodeURIComponent('team/lib')}`, {
      order_by: 'build_number',
      direction: 'asc',
      after: t(0).getTime(),
    });
    expect(versions.json().versions.map((v: { buildNumber: string }) => v.buildNumber)).toEqual([
      '1',
      '2',
    ]);
    const refused = await search({ order_by: 'size', direction: 'sideways' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].field).toBe('order_by');
  });

  it('answers a name’s versions with status and CI link, newest first', async () => {
    const response = await call('GET', `/ui/builds/history/${encodeURIComponent('team/lib')}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().history).toMatchObject([
      { buildNumber: '2', time: t(2).getTime(), status: '', ciUrl: expect.stringContaining('/2/') },
      { buildNumber: '1', time: t(1).getTime() },
    ]);
  });

  it('pages the permissions editor’s build names', async () => {
    const page = await call('GET', '/ui/builds/names?offset=1&limit=2');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toEqual({ builds: ['other-1', 'other-2'], total: 4, hasMore: true });
    expect((await call('GET', '/ui/builds/names')).json().builds).toHaveLength(4);
  });
});

describe("a build's views", () => {
  it('general info, modules with artifacts linked to stored items, environment, JSON', async () => {
    const general = await call('GET', `/ui/builds/buildInfo/${at('team/lib', '1', 1)}`);
    expect(general.statusCode, general.body).toBe(200);
    expect(general.json()).toMatchObject({ name: 'team/lib', number: '1', type: 'GENERIC' });
    const modules = await call('GET', `/ui/builds/publishedModules/${at('team/lib', '1', 1)}`);
    expect(modules.json().modules).toEqual([
      { moduleId: 'lib', type: '', numOfArtifacts: 1, numOfDependencies: 0 },
    ]);
    const artifacts = await call('GET', `/ui/builds/modulesArtifact/${at('team/lib', '1', 1)}/lib`);
    expect(artifacts.json().artifacts[0]).toMatchObject({
      name: 'lib-1.jar',
      repoKey: 'pages-local',
      path: 'team/lib-1.jar',
    });
    const two = await call('GET', `/ui/builds/modulesArtifact/${at('team/lib', '2', 2)}/lib`);
    expect(two.json().artifacts[0].repoKey).toBeUndefined();
    const env = await call('GET', `/ui/builds/buildProps/env/${at('team/lib', '1', 1)}`);
    expect(env.json().properties).toContainEqual({ key: 'STAGE', value: 's1' });
    // A secret the CI server sent is never stored: not in a view, not in the stored file.
    expect(env.json().properties).toContainEqual({ key: 'DEPLOY_TOKEN', value: '******' });
    const file = await depot.app.inject({
      method: 'GET',
      url: `/artifactory/artifactory-build-info/team/lib/1-${t(1).getTime()}.json`,
      headers: adminAuth(),
    });
    expect(file.statusCode).toBe(200);
    expect(file.body).not.toContain('tok-very-secret');
    const system = await call('GET', `/ui/builds/buildProps/system/${at('team/lib', '1', 1)}`);
    expect(system.json().properties).toEqual([{ key: 'java.version', value: '21' }]);
    const json = await call('GET', `/ui/builds/buildJson/${at('team/lib', '1', 1)}`);
    expect(JSON.parse(json.json().fileContent).number).toBe('1');
    const issues = await call('GET', `/ui/builds/buildIssues/${at('team/lib', '1', 1)}`);
    expect(issues.json().issues[0]).toMatchObject({ key: 'APP-1' });
  });

  it('diffs against another build by number and start', async () => {
    const diff = await call(
      'GET',
      `/ui/builds/buildDiff/${at('team/lib', '2', 2)}?otherNumber=1&otherDate=${t(1).getTime()}`,
    );
    expect(diff.statusCode, diff.body).toBe(200);
    const { artifacts, properties } = diff.json();
    expect(artifacts.new.map((a: { name: string }) => a.name)).toEqual(['lib-2.jar']);
    expect(artifacts.removed.map((a: { name: string }) => a.name)).toEqual(['lib-1.jar']);
    expect(properties.updated.map((p: { name: string }) => p.name)).toEqual([
      'buildInfo.env.STAGE',
    ]);
    const part = await call(
      'GET',
      `/ui/builds/artifactDiff/${at('team/lib', '2', 2)}?otherNumber=1`,
    );
    expect(part.json().new).toHaveLength(1);
  });

  it("refuses a promotion without a target in the dialog schema's words, recording nothing", async () => {
    for (const targetRepo of [undefined, '   ']) {
      const refused = await call('POST', `/ui/builds/promote/${encodeURIComponent('team/lib')}/2`, {
        ...(targetRepo === undefined ? {} : { targetRepo }),
        status: 'Released',
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.body).toContain('You must fill in this field');
    }
    const history = await call('GET', `/ui/builds/releaseHistory/${at('team/lib', '2', 2)}`);
    expect(history.json().releaseHistory).toEqual([]);
  });

  it('promotes from the console, the status joining the release history', async () => {
    const promote = await call('POST', `/ui/builds/promote/${encodeURIComponent('team/lib')}/1`, {
      targetRepo: 'pages-release',
      status: 'Released',
      comment: 'ship it',
      copy: true,
    });
    expect(promote.statusCode, promote.body).toBe(200);
    const history = await call('GET', `/ui/builds/releaseHistory/${at('team/lib', '1', 1)}`);
    expect(history.json().releaseHistory).toMatchObject([
      { status: 'Released', comment: 'ship it', repository: 'pages-release', user: 'admin' },
    ]);
    const copied = await depot.app.inject({
      method: 'GET',
      url: '/artifactory/pages-release/team/lib-1.jar',
      headers: adminAuth(),
    });
    expect(copied.body).toBe('lib one');
  });
});

describe('permissions and delete', () => {
  it('a user without build read finds no build and opens none', async () => {
    expect((await search({}, dev)).json().versions).toEqual([]);
    const view = await call(
      'GET',
      `/ui/builds/buildInfo/${at('team/lib', '1', 1)}`,
      undefined,
      dev,
    );
    expect(view.statusCode).toBe(404);
    const removed = await call(
      'POST',
      '/ui/builds/buildsDelete',
      {
        buildsCoordinates: [
          { buildName: 'other-0', buildNumber: '1', buildStarted: String(t(10).getTime()) },
        ],
      },
      dev,
    );
    expect(removed.statusCode).toBe(404);
    expect((await search({ name: 'other-0' })).json().versions).toHaveLength(1);
  });

  it('lists a name by its latest build the caller may read, and reads % and _ as themselves', async () => {
    const target = '/artifactory/api/v2/security/permissions/dev-first-lib';
    const granted = await depot.app.inject({
      method: 'PUT',
      url: target,
      headers: adminAuth(),
      payload: {
        build: {
          repositories: ['artifactory-build-info'],
          'include-patterns': ['team/lib/1-*'],
          'exclude-patterns': [],
          actions: { users: { dev: ['read'] }, groups: {} },
        },
      },
    });
    expect(granted.statusCode, granted.body).toBeLessThan(300);
    try {
      // team/lib's latest build is #2, which dev may not read: #1 stands for the name.
      const seen = (await search({}, dev)).json().versions;
      expect(seen).toMatchObject([{ build_name: 'team/lib', build_number: '1' }]);
      expect(seen).toHaveLength(1);
    } finally {
      await depot.app.inject({ method: 'DELETE', url: target, headers: adminAuth() });
    }
    const names = async (name: string) =>
      (await search({ name })).json().versions.map((v: { build_name: string }) => v.build_name);
    expect(await names('oth*-1')).toEqual(['other-1']);
    expect(await names('other%')).toEqual([]);
    expect(await names('other_1')).toEqual([]);
  });

  it('lists who may do what on a build, for administrators only', async () => {
    const target = '/artifactory/api/v2/security/permissions/dev-team-builds';
    const granted = await depot.app.inject({
      method: 'PUT',
      url: target,
      headers: adminAuth(),
      payload: {
        build: {
          repositories: ['artifactory-build-info'],
          'include-patterns': ['team/**'],
          'exclude-patterns': [],
          actions: { users: { dev: ['read', 'delete'] }, groups: {} },
        },
      },
    });
    expect(granted.statusCode, granted.body).toBeLessThan(300);
    try {
      const url = (name: string, number: string, day: number) =>
        `/ui/builds/buildEffectivePermission/${at(name, number, day)}`;
      const lib = await call('GET', url('team/lib', '1', 1));
      expect(lib.statusCode, lib.body).toBe(200);
      const rows = lib.json().data as { principal: string; actions: Record<string, boolean> }[];
      expect(rows.find((row) => row.principal === 'dev')?.actions).toEqual({
        read: true,
        annotate: true,
        deploy: true,
        delete: true,
        manage: false,
      });
      expect(rows.find((row) => row.principal === 'admin')?.actions.manage).toBe(true);
      // The pattern does not reach other-0: dev is not listed there.
      const other = (await call('GET', url('other-0', '1', 10))).json().data;
      expect(other.map((row: { principal: string }) => row.principal)).not.toContain('dev');
      expect((await call('GET', url('team/lib', '1', 1), undefined, dev)).statusCode).toBe(403);
      expect((await call('GET', url('team/lib', '9', 1))).statusCode).toBe(404);
    } finally {
      await depot.app.inject({ method: 'DELETE', url: target, headers: adminAuth() });
    }
  });

  it('deletes exact versions, then all builds of a name', async () => {
    const one = await call('POST', '/ui/builds/buildsDelete', {
      buildsCoordinates: [
        { buildName: 'team/lib', buildNumber: '2', buildStarted: String(t(2).getTime()) },
      ],
    });
    expect(one.statusCode, one.body).toBe(200);
    const left = (await call('GET', `/ui/builds/history/${encodeURIComponent('team/lib')}`)).json();
    expect(left.history.map((v: { buildNumber: string }) => v.buildNumber)).toEqual(['1']);
    // The list's row for the name is its latest build left (migration 0050's latest_builds).
    const latest = (await search({ name: 'team/lib' })).json();
    expect(latest.versions.map((v: { build_number: string }) => v.build_number)).toEqual(['1']);
    const all = await call('POST', '/ui/builds/deleteAllBuilds', {
      buildsCoordinates: [{ buildName: 'team/lib' }],
    });
    expect(all.statusCode, all.body).toBe(200);
    const gone = await call('GET', `/ui/builds/history/${encodeURIComponent('team/lib')}`);
    expect(gone.statusCode).toBe(404);
    expect((await search({ name: 'team/lib' })).json().versions).toEqual([]);
    const bad = await call('POST', '/ui/builds/buildsDelete', { buildsCoordinates: [] });
    expect(bad.statusCode).toBe(400);
  });

  it('lists a name by its build before when the latest build file is deleted from the tree', async () => {
    for (const day of [20, 21])
      await upload(
        buildInfo({ name: 'tree-gone', number: String(day), started: t(day), modules: [] }),
      );
    const file = `/artifactory/artifactory-build-info/tree-gone/21-${t(21).getTime()}.json`;
    const removed = await depot.app.inject({ method: 'DELETE', url: file, headers: adminAuth() });
    expect(removed.statusCode, removed.body).toBe(204);
    const listed = (await search({ name: 'tree-gone' })).json();
    expect(listed.versions).toEqual([
      expect.objectContaining({ build_name: 'tree-gone', build_number: '20' }),
    ]);
    const folder = await depot.app.inject({
      method: 'DELETE',
      url: '/artifactory/artifactory-build-info/tree-gone',
      headers: adminAuth(),
    });
    expect(folder.statusCode, folder.body).toBe(204);
    expect((await search({ name: 'tree-gone' })).json().versions).toEqual([]);
  });
});
