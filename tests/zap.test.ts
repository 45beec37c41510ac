import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_MESSAGES } from '../server/modules/artifact-actions/messages.ts';
import { basic } from './helpers/test-app.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { startScriptedUpstream, type ScriptedUpstream } from './helpers/scripted-upstream.ts';

/**
 * Zapping caches from the tree (spec 02 §4 actions zap and zapVirtual): cached metadata is
 * checked upstream again on its next request, and paths the upstream was missing are asked
 * for again, instead of waiting out retrievalCachePeriodSecs and the missed-retrieval period.
 */
let depot: HttpDepot;
let upstream: ScriptedUpstream;
const METADATA = '/repo/org/app/maven-metadata.xml';
const MISSING = '/repo/org/app/2.0/app-2.0.pom';

const json = (body: object) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const zap = (action: 'zap' | 'zapVirtual', repoKey: string, path: string, init = {}) =>
  depot.request(`/ui/api/v1/ui/artifactactions/${action}`, {
    ...json({ repoKey, path }),
    ...init,
  });
const get = async (path: string) => (await depot.request(`/artifactory/${path}`)).status;

/** A file is streamed to its client before the cache records it: wait for the record. */
async function waitForCacheRecord(repoKey: string, path: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { rows } = await sql<{ n: string }>`
      select count(*)::text as n from remote_cache_entries e
      join nodes n on n.id = e.node_id join repositories r on r.id = n.repository_id
      where r.key = ${repoKey} and n.path = ${path}`.execute(depot.db);
    if (rows[0].n === '1') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${repoKey}/${path} was never recorded in the cache`);
}

beforeAll(async () => {
  [depot, upstream] = await Promise.all([startHttpDepot(), startScriptedUpstream()]);
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
  upstream.file(METADATA, '<metadata><version>1.0</version></metadata>');
  const create = (key: string, body: object) =>
    depot.request(`/artifactory/api/repositories/${key}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect(
    (
      await create('maven-proxy', {
        rclass: 'remote',
        packageType: 'maven',
        url: `${upstream.base}/repo/`,
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await create('maven-all', {
        rclass: 'virtual',
        packageType: 'maven',
        repositories: ['maven-proxy'],
      })
    ).status,
  ).toBe(200);
  expect((await create('libs-local', { rclass: 'local', packageType: 'maven' })).status).toBe(200);
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-12',
  });
});
afterAll(async () => {
  await Promise.all([depot?.close(), upstream?.close()]);
});

describe('zapping a remote cache', () => {
  it('has cached metadata checked upstream again on its next request', async () => {
    expect(await get('maven-proxy/org/app/maven-metadata.xml')).toBe(200);
    await waitForCacheRecord('maven-proxy', 'org/app/maven-metadata.xml');
    expect(await get('maven-proxy/org/app/maven-metadata.xml')).toBe(200);
    expect(upstream.hits(METADATA)).toBe(1); // fresh: served from the cache

    const zapped = await zap('zap', 'maven-proxy', 'org');
    expect(zapped.status).toBe(200);
    expect((await zapped.json()).info).toBe(ACTION_MESSAGES.zapped('maven-proxy/org', 1));
    expect(await get('maven-proxy/org/app/maven-metadata.xml')).toBe(200);
    expect(upstream.hits(METADATA)).toBe(2);
    expect(upstream.requests.at(-1)!.headers['if-none-match']).toBeDefined(); // conditional
  });

  it('forgets what the upstream was missing', async () => {
    expect(await get('maven-proxy/org/app/2.0/app-2.0.pom')).toBe(404);
    expect(await get('maven-proxy/org/app/2.0/app-2.0.pom')).toBe(404);
    expect(upstream.hits(MISSING)).toBe(1); // the miss is remembered
    upstream.file(MISSING, '<project/>');
    expect((await zap('zap', 'maven-proxy', '')).status).toBe(200);
    expect(await get('maven-proxy/org/app/2.0/app-2.0.pom')).toBe(200);
    expect(upstream.hits(MISSING)).toBe(2);
  });

  it('zaps a virtual repository through its remote members', async () => {
    await waitForCacheRecord('maven-proxy', 'org/app/maven-metadata.xml');
    const before = upstream.hits(METADATA);
    const zapped = await zap('zapVirtual', 'maven-all', '');
    expect((await zapped.json()).info).toBe(ACTION_MESSAGES.zapped('maven-all/', 2));
    expect(await get('maven-all/org/app/maven-metadata.xml')).toBe(200);
    expect(upstream.hits(METADATA)).toBe(before + 1);
  });

  it('is offered to admins on remote and virtual roots, refused elsewhere and to others', async () => {
    const offer = async (repoKey: string, authorization?: string) => {
      const response = await depot.request('/ui/api/v1/ui/treebrowser/tabsAndActions', {
        ...json({ type: 'repository', repoKey, path: '' }),
        ...(authorization
          ? { headers: { 'content-type': 'application/json', authorization } }
          : {}),
      });
      return ((await response.json()).actions as { name: string }[]).map((a) => a.name);
    };
    expect(await offer('maven-proxy')).toContain('zap');
    expect(await offer('maven-all')).toContain('zapVirtual');
    expect(await offer('libs-local')).not.toContain('zap');
    expect(await offer('maven-proxy', basic('dev', 'dev-pass-12'))).not.toContain('zap');

    const wrongKind = await zap('zap', 'libs-local', '');
    expect(wrongKind.status).toBe(400);
    expect((await zap('zapVirtual', 'maven-proxy', '')).status).toBe(400);
    expect((await zap('zap', 'nope', '')).status).toBe(404);
    const asDev = await zap('zap', 'maven-proxy', '', {
      headers: { 'content-type': 'application/json', authorization: basic('dev', 'dev-pass-12') },
    });
    expect(asDev.status).toBe(403);
  });
});
