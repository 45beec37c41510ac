import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_KEY_FILE, SecretBox, UndecryptableSecret } from '../server/crypto/secret-box.ts';
import { SERVICE_LOG_FILE } from '../server/logger.ts';
import { TEST_REMOTE_MESSAGES } from '../server/modules/remote/routes.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { startTestDepot } from './helpers/test-app.ts';

/**
 * Upstream credentials of remote repositories: the upstream is a second Depot with anonymous
 * access off, so only the right basic auth reads it.
 */
const MIRROR_PASSWORD = 'mirror-Secret-4711';
let upstream: HttpDepot;
let depot: HttpDepot;
let redirector: Server;
let storageHost: Server;
const seen: { redirector: IncomingHttpHeaders[]; storageHost: IncomingHttpHeaders[] } = {
  redirector: [],
  storageHost: [],
};

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

const saveRepo = (key: string, body: object, method = 'PUT') =>
  depot.request(`/artifactory/api/repositories/${key}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const get = async (path: string) => {
  const response = await depot.request(`/artifactory/${path}`);
  return { status: response.status, body: await response.text() };
};

beforeAll(async () => {
  [upstream, depot] = await Promise.all([startHttpDepot(), startHttpDepot()]);
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
  await upstream.services.users.create({
    name: 'mirror',
    email: 'mirror@example.com',
    password: MIRROR_PASSWORD,
    groups: ['readers'], // the default target Anything lets readers read
  });
  await upstream.request('/artifactory/api/repositories/private', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
  });
  for (const name of ['one', 'two', 'three', 'four'])
    await upstream.request(`/artifactory/private/${name}.txt`, { method: 'PUT', body: name });

  // A storage host on another origin, and an upstream that redirects downloads to it.
  storageHost = createServer((request, response) => {
    seen.storageHost.push(request.headers);
    response.writeHead(200).end('from the storage host');
  });
  const storageBase = await listen(storageHost);
  redirector = createServer((request, response) => {
    seen.redirector.push(request.headers);
    response.writeHead(302, { location: `${storageBase}${request.url}` }).end();
  });
  const redirectorBase = await listen(redirector);

  const upstreamUrl = `${upstream.base}/artifactory/private/`;
  await saveRepo('with-creds', {
    rclass: 'remote',
    packageType: 'generic',
    url: upstreamUrl,
    username: 'mirror',
    password: MIRROR_PASSWORD,
  });
  await saveRepo('no-creds', { rclass: 'remote', packageType: 'generic', url: upstreamUrl });
  await saveRepo('redirected', {
    rclass: 'remote',
    packageType: 'generic',
    url: `${redirectorBase}/files/`,
    username: 'mirror',
    password: MIRROR_PASSWORD,
  });
});

afterAll(async () => {
  await Promise.all([
    depot?.close(),
    upstream?.close(),
    new Promise((resolve) => redirector?.close(resolve)),
    new Promise((resolve) => storageHost?.close(resolve)),
  ]);
});

describe('remote repository credentials', () => {
  it('are sent to an upstream that requires them', async () => {
    expect(await get('with-creds/one.txt')).toEqual({ status: 200, body: 'one' });
    const refused = await get('no-creds/one.txt');
    expect(refused.status).toBe(502);
    expect(JSON.parse(refused.body).errors[0].message).toBe(
      "Remote repository 'no-creds': the upstream answered 401 for /artifactory/private/one.txt",
    );
  });

  it('are stored encrypted and the password is never answered', async () => {
    const row = await sql<{ config: string }>`
      select config::text as config from repositories where key = 'with-creds'`.execute(depot.db);
    const stored = row.rows[0].config;
    expect(stored).not.toContain(MIRROR_PASSWORD);
    expect(JSON.parse(stored)).toMatchObject({
      username: 'mirror',
      password: expect.stringMatching(/^enc:v1:[0-9a-f]{8}:/),
    });

    const config = await depot.request('/artifactory/api/repositories/with-creds');
    const text = await config.text();
    expect(text).not.toContain(MIRROR_PASSWORD);
    expect(JSON.parse(text)).toMatchObject({ username: 'mirror' });
    expect(JSON.parse(text)).not.toHaveProperty('password');
    const list = await (await depot.request('/artifactory/api/repositories?type=remote')).text();
    expect(list).not.toContain(MIRROR_PASSWORD);
  });

  it('keep the stored password when an update sends none, and take a new one', async () => {
    expect(
      (await saveRepo('with-creds', { description: 'mirror of private' }, 'POST')).status,
    ).toBe(200);
    expect(await get('with-creds/two.txt')).toEqual({ status: 200, body: 'two' });

    await saveRepo('with-creds', { password: 'not-the-password' }, 'POST');
    expect((await get('with-creds/three.txt')).status).toBe(502);
    await saveRepo('with-creds', { password: MIRROR_PASSWORD }, 'POST');
    expect(await get('with-creds/three.txt')).toEqual({ status: 200, body: 'three' });

    // An empty password removes it: the upstream refuses again.
    await saveRepo('with-creds', { password: '' }, 'POST');
    const row = await sql<{ config: string }>`
      select config::text as config from repositories where key = 'with-creds'`.execute(depot.db);
    expect(JSON.parse(row.rows[0].config)).not.toHaveProperty('password');
    expect((await get('with-creds/four.txt')).status).toBe(502);
  });

  it('stay with their origin: an update moving the URL elsewhere must send the password again', async () => {
    const upstreamUrl = `${upstream.base}/artifactory/private/`;
    const saved = { rclass: 'remote', packageType: 'generic', url: upstreamUrl };
    await saveRepo('moving', { ...saved, username: 'mirror', password: MIRROR_PASSWORD });
    const elsewhere = `http://127.0.0.1:${(storageHost.address() as AddressInfo).port}/files/`;
    const before = seen.storageHost.length;
    const moved = await saveRepo('moving', { url: elsewhere }, 'POST');
    expect(moved.status).toBe(400);
    expect((await moved.json()).errors[0]).toMatchObject({
      message:
        'Enter the password again: the stored one goes only to the upstream it was saved for',
      field: 'password',
    });
    const kept = await (await depot.request('/artifactory/api/repositories/moving')).json();
    expect(kept.url).toBe(upstreamUrl);
    expect(await get('moving/one.txt')).toEqual({ status: 200, body: 'one' });
    expect(seen.storageHost.length).toBe(before);
    // Another path of the same origin keeps it; a new password goes wherever the URL says.
    const samePlace = await saveRepo(
      'moving',
      { url: `${upstream.base}/artifactory/private` },
      'POST',
    );
    expect(samePlace.status, await samePlace.text()).toBe(200);
    const retyped = await saveRepo('moving', { url: elsewhere, password: 'a-new-one' }, 'POST');
    expect(retyped.status, await retyped.text()).toBe(200);
  });

  it('go only to the upstream origin, not to a redirect target elsewhere', async () => {
    expect(await get('redirected/blob.bin')).toEqual({
      status: 200,
      body: 'from the storage host',
    });
    const expected = `Basic ${Buffer.from(`mirror:${MIRROR_PASSWORD}`).toString('base64')}`;
    expect(seen.redirector.map((h) => h.authorization)).toEqual([expected]);
    expect(seen.storageHost).toHaveLength(1);
    expect(seen.storageHost[0].authorization).toBeUndefined();
  });

  it("are checked by the form's Test button when given", async () => {
    const test = (body: object) =>
      depot.request('/ui/api/v1/ui/admin/repositories/testremote', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${upstream.base}/artifactory/private/one.txt`, ...body }),
      });
    const right = await test({ username: 'mirror', password: MIRROR_PASSWORD });
    expect(await right.json()).toEqual({ info: TEST_REMOTE_MESSAGES.success });
    const wrong = await test({ username: 'mirror', password: 'wrong' });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).errors[0].message).toBe(
      TEST_REMOTE_MESSAGES.failed('the server answered 401'),
    );
    // Without credentials a 401 still proves the server is there.
    expect((await test({})).status).toBe(200);
  });

  it('never reach the log', async () => {
    await new Promise<void>((resolve) => (depot.app.log as Logger).flush(() => resolve()));
    const log = readFileSync(join(depot.config.home, 'logs', SERVICE_LOG_FILE), 'utf8');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(MIRROR_PASSWORD);
    expect(log).not.toContain(Buffer.from(`mirror:${MIRROR_PASSWORD}`).toString('base64'));
  });
});

describe('the master key', () => {
  it('is generated at first start into security/master.key, readable by its owner only', () => {
    const file = join(depot.config.home, MASTER_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('can come from DEPOT_MASTER_KEY instead, and no other key opens its secrets', async () => {
    const key = 'ab'.repeat(32);
    const withEnvKey = await startTestDepot({ DEPOT_MASTER_KEY: key });
    try {
      expect(() => statSync(join(withEnvKey.config.home, MASTER_KEY_FILE))).toThrow();
      await withEnvKey.services.repositories.create({
        key: 'env-remote',
        rclass: 'remote',
        packageType: 'generic',
        url: 'https://example.com/repo/',
        username: 'u',
        password: 'p4ssw0rd',
      });
      const row = await withEnvKey.services.repositories.findRow('env-remote');
      const sealed = (row!.config as { password: string }).password;
      expect(new SecretBox(Buffer.from(key, 'hex')).decrypt(sealed)).toBe('p4ssw0rd');
      expect(() => new SecretBox(Buffer.alloc(32, 1)).decrypt(sealed)).toThrow(UndecryptableSecret);
    } finally {
      await withEnvKey.close();
    }
  });
});
