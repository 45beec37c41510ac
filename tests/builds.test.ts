import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_MESSAGES as M } from '../server/modules/builds/messages.ts';
import { buildInfo, checksumsOf, startedAt, type FileSpec } from './helpers/build-info.ts';
import {
  adminAuth,
  basic,
  createRepository,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Builds over REST (docs/builds.md): build-info documents written here from the documented
 * schema, uploaded, listed, compared, promoted, linked to stored items, deleted under
 * retention, and refused when malformed, on a real Depot with its real database.
 */
let depot: TestDepot;
const API = '/artifactory/api/build';
const dev = { authorization: basic('dev', 'dev-pass-1') };

const core: FileSpec = { name: 'app-core-1.0.jar', content: 'core jar 1' };
const corePom: FileSpec = { name: 'app-core-1.0.pom', content: '<project>core</project>' };
const web: FileSpec = { name: 'app-web-1.0.war', content: 'web war 1' };
const guava: FileSpec = {
  name: 'com.google.guava:guava:33.0',
  content: 'guava',
  type: 'jar',
  scopes: ['compile'],
};
const junit: FileSpec = {
  name: 'junit:junit:4.13',
  content: 'junit',
  type: 'jar',
  scopes: ['test'],
};

async function deploy(repo: string, path: string, content: string, build?: [string, string]) {
  const matrix = build ? `;build.name=${build[0]};build.number=${build[1]}` : '';
  const response = await depot.app.inject({
    method: 'PUT',
    url: `/artifactory/${repo}/${path}${matrix}`,
    headers: adminAuth(),
    payload: content,
  });
  expect(response.statusCode, response.body).toBe(201);
}

const tabsOf = async (path: string, headers = adminAuth()) => {
  const response = await depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/treebrowser/tabsAndActions',
    headers,
    payload: { type: 'file', repoKey: 'libs-local', path },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().tabs as { name: string }[]).map((tab) => tab.name);
};

const upload = (document: unknown, headers = adminAuth(), query = '') =>
  depot.app.inject({ method: 'PUT', url: `${API}${query}`, headers, payload: document as object });
const get = (url: string, headers = adminAuth()) =>
  depot.app.inject({ method: 'GET', url, headers });

const maven = (number: string, started: Date, files = { core, web }) =>
  buildInfo({
    name: 'acme-app',
    number,
    type: 'MAVEN',
    started,
    modules: [
      {
        id: 'org.acme:app-core:1.0',
        artifacts: [files.core, corePom],
        dependencies: [guava, junit],
      },
      { id: 'org.acme:app-web:1.0', artifacts: [files.web], dependencies: [guava] },
    ],
  });

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'libs-local', 'local');
  await createRepository(depot, 'libs-release', 'local');
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  } as never);
  await deploy('libs-local', 'org/acme/app-core/1.0/app-core-1.0.jar', core.content, [
    'acme-app',
    '41',
  ]);
  await deploy('libs-local', 'org/acme/app-core/1.0/app-core-1.0.pom', corePom.content, [
    'acme-app',
    '41',
  ]);
  await deploy('libs-local', 'org/acme/app-web/1.0/app-web-1.0.war', web.content, [
    'acme-app',
    '41',
  ]);
  await deploy('libs-local', 'com/google/guava/guava/33.0/guava-33.0.jar', guava.content);
  await deploy('libs-local', 'docs/readme.txt', 'no build lists this');
});

afterAll(async () => {
  await depot?.close();
});

