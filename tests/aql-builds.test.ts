import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInfo, checksumsOf } from './helpers/build-info.ts';
import {
  adminAuth,
  basic,
  createRepository,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';
import { parseAql } from '../server/modules/search/aql-parser.ts';
import { SEARCH_MESSAGES } from '../server/modules/search/messages.ts';

/**
 * AQL's builds domain (docs/search.md, "AQL"): `builds.find(...)` by name, number, start,
 * creator, and by the artifacts and dependencies of the builds' modules, filtered by the
 * caller's build permissions before offset and limit, with clear 400s for bad queries; and
 * the relations between items and builds both ways (`artifact.module.build.name`,
 * `module.artifact.item.repo`), answering only builds and items the caller may read.
 */
let depot: TestDepot;
const DEV = { authorization: basic('dev', 'dev-pass-1') };
const t = (day: number) => new Date(Date.UTC(2026, 3, day, 8));

async function aql(query: string, headers: Record<string, string> = adminAuth()) {
  const response = await depot.app.inject({
    method: 'POST',
    url: '/artifactory/api/search/aql',
    headers: { ...headers, 'content-type': 'text/plain' },
    payload: query,
  });
  return { status: response.statusCode, body: response.json() };
}
const names = (body: { results: Record<string, string>[] }) =>
  body.results.map((r) => `${r['build.name']}#${r['build.number']}`);
const paths = (body: { results: Record<string, string>[] }) =>
  body.results.map((r) => `${r.repo}/${r.path}/${r.name}`);

/** Stored items whose content the builds list: web-2.war sits where dev may not read. */
const STORED = [
  ['libs-local', 'web/web-1.war', 'war one'],
  ['private-local', 'web/web-2.war', 'war two'],
  ['libs-local', 'lib/core-1.jar', 'core one'],
  ['private-local', 'svc/svc.jar', 'svc'],
  ['libs-local', 'docs/readme.txt', 'no build lists this'],
];

beforeAll(async () => {
  depot = await startTestDepot();
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  } as never);
  const documents = [
    buildInfo({
      name: 'web',
      number: '1',
      started: t(1),
      modules: [
        {
          id: 'web-app',
          artifacts: [{ name: 'web-1.war', content: 'war one' }],
          dependencies: [{ name: 'org.lib:core:1', content: 'core one', scopes: ['compile'] }],
        },
      ],
    }),
    buildInfo({
      name: 'web',
      number: '2',
      started: t(2),
      modules: [
        {
          id: 'web-app',
          artifacts: [{ name: 'web-2.war', content: 'war two' }],
          // Stored nowhere: it gives web #2 a dependency with scopes and no item.
          dependencies: [{ name: 'junit:junit:4', content: 'junit', scopes: ['test', 'runtime'] }],
        },
      ],
    }),
    buildInfo({
      name: 'secret-service',
      number: '7',
      started: t(3),
      modules: [
        {
          id: 'svc',
          artifacts: [{ name: 'svc.jar', content: 'svc' }],
          dependencies: [{ name: 'org.lib:core:1', content: 'core one' }],
        },
      ],
    }),
  ];
  for (const document of documents) {
    const response = await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/api/build',
      headers: adminAuth(),
      payload: document,
    });
    expect(response.statusCode, response.body).toBe(204);
  }
  await createRepository(depot, 'libs-local', 'local');
  await createRepository(depot, 'private-local', 'local');
  for (const [repo, path, content] of STORED) {
    const put = await depot.app.inject({
      method: 'PUT',
      url: `/artifactory/${repo}/${path}`,
      headers: adminAuth(),
      payload: content,
    });
    expect(put.statusCode, put.body).toBe(201);
  }
  // dev reads what the grant below gives, not what the default targets give every user.
  for (const target of ['Anything', 'Any Remote']) {
    const dropped = await depot.app.inject({
      method: 'DELETE',
      url: `/artifactory/api/v2/security/permissions/${encodeURIComponent(target)}`,
      headers: adminAuth(),
    });
    expect(dropped.statusCode, dropped.body).toBeLessThan(300);
  }
  const grant = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/v2/security/permissions/dev-web-builds',
    headers: adminAuth(),
    payload: {
      repo: {
        repositories: ['libs-local'],
        'include-patterns': ['**'],
        'exclude-patterns': [],
        actions: { users: { dev: ['read'] }, groups: {} },
      },
      build: {
        repositories: ['artifactory-build-info'],
        'include-patterns': ['web/**'],
        'exclude-patterns': [],
        actions: { users: { dev: ['read'] }, groups: {} },
      },
    },
  });
  expect(grant.statusCode, grant.body).toBeLessThan(300);
});

