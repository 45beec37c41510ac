import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOTE_MESSAGES } from '../server/modules/remote/messages.ts';
import type { HttpDepot } from './helpers/http-depot.ts';
import {
  startProxyOfScriptedUpstream,
  type ScriptedUpstream,
} from './helpers/scripted-upstream.ts';

/** Global offline mode: no remote repository contacts its upstream; the caches still serve. */
let depot: HttpDepot;
let upstream: ScriptedUpstream;

const generalConfig = (init: RequestInit = {}) =>
  depot.request('/ui/api/v1/ui/generalConfig', {
    ...init,
    headers: { 'content-type': 'application/json' },
  });
const setOffline = (offlineMode: boolean) =>
  generalConfig({ method: 'PUT', body: JSON.stringify({ offlineMode }) });
const get = async (path: string) => {
  const response = await depot.request(`/artifactory/${path}`);
  return { status: response.status, body: await response.text() };
};

beforeAll(async () => {
  // Metadata is stale at once, so only offline mode keeps the upstream from being asked.
  ({ depot, upstream } = await startProxyOfScriptedUpstream('/repo/', {
    retrievalCachePeriodSecs: 0,
  }));
  upstream.file('/repo/tool.txt', 'tool');
  upstream.file('/repo/org/app/maven-metadata.xml', '<metadata/>');
  upstream.file('/repo/later.txt', 'later');
});
afterAll(async () => {
  await Promise.all([depot?.close(), upstream?.close()]);
});

describe('global offline mode', () => {
  it('is off by default and an admin setting', async () => {
    expect((await (await generalConfig()).json()).offlineMode).toBe(false);
    const refused = await depot.request('/ui/api/v1/ui/generalConfig', {
      method: 'PUT',
      headers: { authorization: 'Basic bm9ib2R5Om5vcGU=', 'content-type': 'application/json' },
      body: JSON.stringify({ offlineMode: true }),
    });
    expect(refused.status).toBe(401);
    const bad = await setOffline('yes' as unknown as boolean);
    expect(bad.status).toBe(400);
    expect((await (await generalConfig()).json()).offlineMode).toBe(false);
  });

  it('serves what the caches hold without asking any upstream', async () => {
    expect(await get('proxy/tool.txt')).toEqual({ status: 200, body: 'tool' });
    expect(await get('proxy/org/app/maven-metadata.xml')).toEqual({
      status: 200,
      body: '<metadata/>',
    });
    const asked = upstream.requests.length;

    expect((await (await setOffline(true)).json()).offlineMode).toBe(true);
    expect(await get('proxy/tool.txt')).toEqual({ status: 200, body: 'tool' });
    expect(await get('proxy/org/app/maven-metadata.xml')).toEqual({
      status: 200,
      body: '<metadata/>',
    });
    expect(upstream.requests.length).toBe(asked);
  });

  it('answers a miss with 404 and says why', async () => {
    const asked = upstream.requests.length;
    const miss = await get('proxy/later.txt');
    expect(miss.status).toBe(404);
    expect(JSON.parse(miss.body).errors[0].message).toBe(
      REMOTE_MESSAGES.globalOffline('proxy', 'later.txt'),
    );
    expect(upstream.requests.length).toBe(asked);
  });

  it('lets the upstreams be asked again once it is off', async () => {
    await setOffline(false);
    expect(await get('proxy/later.txt')).toEqual({ status: 200, body: 'later' });
    expect(upstream.hits('/repo/later.txt')).toBe(1);
  });
});
