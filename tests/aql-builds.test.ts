import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInfo, checksumsOf } from './helpers/build-info.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * AQL's builds domain (docs/search.md, "AQL"): `builds.find(...)` by name, number, start,
 * creator, and by the artifacts and dependencies of the builds' modules, filtered by the
 * caller's build permissions before offset and limit, with clear 400s for bad queries.
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
      modules: [{ id: 'web-app', artifacts: [{ name: 'web-2.war', content: 'war two' }] }],
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
  const grant = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/v2/security/permissions/dev-web-builds',
    headers: adminAuth(),
    payload: {
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
