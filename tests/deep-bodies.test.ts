import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuth,
  createMavenRepository,
  createRepository,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Deeply nested input is a 400 naming the limit, never a stack overflow or a 500 (issue 22,
 * item 12): JSON bodies on every route that takes one, the manifest inside an npm tarball,
 * and a Maven POM.
 */
let depot: TestDepot;
const DEEP = 100_000;
const tooDeep = /^The request body nests deeper than 64 levels \(the limit\) at position \d+$/;

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'deep-local', 'local');
  await createRepository(depot, 'npm-local', 'local', { packageType: 'npm' });
  await createMavenRepository(depot, 'mvn-local', 'local');
});
afterAll(() => depot.close());

const nested = (levels: number, inner = '1') =>
  `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
const DEEP_BODIES = {
  arrays: nested(DEEP),
  objects: `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`,
  'a nested field': `{"name":${nested(DEEP)},"description":"x"}`,
};

/** A concrete URL for a route's pattern: parameters filled with names that exist. */
const concrete = (url: string) =>
  url
    .replace('repositories/:type/:key', 'repositories/local/deep-local')
    .replace(/:repoKey/g, 'npm-local')
    .replace(/groups\/:name/g, 'groups/readers')
    .replace(/:[A-Za-z]+/g, 'deep')
    .replace('*', 'deep');

const send = (method: string, url: string, payload: string, type = 'application/json') =>
  depot.app.inject({
    method: method as 'POST',
    url,
    headers: { ...adminAuth(), 'content-type': type },
    payload,
  });

describe('deeply nested JSON', () => {
  it('is never a 5xx, on every route that takes a body', async () => {
    const routes = depot.app.routeCatalog.filter((route) =>
      ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method),
    );
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const route of routes)
      for (const [shape, body] of Object.entries(DEEP_BODIES)) {
        const response = await send(route.method, concrete(route.url), body);
        if (response.statusCode >= 500)
          failures.push(`${route.method} ${route.url} (${shape}): ${response.statusCode}`);
      }
    expect(failures).toEqual([]);
  });

  it('is refused before it is read, naming the limit and where it was passed', async () => {
    // npm's publish read `name` with String(), which recursed into the nested arrays: a 500.
    const publish = await send(
      'PUT',
      '/artifactory/api/npm/npm-local/pkg',
      DEEP_BODIES['a nested field'],
    );
    expect(publish.statusCode).toBe(400);
    expect(publish.json().errors[0].message).toMatch(tooDeep);
    // `{"name":` opens the first level; the 64th '[' opens the 65th, at position 72.
    expect(publish.json().errors[0].message).toMatch(/at position 72$/);
  });

  it('passes 64 levels to the route, and refuses 65', async () => {
    const body = (levels: number) => `{"name":${nested(levels - 1, '"g"')}}`;
    const within = await send('POST', '/ui/api/v1/ui/groups', body(64));
    expect(within.statusCode).toBe(400);
    expect(within.json().errors[0].message).not.toMatch(tooDeep); // the schema's own answer
    const past = await send('POST', '/ui/api/v1/ui/groups', body(65));
    expect(past.statusCode).toBe(400);
    expect(past.json().errors[0].message).toBe(
      'The request body nests deeper than 64 levels (the limit) at position 72',
    );
    expect(await depot.services.groups.exists('g')).toBe(false);
  });
});

describe('deeply nested documents inside uploads', () => {
  it('refuses an npm tarball whose package.json nests too deep', async () => {
    const pack = tar.pack();
    pack.entry(
      { name: 'package/package.json' },
      `{"name":"deep","version":"1.0.0","config":${nested(DEEP)}}`,
    );
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    const response = await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/npm-local/deep/-/deep-1.0.0.tgz',
      headers: adminAuth(),
      payload: gzipSync(Buffer.concat(chunks)),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toBe(
      'The package.json inside the tarball nests deeper than 64 levels (the limit)',
    );
  });

  it('refuses a POM nested too deep for the XML reader', async () => {
    const pom = `<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1.0</version><description>${'<x>'.repeat(DEEP)}${'</x>'.repeat(DEEP)}</description></project>`;
    const response = await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/mvn-local/g/a/1.0/a-1.0.pom',
      headers: adminAuth(),
      payload: pom,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toMatch(/^The POM could not be read: /);
  });
});