afterAll(async () => {
  await depot?.close();
});

describe('builds.find', () => {
  it('finds by name and number, sorted, with the default fields', async () => {
    const { status, body } = await aql(
      'builds.find({"name":"web","number":{"$gte":"1"}}).sort({"$desc":["number"]})',
    );
    expect(status).toBe(200);
    expect(names(body)).toEqual(['web#2', 'web#1']);
    expect(body.results[1]).toEqual({
      'build.name': 'web',
      'build.number': '1',
      'build.started': t(1).toISOString(),
      'build.created': expect.any(String),
      'build.created_by': 'admin',
      'build.url': 'https://ci.example.com/job/web/1/',
    });
    expect(body.range).toEqual({ start_pos: 0, end_pos: 2, total: 2 });
  });

  it('matches names with wildcards, starts by time, creators, and includes chosen fields', async () => {
    const matched = await aql('builds.find({"name":{"$match":"sec*"}}).include("name")');
    expect(matched.body.results).toEqual([{ 'build.name': 'secret-service' }]);
    const after = await aql(
      `builds.find({"started":{"$gt":"${t(1).toISOString()}"}}).sort({"$asc":["started"]})`,
    );
    expect(names(after.body)).toEqual(['web#2', 'secret-service#7']);
    const byCreator = await aql('builds.find({"created_by":"nobody"})');
    expect(byCreator.body.results).toEqual([]);
  });

  it('finds the builds that produced an artifact and those that used a dependency', async () => {
    const produced = await aql(
      `builds.find({"module.artifact.sha1":"${checksumsOf('war two').sha1}"})`,
    );
    expect(names(produced.body)).toEqual(['web#2']);
    const used = await aql(
      'builds.find({"module.dependency.name":"org.lib:core:1"}).sort({"$asc":["name"]})',
    );
    expect(names(used.body)).toEqual(['secret-service#7', 'web#1']);
    const either = await aql(
      'builds.find({"$or":[{"module.artifact.name":"svc.jar"},{"number":"2"}]}).sort({"$asc":["number"]})',
    );
    expect(names(either.body)).toEqual(['web#2', 'secret-service#7']);
  });

  it("finds builds by their dependencies' scopes, one scope at a time", async () => {
    const compile = await aql('builds.find({"module.dependency.scope":"compile"})');
    expect(compile.status, JSON.stringify(compile.body)).toBe(200);
    expect(names(compile.body)).toEqual(['web#1']);
    const matched = await aql('builds.find({"dependency.scope":{"$match":"run*"}})');
    expect(names(matched.body)).toEqual(['web#2']);
    // web #2's one dependency is in test and runtime: in the test scope, so not $ne "test".
    const notTest = await aql(
      'builds.find({"module.dependency.scope":{"$ne":"test"}}).sort({"$asc":["number"]})',
    );
    expect(names(notTest.body)).toEqual(['web#1', 'secret-service#7']);
    // One dependency row holds every comparison: core (compile) is not junit.
    const oneRow = await aql(
      'builds.find({"module.dependency.scope":"compile","module.dependency.name":"junit:junit:4"})',
    );
    expect(names(oneRow.body)).toEqual([]);
    const hidden = await aql(
      'builds.find({"module.dependency.scope":{"$ne":"compile"}}).sort({"$asc":["number"]})',
      DEV,
    );
    expect(names(hidden.body)).toEqual(['web#2']);
  });

  it('answers only the builds the caller may read, before offset and limit', async () => {
    const all = await aql('builds.find().sort({"$desc":["started"]})', DEV);
    expect(all.status).toBe(200);
    expect(names(all.body)).toEqual(['web#2', 'web#1']);
    const paged = await aql('builds.find().sort({"$desc":["started"]}).offset(1).limit(1)', DEV);
    expect(names(paged.body)).toEqual(['web#1']);
    const hidden = await aql('builds.find({"module.dependency.name":"org.lib:core:1"})', DEV);
    expect(names(hidden.body)).toEqual(['web#1']);
    const anonymous = await aql('builds.find()', {});
    expect([401, 403]).toContain(anonymous.status);
  });

  it.each([
    ['an unknown field', 'builds.find({"colour":"red"})', 'unknown field "colour"'],
    ['an unknown operator', 'builds.find({"name":{"$like":"x"}})', 'unknown operator "$like"'],
    ['a time that is no time', 'builds.find({"started":{"$gt":"soon"}})', 'expected a time'],
    ['a sort by a join', 'builds.find().sort({"$asc":["module.name"]})', 'cannot sort by'],
  ])('refuses %s with a 400 that says why', async (_case, query, words) => {
    const { status, body } = await aql(query);
    expect(status).toBe(400);
    expect(body.errors[0].message).toContain(words);
  });
});

