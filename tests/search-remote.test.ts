import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { startScriptedUpstream, type ScriptedUpstream } from './helpers/scripted-upstream.ts';
import {
  adminAuth,
  createRepository,
  devWithOnlyGrant,
  startTestDepot,
  TEST_ADMIN_PASSWORD,
  basic,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * The Remote search: the upstreams of remote repositories asked on loopback, an npm registry
 * (scripted) by its search API and another Depot by its artifact search with the remote's
 * credentials; an unreachable upstream is named, not fatal; results respect read permission.
 */
let depot: TestDepot;
let upstreamDepot: HttpDepot;
let registry: ScriptedUpstream;

async function remoteSearch(searchKey: string, headers: object = adminAuth()) {
  const response = await depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/artifactsearch/remote',
    headers: { ...headers },
    payload: { searchKey, search: 'remote' },
  });
  return { status: response.statusCode, body: response.json() };
}

beforeAll(async () => {
  [depot, upstreamDepot, registry] = await Promise.all([
    startTestDepot(),
    startHttpDepot(),
    startScriptedUpstream(),
  ]);
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
  registry.handle('/-/v1/search?text=left&size=250', (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        objects: [
          { package: { name: 'left-pad', version: '1.3.0' } },
          { package: { name: '@acme/left', version: '0.1.0' } },
          { package: { name: 42 } },
        ],
      }),
    );
  });
  await createRepository(upstreamDepot, 'tools-local', 'local');
  for (const path of ['bin/left-tool.bin', 'bin/right-tool.bin'])
    await upstreamDepot.request(`/artifactory/tools-local/${path}`, {
      method: 'PUT',
      headers: adminAuth(),
      body: path,
    });
  await createRepository(depot, 'npm-remote', 'remote', {
    packageType: 'npm',
    url: `${registry.base}/`,
  });
  await createRepository(depot, 'tools-remote', 'remote', {
    url: `${upstreamDepot.base}/artifactory/tools-local/`,
    username: 'admin',
    password: TEST_ADMIN_PASSWORD,
  });
  await createRepository(depot, 'dead-remote', 'remote', {
    packageType: 'npm',
    url: 'http://127.0.0.1:9/',
  });
  // A generic upstream that is neither npm nor a Depot cannot be searched, so it is not asked.
  await createRepository(depot, 'plain-remote', 'remote', { url: `${registry.base}/files/` });
  await devWithOnlyGrant(depot, {
    repositories: ['npm-remote'],
    include: ['**'],
    exclude: [],
    actions: ['read'],
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([depot?.close(), upstreamDepot?.close(), registry?.close()]);
});

describe('the Remote search', () => {
  it('asks npm registries and other Depots, and names the upstreams that failed', async () => {
    const { status, body } = await remoteSearch('left');
    expect(status).toBe(200);
    expect(body.results).toEqual([
      {
        repoKey: 'npm-remote',
        path: 'left-pad/-/left-pad-1.3.0.tgz',
        name: 'left-pad-1.3.0.tgz',
        packageName: 'left-pad',
        version: '1.3.0',
      },
      {
        repoKey: 'npm-remote',
        path: '@acme/left/-/left-0.1.0.tgz',
        name: 'left-0.1.0.tgz',
        packageName: '@acme/left',
        version: '0.1.0',
      },
      { repoKey: 'tools-remote', path: 'bin/left-tool.bin', name: 'left-tool.bin' },
    ]);
    expect(body.unavailable).toEqual(['dead-remote']);
    expect(body.hasMore).toBe(false);
    expect(registry.requests.some((r) => r.path.startsWith('/files/'))).toBe(false);
  });

  it('serves a found file through the remote repository', async () => {
    const response = await depot.app.inject({
      method: 'GET',
      url: '/artifactory/tools-remote/bin/left-tool.bin',
      headers: adminAuth(),
    });
    expect([response.statusCode, response.body]).toEqual([200, 'bin/left-tool.bin']);
  });

  it('asks only the upstreams of repositories the caller may read', async () => {
    const { body } = await remoteSearch('left', { authorization: basic('dev', 'dev-pass-1') });
    expect(body.results.map((r: { repoKey: string }) => r.repoKey)).toEqual([
      'npm-remote',
      'npm-remote',
    ]);
    expect(body.unavailable).toEqual([]);
  });

  it('refuses empty and wildcard-only terms', async () => {
    expect((await remoteSearch('*')).status).toBe(400);
    expect((await remoteSearch('')).status).toBe(400);
  });
});