describe('upload and read', () => {
  it('stores a Maven multi-module build as a JSON file of artifactory-build-info and lists it', async () => {
    const started = new Date('2026-03-01T10:00:00.000Z');
    const response = await upload(maven('41', started));
    expect(response.statusCode, response.body).toBe(204);

    const names = (await get(API)).json();
    expect(names.builds).toContainEqual({ uri: '/acme-app', lastStarted: startedAt(started) });
    const numbers = (await get(`${API}/acme-app`)).json();
    expect(numbers.buildsNumbers).toEqual([{ uri: '/41', started: startedAt(started) }]);
    const one = (await get(`${API}/acme-app/41`)).json();
    expect(one.buildInfo.modules.map((m: { id: string }) => m.id)).toEqual([
      'org.acme:app-core:1.0',
      'org.acme:app-web:1.0',
    ]);
    expect(one.buildInfo.agent).toEqual({ name: 'Jenkins', version: '2.440' });

    const file = await get(
      `/artifactory/artifactory-build-info/acme-app/41-${started.getTime()}.json`,
    );
    expect(file.statusCode).toBe(200);
    expect(JSON.parse(file.body).number).toBe('41');
    const repo = (await get('/artifactory/api/repositories/artifactory-build-info')).json();
    expect(repo).toMatchObject({
      key: 'artifactory-build-info',
      rclass: 'local',
      packageType: 'buildinfo',
    });
  });

  it('stores npm and generic builds the same way', async () => {
    const npm = buildInfo({
      name: 'acme-ui',
      number: '7',
      type: 'NPM',
      modules: [
        {
          id: '@acme/ui:2.0.0',
          artifacts: [{ name: 'ui-2.0.0.tgz', content: 'ui tgz' }],
          dependencies: [{ name: 'react:18.2.0', content: 'react', type: 'tgz', scopes: ['prod'] }],
        },
      ],
    });
    const generic = buildInfo({
      name: 'acme-scripts',
      number: '2026.03.01-1',
      modules: [{ id: 'scripts', artifacts: [{ name: 'scripts.zip', content: 'zip' }] }],
    });
    expect((await upload(npm)).statusCode).toBe(204);
    expect((await upload(generic)).statusCode).toBe(204);
    const names = (await get(API)).json().builds.map((b: { uri: string }) => b.uri);
    expect(names).toEqual(expect.arrayContaining(['/acme-ui', '/acme-scripts', '/acme-app']));
    expect((await get(`${API}/acme-scripts/2026.03.01-1`)).json().buildInfo.type).toBe('GENERIC');
  });

  it('answers 404 for a build that does not exist', async () => {
    const response = await get(`${API}/acme-app/999`);
    expect(response.statusCode).toBe(404);
    expect(response.json().errors[0].message).toBe(M.noBuildNumber('acme-app', '999'));
  });
});

describe('linking', () => {
  it("lists on a jar's Builds tab the builds that produced it and those that used it", async () => {
    const consumer = buildInfo({
      name: 'acme-consumer',
      number: '3',
      modules: [
        {
          id: 'consumer',
          dependencies: [{ ...core, name: 'org.acme:app-core:1.0', scopes: ['compile'] }],
        },
      ],
    });
    expect((await upload(consumer)).statusCode).toBe(204);
    const tab = await get(
      '/ui/api/v1/ui/artifactbuilds?repoKey=libs-local&path=org/acme/app-core/1.0/app-core-1.0.jar',
    );
    expect(tab.statusCode, tab.body).toBe(200);
    const { producedBy, usedBy } = tab.json();
    expect(producedBy).toEqual([
      expect.objectContaining({
        name: 'acme-app',
        number: '41',
        moduleID: 'org.acme:app-core:1.0',
      }),
    ]);
    expect(usedBy).toEqual([
      expect.objectContaining({
        name: 'acme-consumer',
        number: '3',
        moduleID: 'consumer',
        scope: 'compile',
      }),
    ]);

    // A dependency stored elsewhere links by its SHA-1 too.
    const guavaTab = (
      await get(
        '/ui/api/v1/ui/artifactbuilds?repoKey=libs-local&path=com/google/guava/guava/33.0/guava-33.0.jar',
      )
    ).json();
    expect(guavaTab.usedBy.map((b: { moduleID: string }) => b.moduleID).sort()).toEqual([
      'org.acme:app-core:1.0',
      'org.acme:app-web:1.0',
    ]);
    const json = await get(
      `/ui/api/v1/ui/artifactbuilds/json?buildName=acme-consumer&buildNumber=3`,
    );
    expect(JSON.parse(json.json().fileContent).name).toBe('acme-consumer');
  });
});