describe('items and builds, related', () => {
  it('finds the items a build produced, its criteria holding for one build', async () => {
    const one = await aql(
      'items.find({"artifact.module.build.name":"web","artifact.module.build.number":"1"})',
    );
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(paths(one.body)).toEqual(['libs-local/web/web-1.war']);
    const all = await aql(
      'items.find({"artifact.module.build.name":"web"}).sort({"$asc":["name"]})',
    );
    expect(paths(all.body)).toEqual(['libs-local/web/web-1.war', 'private-local/web/web-2.war']);
    const byModule = await aql('items.find({"artifact.module.name":"svc"})');
    expect(paths(byModule.body)).toEqual(['private-local/svc/svc.jar']);
  });

  it('finds the items a build used, and joins name and number within one build', async () => {
    const used = await aql('items.find({"dependency.module.build.name":"web"})');
    expect(paths(used.body)).toEqual(['libs-local/lib/core-1.jar']);
    // core-1.jar is used by web #1 and by secret-service #7, by no build "web" numbered 7.
    const crossed = await aql(
      'items.find({"dependency.module.build.name":"web","dependency.module.build.number":"7"})',
    );
    expect(crossed.status).toBe(200);
    expect(paths(crossed.body)).toEqual([]);
    const either = await aql(
      'items.find({"$or":[{"dependency.module.build.number":"7"},{"artifact.module.build.number":"1"}]}).sort({"$asc":["name"]})',
    );
    expect(paths(either.body)).toEqual(['libs-local/lib/core-1.jar', 'libs-local/web/web-1.war']);
  });

  it('finds the items builds used in a scope, the scope holding in the same build', async () => {
    const compile = await aql('items.find({"dependency.scope":"compile"})');
    expect(compile.status, JSON.stringify(compile.body)).toBe(200);
    expect(paths(compile.body)).toEqual(['libs-local/lib/core-1.jar']);
    // secret-service #7 uses core-1.jar without a scope; web #1 uses it in compile.
    const crossed = await aql(
      'items.find({"dependency.scope":"compile","dependency.module.build.name":"secret-service"})',
    );
    expect(paths(crossed.body)).toEqual([]);
    const unscoped = await aql('items.find({"dependency.scope":{"$nmatch":"*"}})');
    expect(paths(unscoped.body)).toEqual(['libs-local/lib/core-1.jar']);
    // dev reads core-1.jar and web #1, not secret-service #7, its only use without a scope.
    const hidden = await aql('items.find({"dependency.scope":{"$nmatch":"*"}})', DEV);
    expect(hidden.status).toBe(200);
    expect(paths(hidden.body)).toEqual([]);
    const readable = await aql('items.find({"dependency.scope":{"$eq":"compile"}})', DEV);
    expect(paths(readable.body)).toEqual(['libs-local/lib/core-1.jar']);
  });

  it('relates items only to builds the caller may read', async () => {
    const readable = await aql('items.find({"dependency.module.build.name":"web"})', DEV);
    expect(paths(readable.body)).toEqual(['libs-local/lib/core-1.jar']);
    // dev reads core-1.jar, but not the build secret-service: the relation must not tell.
    const hidden = await aql('items.find({"dependency.module.build.name":"secret-service"})', DEV);
    expect(hidden.status).toBe(200);
    expect(paths(hidden.body)).toEqual([]);
    const any = await aql('items.find({"dependency.module.name":{"$match":"*"}})', DEV);
    expect(paths(any.body)).toEqual(['libs-local/lib/core-1.jar']);
  });

  it('finds the builds whose artifacts or dependencies are stored items', async () => {
    const inLibs = await aql(
      'builds.find({"module.artifact.item.repo":"libs-local"}).sort({"$asc":["number"]})',
    );
    expect(inLibs.status, JSON.stringify(inLibs.body)).toBe(200);
    expect(names(inLibs.body)).toEqual(['web#1']);
    const inPrivate = await aql(
      'builds.find({"module.artifact.item.repo":"private-local"}).sort({"$asc":["number"]})',
    );
    expect(names(inPrivate.body)).toEqual(['web#2', 'secret-service#7']);
    const users = await aql(
      'builds.find({"module.dependency.item.name":"core-1.jar"}).sort({"$asc":["name"]})',
    );
    expect(names(users.body)).toEqual(['secret-service#7', 'web#1']);
    const none = await aql('builds.find({"module.artifact.item.name":"readme.txt"})');
    expect(names(none.body)).toEqual([]);
  });

  it('relates builds only to items the caller may read', async () => {
    const users = await aql('builds.find({"module.dependency.item.name":"core-1.jar"})', DEV);
    expect(names(users.body)).toEqual(['web#1']);
    // dev reads the build web #2, not private-local, which holds its war.
    const hidden = await aql('builds.find({"module.artifact.item.repo":"private-local"})', DEV);
    expect(hidden.status).toBe(200);
    expect(names(hidden.body)).toEqual([]);
    const readable = await aql('builds.find({"module.artifact.item.repo":"libs-local"})', DEV);
    expect(names(readable.body)).toEqual(['web#1']);
  });

  it.each([
    [
      'an unknown build field',
      'items.find({"artifact.module.build.colour":"red"})',
      'unknown field "artifact.module.build.colour"',
    ],
    [
      'a time that is no time',
      'items.find({"artifact.module.build.started":{"$gt":"soon"}})',
      'expected a time',
    ],
    [
      'a scope of an artifact (only dependencies have scopes)',
      'items.find({"artifact.scope":"compile"})',
      'unknown field "artifact.scope"',
    ],
    [
      "a scope of a module's artifact",
      'builds.find({"module.artifact.scope":"compile"})',
      'unknown field "module.artifact.scope"',
    ],
    [
      'an unknown item field',
      'builds.find({"module.artifact.item.colour":"red"})',
      'unknown field',
    ],
  ])('refuses %s with a 400 that says why', async (_case, query, words) => {
    const { status, body } = await aql(query);
    expect(status).toBe(400);
    expect(body.errors[0].message).toContain(words);
  });

  it('is refused where only items are read (retention, the archive search)', () => {
    expect(() =>
      parseAql('items.find({"artifact.module.build.name":"web"})', {
        maxBytes: 65536,
        maxCriteria: 100,
      }),
    ).toThrow(SEARCH_MESSAGES.aqlBuildRelationsHere);
  });
});
