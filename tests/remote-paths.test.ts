import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpDepot } from './helpers/http-depot.ts';
import {
  startProxyOfScriptedUpstream,
  type ScriptedUpstream,
} from './helpers/scripted-upstream.ts';
import { treeOf, treeViolations } from './helpers/tree-invariants.ts';

let depot: HttpDepot;
let upstream: ScriptedUpstream;

beforeAll(async () => {
  ({ depot, upstream } = await startProxyOfScriptedUpstream('/'));
  // An upstream serving a page at a directory URL, and at the same name without the slash.
  upstream.file('/zz', '<html>listing of zz</html>');
  upstream.file('/zz/', '<html>listing of zz</html>');
  upstream.file('/zz/inner.txt', 'inner');
  // An upstream where a name is both a file and a folder.
  upstream.file('/both', 'both as a file');
  upstream.file('/both/inner.txt', 'inside both');
  upstream.file('/lib/a.jar', 'a jar');
});
afterAll(async () => {
  await depot?.close();
  await upstream?.close();
});

const get = (path: string) => depot.request(`/artifactory/${path}`);

describe('a remote repository and a URL ending in /', () => {
  it('never fetches the directory URL as a file, nor caches it under the folder name', async () => {
    const listing = await get('proxy/zz/');
    expect(listing.status).toBe(404);
    expect(upstream.hits('/zz') + upstream.hits('/zz/')).toBe(0);
    expect((await treeOf(depot, 'proxy')).has('zz')).toBe(false);

    const inner = await get('proxy/zz/inner.txt');
    expect(inner.status).toBe(200);
    expect(await inner.text()).toBe('inner');
    // Now the cache has the folder: its listing, from the cache.
    const cached = await get('proxy/zz/');
    expect(cached.status).toBe(200);
    expect(cached.headers.get('content-type')).toContain('text/html');
    expect(await cached.text()).toContain('inner.txt');
    expect(upstream.hits('/zz') + upstream.hits('/zz/')).toBe(0);
    expect((await treeOf(depot, 'proxy')).get('zz')).toBe('folder');
  });
});

describe("a remote repository's cache", () => {
  it('refuses to cache a file below a cached file (409), keeping what it has', async () => {
    const file = await get('proxy/both');
    expect(await file.text()).toBe('both as a file');
    const below = await get('proxy/both/inner.txt');
    expect(below.status).toBe(409);
    expect((await below.json()).errors[0].message).toBe(
      "'both' is a file: it cannot hold 'both/inner.txt'",
    );
    expect(upstream.hits('/both/inner.txt')).toBe(0);
    const tree = await treeOf(depot, 'proxy');
    expect(tree.get('both')).toMatch(/^[0-9a-f]{64}$/);
    expect(tree.has('both/inner.txt')).toBe(false);
    expect(await treeViolations(depot, 'proxy')).toEqual([]);
  });
});

describe('{remote}-cache names the cache of a remote repository', () => {
  it('downloads what the cache holds, and never asks the upstream', async () => {
    expect((await get('proxy/lib/a.jar')).status).toBe(200);
    const hits = upstream.requests.length;
    const cached = await get('proxy-cache/lib/a.jar');
    expect(cached.status).toBe(200);
    expect(await cached.text()).toBe('a jar');
    upstream.file('/lib/b.jar', 'b jar');
    expect((await get('proxy-cache/lib/b.jar')).status).toBe(404);
    expect(upstream.requests.length).toBe(hits);
  });

  it('answers the storage API, is zapped and deleted from under that key', async () => {
    const info = await depot.request('/artifactory/api/storage/proxy-cache/lib/a.jar');
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ repo: 'proxy-cache', path: '/lib/a.jar' });
    const zap = await depot.request('/ui/api/v1/ui/artifactactions/zap', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ repoKey: 'proxy-cache', path: 'lib' }),
    });
    expect(zap.status, await zap.clone().text()).toBe(200);
    expect((await zap.json()).info).toContain('1 cached file will be checked upstream');
    const deleted = await depot.request('/artifactory/proxy-cache/lib/a.jar', {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(204);
    expect((await treeOf(depot, 'proxy')).has('lib/a.jar')).toBe(false);
  });

  it('is judged by the grants on the remote, for a user who is not an admin', async () => {
    await depot.services.users.create({
      name: 'reader',
      email: 'reader@example.com',
      password: 'reader-pass-1',
    } as never);
    const auth = `Basic ${Buffer.from('reader:reader-pass-1').toString('base64')}`;
    expect((await get('proxy/zz/inner.txt')).status).toBe(200);
    const read = await depot.request('/artifactory/proxy-cache/zz/inner.txt', {
      headers: { authorization: auth },
    });
    expect(read.status).toBe(200);
    const refused = await depot.request('/artifactory/proxy-cache/zz/inner.txt', {
      method: 'DELETE',
      headers: { authorization: auth },
    });
    expect(refused.status).toBe(403);
    expect((await treeOf(depot, 'proxy')).has('zz/inner.txt')).toBe(true);
  });
});