describe('diff', () => {
  it('shows added, removed and changed artifacts, dependencies and properties between two builds', async () => {
    const older = buildInfo({
      name: 'acme-diff',
      number: '1',
      started: new Date('2026-03-02T10:00:00Z'),
      properties: { 'buildInfo.env.BRANCH': 'main', 'buildInfo.env.GONE': 'x' },
      modules: [
        {
          id: 'm',
          artifacts: [
            { name: 'a.jar', content: 'a1' },
            { name: 'gone.jar', content: 'g' },
            { name: 'same.jar', content: 's' },
          ],
          dependencies: [guava, { name: 'old:dep:1', content: 'old', type: 'jar' }],
        },
      ],
    });
    const newer = buildInfo({
      name: 'acme-diff',
      number: '2',
      started: new Date('2026-03-03T10:00:00Z'),
      properties: { 'buildInfo.env.BRANCH': 'release', 'buildInfo.env.NEW': 'y' },
      modules: [
        {
          id: 'm',
          artifacts: [
            { name: 'a.jar', content: 'a2' },
            { name: 'added.jar', content: 'n' },
            { name: 'same.jar', content: 's' },
          ],
          dependencies: [
            { ...guava, content: 'guava 34' },
            { name: 'new:dep:1', content: 'new', type: 'jar' },
          ],
        },
      ],
    });
    expect((await upload(older)).statusCode).toBe(204);
    expect((await upload(newer)).statusCode).toBe(204);
    const diff = (await get(`${API}/acme-diff/2?diff=1`)).json();
    const names = (list: { name: string }[]) => list.map((entry) => entry.name);
    expect(names(diff.artifacts.new)).toEqual(['added.jar']);
    expect(names(diff.artifacts.removed)).toEqual(['gone.jar']);
    expect(names(diff.artifacts.updated)).toEqual(['a.jar']);
    expect(names(diff.artifacts.unchanged)).toEqual(['same.jar']);
    expect(names(diff.dependencies.new)).toEqual(['new:dep:1']);
    expect(names(diff.dependencies.removed)).toEqual(['old:dep:1']);
    expect(names(diff.dependencies.updated)).toEqual([guava.name]);
    expect(names(diff.properties.updated)).toEqual(['buildInfo.env.BRANCH']);
    expect(names(diff.properties.new)).toEqual(['buildInfo.env.NEW']);
    expect(names(diff.properties.removed)).toEqual(['buildInfo.env.GONE']);
  });
  it('answers each entry whole, in the document order, a repeated listing by its last checksums', async () => {
    const file = (name: string, content: string, module: string) => ({
      name,
      type: 'jar',
      ...checksumsOf(content),
      module,
    });
    const older = buildInfo({
      name: 'acme-diff-rows',
      number: '1',
      started: new Date('2026-03-02T10:00:00Z'),
      properties: { 'x.b': '1', 'x.a': '2' },
      modules: [
        {
          id: 'm1',
          artifacts: [
            { name: 'b.jar', content: 'b1' },
            { name: 'a.jar', content: 'a' },
            { name: 'dup.jar', content: 'd1' },
            { name: 'old.jar', content: 'o' },
          ],
        },
        { id: 'm2', artifacts: [{ name: 'a.jar', content: 'a' }] },
      ],
    });
    const newer = buildInfo({
      name: 'acme-diff-rows',
      number: '2',
      started: new Date('2026-03-03T10:00:00Z'),
      properties: { 'x.a': '3', 'x.c': '4' },
      modules: [
        {
          id: 'm1',
          artifacts: [
            { name: 'z.jar', content: 'z' },
            { name: 'a.jar', content: 'a' },
            { name: 'b.jar', content: 'b2' },
            { name: 'dup.jar', content: 'd1' },
            { name: 'dup.jar', content: 'd2' },
          ],
        },
        { id: 'm2', artifacts: [{ name: 'a.jar', content: 'a' }] },
      ],
    });
    // A checksum one side leaves out decides nothing.
    delete (newer.modules[1].artifacts[0] as { sha256?: string }).sha256;
    expect((await upload(older)).statusCode).toBe(204);
    expect((await upload(newer)).statusCode).toBe(204);
    const diff = (await get(`${API}/acme-diff-rows/2?diff=1`)).json();
    expect(diff.artifacts).toEqual({
      new: [file('z.jar', 'z', 'm1')],
      updated: [file('b.jar', 'b2', 'm1'), file('dup.jar', 'd2', 'm1')],
      unchanged: [file('a.jar', 'a', 'm1'), { ...file('a.jar', 'a', 'm2'), sha256: null }],
      removed: [file('old.jar', 'o', 'm1')],
    });
    expect(diff.dependencies).toEqual({ new: [], updated: [], unchanged: [], removed: [] });
    expect(diff.properties).toEqual({
      new: [{ name: 'x.c', value: '4' }],
      updated: [{ name: 'x.a', value: '3' }],
      unchanged: [{ name: 'buildInfo.env.JAVA_HOME', value: '/opt/java' }],
      removed: [{ name: 'x.b', value: '1' }],
    });
  });
});

