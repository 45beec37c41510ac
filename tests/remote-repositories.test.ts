import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REMOTE_MESSAGES } from '../server/modules/remote/routes.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';

/** The upstream is a second Depot on loopback; faults come from a small server of our own. */
let upstream: HttpDepot;
let depot: HttpDepot;
let faulty: Server;
let faultyBase: string;

function startFaultyServer(): Promise<Server> {
  const server = createServer((request, response) => {
    switch (request.url) {
      case '/files/broken.bin':
        response.writeHead(500).end('internal upstream error');
        return;
      case '/files/slow.bin':
        setTimeout(() => response.writeHead(200).end('too late'), 2000);
        return;
      case '/files/truncated.bin':
        response.writeHead(200, { 'content-length': '100000' });
        response.write('only the first bytes');
        setTimeout(() => response.destroy(), 50);
        return;
      case '/files/metadata':
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      default:
        response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const createRepo = (target: HttpDepot, key: string, body: object) =>
  target.request(`/artifactory/api/repositories/${key}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const get = async (path: string) => {
  const response = await depot.request(`/artifactory/${path}`);
  return { status: response.status, body: await response.text() };
};
const tempFiles = () => readdirSync(join(depot.config.home, 'filestore', '_tmp'));

beforeAll(async () => {
  [upstream, depot, faulty] = await Promise.all([
    startHttpDepot(),
    startHttpDepot(),
    startFaultyServer(),
  ]);
  faultyBase = `http://127.0.0.1:${(faulty.address() as AddressInfo).port}`;
  await upstream.services.securityConfig.update({ anonAccessEnabled: true });
  await createRepo(upstream, 'libs', { rclass: 'local', packageType: 'generic' });
  for (const [path, body] of [
    ['libs/tools/hammer.txt', 'hammer v1'],
    ['libs/tools/saw.txt', 'saw'],
  ]) {
    await upstream.request(`/artifactory/${path}`, { method: 'PUT', body });
  }
  const upstreamUrl = `${upstream.base}/artifactory/libs/`;
  await createRepo(depot, 'libs-remote', {
    rclass: 'remote',
    packageType: 'generic',
    url: upstreamUrl,
  });
  await createRepo(depot, 'eager-remote', {
    rclass: 'remote',
    packageType: 'generic',
    url: upstreamUrl,
    missedRetrievalCachePeriodSecs: 0,
  });
  await createRepo(depot, 'offline-remote', {
    rclass: 'remote',
    packageType: 'generic',
    url: upstreamUrl,
    offline: true,
  });
  await createRepo(depot, 'faulty-remote', {
    rclass: 'remote',
    packageType: 'generic',
    url: `${faultyBase}/files/`,
    socketTimeoutMillis: 500,
    // Each fault below must reach the upstream, not the assumed-offline state of the last.
    assumedOfflinePeriodSecs: 0,
  });
  await createRepo(depot, 'local', { rclass: 'local', packageType: 'generic' });
  await createRepo(depot, 'all', {
    rclass: 'virtual',
    packageType: 'generic',
    repositories: ['local', 'libs-remote'],
  });
});
afterAll(async () => {
  await Promise.all([
    depot?.close(),
    upstream?.close(),
    new Promise((resolve) => faulty?.close(resolve)),
  ]);
});

describe('remote repositories', () => {
  it('refuse private upstream addresses until an admin allows them', async () => {
    const refused = await get('libs-remote/tools/hammer.txt');
    expect(refused.status).toBe(502);
    expect(JSON.parse(refused.body).errors[0].message).toMatch(
      /127\.0\.0\.1 is private or reserved/,
    );
    await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
  });

  it('fetch from the upstream once, then serve from the cache', async () => {
    expect(await get('libs-remote/tools/hammer.txt')).toEqual({ status: 200, body: 'hammer v1' });
    await upstream.request('/artifactory/libs/tools/hammer.txt', { method: 'DELETE' });
    expect(await get('libs-remote/tools/hammer.txt')).toEqual({ status: 200, body: 'hammer v1' });
    const info = await (
      await depot.request('/artifactory/api/storage/libs-remote/tools/hammer.txt')
    ).json();
    expect(info).toMatchObject({ repo: 'libs-remote', size: '9' });
  });

  it('serve through a virtual repository that includes them', async () => {
    expect(await get('all/tools/saw.txt')).toEqual({ status: 200, body: 'saw' });
  });

  it('remember a miss for the missed-retrieval period', async () => {
    expect((await get('libs-remote/tools/drill.txt')).status).toBe(404);
    expect((await get('eager-remote/tools/drill.txt')).status).toBe(404);
    await upstream.request('/artifactory/libs/tools/drill.txt', { method: 'PUT', body: 'drill' });
    expect((await get('libs-remote/tools/drill.txt')).status).toBe(404);
    expect(await get('eager-remote/tools/drill.txt')).toEqual({ status: 200, body: 'drill' });
  });

  it('answer only from the cache when offline', async () => {
    expect((await get('offline-remote/tools/saw.txt')).status).toBe(404);
  });

  it('report an upstream failure clearly and cache nothing', async () => {
    const broken = await get('faulty-remote/broken.bin');
    expect(broken.status).toBe(502);
    expect(JSON.parse(broken.body).errors[0].message).toBe(
      "Remote repository 'faulty-remote': the upstream answered 500 for /files/broken.bin",
    );
    const slow = await get('faulty-remote/slow.bin');
    expect(slow.status).toBe(504);
    const truncated = await get('faulty-remote/truncated.bin');
    expect(truncated.status).toBe(502);
    const listing = await (
      await depot.request('/artifactory/api/storage/faulty-remote?list&deep=1')
    ).json();
    expect(listing.files).toEqual([]);
    expect(tempFiles()).toEqual([]);
  });

  it('re-check a redirect target: no way to the metadata address', async () => {
    const response = await get('faulty-remote/metadata');
    expect(response.status).toBe(502);
    expect(JSON.parse(response.body).errors[0].message).toMatch(/169\.254\.169\.254/);
  });

  it("test a URL before it is saved (the form's Test button)", async () => {
    const test = (url: string) =>
      depot.request('/ui/api/v1/ui/admin/repositories/testremote', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url, socketTimeoutMillis: 500 }),
      });
    const ok = await test(`${upstream.base}/artifactory/libs/`);
    expect(await ok.json()).toEqual({ info: TEST_REMOTE_MESSAGES.success });
    const down = await test(`${faultyBase}/files/broken.bin`);
    expect(down.status).toBe(400);
    expect((await down.json()).errors[0].message).toBe(
      TEST_REMOTE_MESSAGES.failed('the server answered 500'),
    );
    const metadata = await test('http://169.254.169.254/latest/');
    expect((await metadata.json()).errors[0].message).toMatch(
      /^Connection failed: The upstream address 169\.254\.169\.254/,
    );
  });

  it('refuse deploys', async () => {
    expect(
      (await depot.request('/artifactory/libs-remote/x.txt', { method: 'PUT', body: 'x' })).status,
    ).toBe(400);
  });
});