describe('promotion', () => {
  const promote = (body: object, headers = adminAuth()) =>
    depot.app.inject({ method: 'POST', url: `${API}/promote/acme-app/41`, headers, payload: body });

  it('a dry run checks everything and changes nothing', async () => {
    const response = await promote({
      status: 'Released',
      targetRepo: 'libs-release',
      copy: true,
      dryRun: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().messages).toHaveLength(3);
    expect(
      (await get('/artifactory/libs-release/org/acme/app-core/1.0/app-core-1.0.jar')).statusCode,
    ).toBe(404);
    expect((await get(`${API}/acme-app/41`)).json().buildInfo.statuses).toBeUndefined();
  });

  it('copies the artifacts to the release repository and records the status in the release history', async () => {
    const response = await promote({
      status: 'Released',
      comment: 'tested on staging',
      ciUser: 'jenkins',
      targetRepo: 'libs-release',
      copy: true,
      properties: { 'release.channel': ['stable'] },
    });
    expect(response.statusCode, response.body).toBe(200);
    for (const path of [
      'org/acme/app-core/1.0/app-core-1.0.jar',
      'org/acme/app-web/1.0/app-web-1.0.war',
    ]) {
      expect((await get(`/artifactory/libs-release/${path}`)).statusCode).toBe(200);
      expect((await get(`/artifactory/libs-local/${path}`)).statusCode).toBe(200);
    }
    const properties = (
      await get(
        '/artifactory/api/storage/libs-release/org/acme/app-core/1.0/app-core-1.0.jar?properties',
      )
    ).json();
    expect(properties.properties['release.channel']).toEqual(['stable']);
    // Dependencies were not asked for.
    expect(
      (await get('/artifactory/libs-release/com/google/guava/guava/33.0/guava-33.0.jar'))
        .statusCode,
    ).toBe(404);
    const statuses = (await get(`${API}/acme-app/41`)).json().buildInfo.statuses;
    expect(statuses).toEqual([
      expect.objectContaining({
        status: 'Released',
        comment: 'tested on staging',
        repository: 'libs-release',
        ciUser: 'jenkins',
        user: 'admin',
      }),
    ]);
  });

  it('promotes dependencies of the scopes asked for', async () => {
    const response = await promote({
      targetRepo: 'libs-release',
      copy: true,
      artifacts: false,
      dependencies: true,
      scopes: ['compile'],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(
      (await get('/artifactory/libs-release/com/google/guava/guava/33.0/guava-33.0.jar'))
        .statusCode,
    ).toBe(200);
  });
});

/** Replaces dev's build grant with one over `include` (By Name is `name/**`). */
async function grantDevBuilds(actions: string[], include = ['**'], name = 'dev-builds') {
  const response = await depot.app.inject({
    method: 'PUT',
    url: `/artifactory/api/v2/security/permissions/${name}`,
    headers: adminAuth(),
    payload: {
      build: {
        repositories: ['artifactory-build-info'],
        'include-patterns': include,
        'exclude-patterns': [],
        actions: { users: { dev: actions }, groups: {} },
      },
    },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

describe('permissions', () => {
  it('a user without build read sees no build in lists, reads or the Builds tab', async () => {
    expect((await get(API, dev)).json().builds).toEqual([]);
    expect((await get(`${API}/acme-app`, dev)).statusCode).toBe(404);
    expect((await get(`${API}/acme-app/41`, dev)).statusCode).toBe(404);
    // dev reads the jar itself (the default Anything target), but none of its builds.
    const tab = await get(
      '/ui/api/v1/ui/artifactbuilds?repoKey=libs-local&path=org/acme/app-core/1.0/app-core-1.0.jar',
      dev,
    );
    expect(tab.statusCode, tab.body).toBe(200);
    expect(tab.json()).toEqual({ producedBy: [], usedBy: [] });
    expect(await tabsOf('org/acme/app-core/1.0/app-core-1.0.jar', dev)).not.toContain('Builds');
    expect(
      (await upload(buildInfo({ name: 'dev-build', number: '1', modules: [] }), dev)).statusCode,
    ).toBe(403);
  });

  it('By Name grants read on the builds named, and nothing else', async () => {
    await grantDevBuilds(['read'], ['acme-app/**']);
    expect((await get(API, dev)).json().builds.map((b: { uri: string }) => b.uri)).toEqual([
      '/acme-app',
    ]);
    expect((await get(`${API}/acme-app/41`, dev)).statusCode).toBe(200);
    expect((await get(`${API}/acme-ui/7`, dev)).statusCode).toBe(404);
    const tab = (
      await get(
        '/ui/api/v1/ui/artifactbuilds?repoKey=libs-local&path=org/acme/app-core/1.0/app-core-1.0.jar',
        dev,
      )
    ).json();
    expect(tab.producedBy.map((b: { name: string }) => b.name)).toEqual(['acme-app']);
    expect(tab.usedBy).toEqual([]);
  });

  it('without delete a build cannot be deleted, without deploy none uploaded, without manage none promoted', async () => {
    const refused = await depot.app.inject({
      method: 'DELETE',
      url: `${API}/acme-app?buildNumbers=41`,
      headers: dev,
    });
    expect(refused.statusCode).toBe(403);
    expect((await get(`${API}/acme-app/41`)).statusCode).toBe(200);
    expect(
      (await upload(buildInfo({ name: 'acme-app', number: '42', modules: [] }), dev)).statusCode,
    ).toBe(403);
    const promote = await depot.app.inject({
      method: 'POST',
      url: `${API}/promote/acme-app/41`,
      headers: dev,
      payload: { status: 'Released' },
    });
    expect(promote.statusCode).toBe(403);
    await grantDevBuilds(['write'], ['dev-*/**']);
    expect(
      (await upload(buildInfo({ name: 'dev-build', number: '1', modules: [] }), dev)).statusCode,
    ).toBe(204);
    const deleteRefused = await depot.app.inject({
      method: 'DELETE',
      url: `${API}/dev-build?buildNumbers=1`,
      headers: dev,
    });
    expect(deleteRefused.statusCode).toBe(403);
    await grantDevBuilds(['delete'], ['dev-*/**']);
    const deleted = await depot.app.inject({
      method: 'DELETE',
      url: `${API}/dev-build?buildNumbers=1`,
      headers: dev,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await get(`${API}/dev-build`)).statusCode).toBe(404);
  });

  it("a project's builds live in its own repository, seen by its members only", async () => {
    const project = await depot.app.inject({
      method: 'POST',
      url: '/access/api/v1/projects',
      headers: adminAuth(),
      payload: { project_key: 'shop', display_name: 'Shop' },
    });
    expect(project.statusCode, project.body).toBeLessThan(300);
    const document = buildInfo({ name: 'shop-app', number: '1', modules: [] });
    expect((await upload(document, adminAuth(), '?project=shop')).statusCode).toBe(204);
    expect(
      (await get(`${API}?project=shop`)).json().builds.map((b: { uri: string }) => b.uri),
    ).toEqual(['/shop-app']);
    expect((await get(API)).json().builds.map((b: { uri: string }) => b.uri)).not.toContain(
      '/shop-app',
    );
    expect((await get('/artifactory/api/repositories/shop-build-info')).json().projectKey).toBe(
      'shop',
    );
    // The Builds tab's JSON call finds a project's build by the projectKey its entry carries.
    const json = await get(
      '/ui/api/v1/ui/artifactbuilds/json?buildName=shop-app&buildNumber=1&projectKey=shop',
    );
    expect(json.statusCode, json.body).toBe(200);
    expect(JSON.parse(json.json().fileContent).name).toBe('shop-app');
    // dev's Any grant over artifactory-build-info does not reach the project's builds.
    await grantDevBuilds(['read'], ['**']);
    expect((await get(`${API}?project=shop`, dev)).json().builds).toEqual([]);
    const member = await depot.app.inject({
      method: 'PUT',
      url: '/access/api/v1/projects/shop/users/dev',
      headers: adminAuth(),
      payload: { name: 'dev', roles: ['Viewer'] },
    });
    expect(member.statusCode, member.body).toBeLessThan(300);
    expect(
      (await get(`${API}?project=shop`, dev)).json().builds.map((b: { uri: string }) => b.uri),
    ).toEqual(['/shop-app']);
  });

  it('scopes every build call to the project named by ?project=, and names a project that is not', async () => {
    expect((await get(`${API}/shop-app?project=shop`)).json().buildsNumbers).toMatchObject([
      { uri: '/1' },
    ]);
    expect((await get(`${API}/shop-app`)).statusCode).toBe(404);
    expect((await get(`${API}/shop-app/1?project=shop`)).json().buildInfo.name).toBe('shop-app');
    const pattern = (body: object[], query = '') =>
      depot.app.inject({
        method: 'POST',
        url: `${API}/patternArtifacts${query}`,
        headers: adminAuth(),
        payload: body,
      });
    const inBody = await pattern([{ buildName: 'shop-app', buildNumber: '1', project: 'shop' }]);
    expect(inBody.statusCode, inBody.body).toBe(200);
    expect(inBody.json()[0].buildStarted).toEqual(expect.any(String));
    const inUrl = await pattern(
      [{ buildName: 'shop-app', buildNumber: 'LATEST' }],
      '?project=shop',
    );
    expect(inUrl.json()[0].buildStarted).toEqual(expect.any(String));
    const outside = await pattern([{ buildName: 'shop-app', buildNumber: '1' }]);
    expect(outside.json()[0].buildStarted).toBeUndefined();

    const unknown = M.unknownProject('nope');
    for (const url of [
      `${API}?project=nope`,
      `${API}/shop-app?project=nope`,
      `${API}/shop-app/1?project=nope`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().errors[0].message).toBe(unknown);
    }
    const document = buildInfo({ name: 'nowhere-app', number: '1', modules: [] });
    const refused = await upload(document, adminAuth(), '?project=nope');
    expect(refused.statusCode, refused.body).toBe(404);
    expect(refused.json().errors[0].message).toBe(unknown);
    expect((await get(`${API}/nowhere-app`)).statusCode).toBe(404);
    expect(
      (await pattern([{ buildName: 'shop-app', buildNumber: '1', project: 'nope' }])).statusCode,
    ).toBe(404);
  });
});

describe('retention', () => {
  const day = (n: number) => new Date(Date.UTC(2026, 3, n));
  const retained = (number: string, retention: object, artifact: FileSpec) =>
    buildInfo({
      name: 'acme-nightly',
      number,
      started: day(Number(number)),
      modules: [{ id: 'nightly', artifacts: [artifact] }],
      extra: { buildRetention: retention },
    });

  it('keeps exactly the configured builds and deletes their artifacts, but never one a kept build lists', async () => {
    const shared: FileSpec = { name: 'shared.jar', content: 'shared between 1 and 3' };
    const files: Record<string, FileSpec> = {
      '1': shared,
      '2': { name: 'n2.jar', content: 'nightly 2' },
      '3': shared,
      '4': { name: 'n4.jar', content: 'nightly 4' },
    };
    await deploy('libs-local', 'nightly/1/shared.jar', shared.content, ['acme-nightly', '1']);
    await deploy('libs-local', 'nightly/2/n2.jar', files['2']!.content, ['acme-nightly', '2']);
    await deploy('libs-local', 'nightly/4/n4.jar', files['4']!.content, ['acme-nightly', '4']);
    for (const number of ['1', '2', '3'])
      expect((await upload(retained(number, {}, files[number]!))).statusCode).toBe(204);
    const keepTwo = { count: 2, deleteBuildArtifacts: true, buildNumbersNotToBeDiscarded: [] };
    expect((await upload(retained('4', keepTwo, files['4']!))).statusCode).toBe(204);
    const numbers = (await get(`${API}/acme-nightly`))
      .json()
      .buildsNumbers.map((b: { uri: string }) => b.uri);
    expect(numbers).toEqual(['/4', '/3']);
    expect((await get('/artifactory/libs-local/nightly/2/n2.jar')).statusCode).toBe(404);
    // Build 1 went, but build 3, which stays, lists the same content.
    expect((await get('/artifactory/libs-local/nightly/1/shared.jar')).statusCode).toBe(200);
    expect((await get('/artifactory/libs-local/nightly/4/n4.jar')).statusCode).toBe(200);
  });

  it('keeps the numbers it is told to keep', async () => {
    const keep = { count: 1, buildNumbersNotToBeDiscarded: ['3'] };
    expect((await upload(retained('5', keep, { name: 'n5.jar', content: 'n5' }))).statusCode).toBe(
      204,
    );
    const numbers = (await get(`${API}/acme-nightly`))
      .json()
      .buildsNumbers.map((b: { uri: string }) => b.uri);
    expect(numbers).toEqual(['/5', '/3']);
  });
});

describe('malformed build-info', () => {
  const base = () =>
    buildInfo({ name: 'acme-bad', number: '1', modules: [{ id: 'm', artifacts: [core] }] });
  const cases: [string, (doc: Record<string, unknown>) => void, string, string][] = [
    ['a missing name', (doc) => delete doc.name, 'name', M.required('name')],
    ['a missing number', (doc) => delete doc.number, 'number', M.required('number')],
    ['a name with a .. part', (doc) => (doc.name = 'acme-bad/..'), 'name', M.badName],
    ['a name with an empty part', (doc) => (doc.name = 'acme-bad//x'), 'name', M.badName],
    ['a name ending in a slash', (doc) => (doc.name = 'acme-bad/'), 'name', M.badName],
    [
      'a number that is a number',
      (doc) => (doc.number = 1),
      'number',
      M.wrongType('number', 'string'),
    ],
    [
      'modules that are no list',
      (doc) => (doc.modules = {}),
      'modules',
      M.wrongType('modules', 'array'),
    ],
    [
      'a checksum that is no checksum',
      (doc) =>
        ((doc.modules as { artifacts: { sha1: string }[] }[])[0]!.artifacts[0]!.sha1 = 'xyz'),
      'modules[0].artifacts[0].sha1',
      M.badChecksum('modules[0].artifacts[0].sha1'),
    ],
    [
      'a start that is no time',
      (doc) => (doc.started = 'yesterday'),
      'started',
      M.badStarted('yesterday'),
    ],
  ];
  it.each(cases)(
    '%s is a 400 naming the field, with nothing stored',
    async (_case, spoil, field, message) => {
      const document = base() as Record<string, unknown>;
      spoil(document);
      const response = await upload(document);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0]).toMatchObject({ message, field });
      expect((await get(`${API}/acme-bad`)).statusCode).toBe(404);
      expect(
        (await get('/artifactory/api/storage/artifactory-build-info/acme-bad')).statusCode,
      ).toBe(404);
    },
  );

  it('a document over the size limit is a 400, with nothing stored', async () => {
    const document = base() as Record<string, unknown>;
    document.properties = { huge: 'x'.repeat(17 * 1024 * 1024) };
    const response = await upload(document);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toBe(M.tooLarge(16));
    expect((await get(`${API}/acme-bad`)).statusCode).toBe(404);
  });
});

describe('rename, delete and pattern artifacts', () => {
  it('renames every build of a name, keeping its history', async () => {
    const response = await depot.app.inject({
      method: 'POST',
      url: `${API}/rename/acme-diff?to=acme-compare`,
      headers: adminAuth(),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await get(`${API}/acme-diff`)).statusCode).toBe(404);
    const numbers = (await get(`${API}/acme-compare`))
      .json()
      .buildsNumbers.map((b: { uri: string }) => b.uri);
    expect(numbers).toEqual(['/2', '/1']);
    expect((await get(`${API}/acme-compare/2`)).json().buildInfo.name).toBe('acme-compare');
  });

  it("finds a build's stored artifacts by pattern", async () => {
    const response = await depot.app.inject({
      method: 'POST',
      url: `${API}/patternArtifacts`,
      headers: adminAuth(),
      payload: [
        { buildName: 'acme-app', buildNumber: 'LATEST', artifactPattern: 'libs-local:**/*.jar' },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()[0].patternResults.map((r: { path: string }) => r.path)).toEqual([
      'org/acme/app-core/1.0/app-core-1.0.jar',
    ]);
  });

  it('deletes all builds of a name with their artifacts', async () => {
    const response = await depot.app.inject({
      method: 'DELETE',
      url: `${API}/acme-app?deleteAll=1&artifacts=1`,
      headers: adminAuth(),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await get(`${API}/acme-app`)).statusCode).toBe(404);
    expect(
      (await get('/artifactory/libs-local/org/acme/app-web/1.0/app-web-1.0.war')).statusCode,
    ).toBe(404);
    // The consumer build still lists the core jar as a dependency: it stays.
    expect(
      (await get('/artifactory/libs-local/org/acme/app-core/1.0/app-core-1.0.jar')).statusCode,
    ).toBe(200);
  });
});
