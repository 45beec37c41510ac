import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CROSS_SITE_MESSAGES } from '../server/http/cross-site.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { adminAuth, consoleSession, startTestDepot } from './helpers/test-app.ts';

/**
 * A page on another site can make a browser send a form to Depot with the basic-auth
 * credentials the browser cached: Depot refuses every write whose `Origin` or
 * `Sec-Fetch-Site` names another site, whatever its credentials (docs/security.md,
 * "Cross-site requests"). Clients that are not browsers send neither header.
 */
let depot: HttpDepot;
const EVIL = 'https://evil.example';

beforeAll(async () => {
  depot = await startHttpDepot();
  await depot.services.repositories.create({
    key: 'gen-local',
    rclass: 'local',
    packageType: 'generic',
  });
});
afterAll(() => depot?.close());

const deploy = (path: string) =>
  depot.app.inject({
    method: 'PUT',
    url: `/artifactory/gen-local/${path}`,
    payload: path,
    headers: adminAuth(),
  });
const exists = async (path: string) =>
  (await depot.app.inject({ url: `/artifactory/gen-local/${path}`, headers: adminAuth() }))
    .statusCode === 200;
const tokenCount = async () =>
  (await depot.app.inject({ url: '/access/api/v1/tokens', headers: adminAuth() })).json().tokens
    .length as number;

/** A move as a cross-site form would send it: a text/plain body the route does not need. */
const move = (from: string, to: string, headers: Record<string, string>) =>
  depot.app.inject({
    method: 'POST',
    url: `/artifactory/api/move/gen-local/${from}?to=/gen-local/${to}`,
    payload: 'a=b\r\n',
    headers: { 'content-type': 'text/plain', ...headers },
  });

describe('a write from another site', () => {
  it('is refused over real HTTP: a text/plain form moving a file, a form creating a token', async () => {
    expect(
      (await depot.request('/artifactory/gen-local/a.txt', { method: 'PUT', body: 'a' })).status,
    ).toBe(201);
    const browserForm = (path: string, contentType: string, body: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const sent = httpRequest(`${depot.base}${path}`, {
          method: 'POST',
          headers: {
            ...adminAuth(), // replayed from the browser's cache
            'content-type': contentType,
            origin: EVIL,
            'sec-fetch-site': 'cross-site',
            'sec-fetch-mode': 'navigate',
          },
        });
        sent.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        });
        sent.on('error', reject);
        sent.end(body);
      });
    const moved = await browserForm(
      '/artifactory/api/move/gen-local/a.txt?to=/gen-local/stolen.txt',
      'text/plain',
      'a=b\r\n',
    );
    expect(moved.status).toBe(403);
    expect(JSON.parse(moved.body).errors[0].message).toBe(CROSS_SITE_MESSAGES.refused);
    expect((await depot.request('/artifactory/gen-local/a.txt')).status).toBe(200);
    expect((await depot.request('/artifactory/gen-local/stolen.txt')).status).toBe(404);

    const tokens = async () => (await (await depot.request('/access/api/v1/tokens')).json()).tokens;
    const before = (await tokens()).length;
    const token = await browserForm(
      '/access/api/v1/tokens',
      'application/x-www-form-urlencoded',
      'username=admin&scope=applied-permissions/admin&expires_in=0',
    );
    expect(token.status).toBe(403);
    expect(token.body).not.toContain('access_token');
    expect((await tokens()).length).toBe(before);
  });

  it('is refused with every kind of credentials: basic, token, API key, session', async () => {
    await deploy('b.txt');
    const created = await depot.app.inject({
      method: 'POST',
      url: '/access/api/v1/tokens',
      payload: { description: 'cross-site test' },
      headers: adminAuth(),
    });
    const apiKey = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userApiKey',
      headers: adminAuth(),
    });
    const session = await consoleSession(depot, 'admin', 'admin-secret-1');
    const credentials = [
      adminAuth(),
      { authorization: `Bearer ${created.json().access_token}` },
      { 'x-jfrog-art-api': apiKey.json().apiKey as string },
      session.headers,
    ];
    for (const headers of credentials) {
      const refused = await move('b.txt', 'b-moved.txt', { ...headers, origin: EVIL });
      expect(refused.statusCode, JSON.stringify(Object.keys(headers))).toBe(403);
      expect(refused.json().errors[0].message).toBe(CROSS_SITE_MESSAGES.refused);
    }
    expect(await exists('b.txt')).toBe(true);
    expect(await exists('b-moved.txt')).toBe(false);
  });

  it.each([
    ['a foreign Origin alone (a browser without Sec-Fetch-*)', { origin: EVIL }],
    ['Sec-Fetch-Site: cross-site alone', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling host)', { 'sec-fetch-site': 'same-site' }],
    ['Origin: null (a sandboxed page, a redirect across sites)', { origin: 'null' }],
    ['an Origin that is no URL', { origin: 'not an origin' }],
    ['the right host on another port', { origin: 'http://localhost:8443' }],
    ['Sec-Fetch-Site: none with a foreign Origin', { 'sec-fetch-site': 'none', origin: EVIL }],
  ])('is refused for %s', async (_name, headers) => {
    await deploy('c.txt');
    const counted = await tokenCount();
    for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
      const response = await depot.app.inject({
        method,
        url: '/artifactory/gen-local/c.txt',
        payload: method === 'PUT' ? 'overwritten' : undefined,
        headers: { ...adminAuth(), ...headers },
      });
      expect(response.statusCode, method).toBe(403);
    }
    const token = await depot.app.inject({
      method: 'POST',
      url: '/access/api/v1/tokens',
      payload: { description: 'x' },
      headers: { ...adminAuth(), ...headers },
    });
    expect(token.statusCode).toBe(403);
    expect(await tokenCount()).toBe(counted);
    const content = await depot.app.inject({
      url: '/artifactory/gen-local/c.txt',
      headers: adminAuth(),
    });
    expect(content.body).toBe('c.txt');
  });

  it('is refused on a path no route has, before anything else answers', async () => {
    const response = await depot.app.inject({
      method: 'POST',
      url: '/no/such/route',
      headers: { origin: EVIL },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('what still passes', () => {
  it('reads from another site: GET, HEAD and OPTIONS are not writes', async () => {
    await deploy('r.txt');
    const headers = { ...adminAuth(), origin: EVIL, 'sec-fetch-site': 'cross-site' };
    expect(
      (await depot.app.inject({ url: '/artifactory/gen-local/r.txt', headers })).statusCode,
    ).toBe(200);
    expect(
      (await depot.app.inject({ method: 'HEAD', url: '/artifactory/gen-local/r.txt', headers }))
        .statusCode,
    ).toBe(200);
  });

  it('clients that are not browsers: no Origin, no Sec-Fetch-Site', async () => {
    await deploy('d.txt');
    const moved = await depot.app.inject({
      method: 'POST',
      url: '/artifactory/api/move/gen-local/d.txt?to=/gen-local/d-moved.txt',
      headers: adminAuth(),
    });
    expect(moved.statusCode).toBe(200);
    expect(await exists('d-moved.txt')).toBe(true);
  });

  it("the console's own pages: same-origin, or an Origin naming the host it reached", async () => {
    const session = await consoleSession(depot, 'admin', 'admin-secret-1');
    for (const [file, headers] of [
      ['e1.txt', { 'sec-fetch-site': 'same-origin', origin: 'http://localhost' }],
      ['e2.txt', { origin: 'http://localhost' }],
      // A proxy that rewrites Host: the browser still says same-origin.
      ['e3.txt', { 'sec-fetch-site': 'same-origin', origin: 'https://depot.example' }],
      // A TLS-terminating proxy that passes Host on but is not a trusted proxy.
      ['e4.txt', { 'sec-fetch-site': 'none', origin: 'https://localhost' }],
    ] as const) {
      await deploy(file);
      const response = await depot.app.inject({
        method: 'POST',
        url: `/artifactory/api/move/gen-local/${file}?to=/gen-local/moved-${file}`,
        headers: { ...session.headers, host: 'localhost', ...headers },
      });
      expect(response.statusCode, file).toBe(200);
    }
  });

  it('an Origin naming the host a trusted proxy forwarded, or DEPOT_PUBLIC_URL', async () => {
    const behindProxy = await startTestDepot({
      DEPOT_TRUSTED_PROXIES: '127.0.0.1',
      DEPOT_PUBLIC_URL: 'https://repo.example:8443/depot',
    });
    try {
      const post = (headers: Record<string, string>) =>
        behindProxy.app.inject({
          method: 'POST',
          url: '/access/api/v1/tokens',
          payload: { description: 'proxied' },
          headers: { ...adminAuth(), host: 'depot-internal:8082', ...headers },
        });
      const forwarded = {
        'x-forwarded-host': 'depot.example',
        'x-forwarded-proto': 'https',
        origin: 'https://depot.example',
      };
      expect((await post(forwarded)).statusCode).toBe(200);
      expect((await post({ origin: 'https://repo.example:8443' })).statusCode).toBe(200);
      expect((await post({ origin: 'https://depot.example' })).statusCode).toBe(403);
      // From an address that is not a trusted proxy, X-Forwarded-Host means nothing.
      const untrusted = await behindProxy.app.inject({
        method: 'POST',
        url: '/access/api/v1/tokens',
        payload: { description: 'spoofed' },
        remoteAddress: '10.1.2.3',
        headers: { ...adminAuth(), host: 'depot-internal:8082', ...forwarded },
      });
      expect(untrusted.statusCode).toBe(403);
    } finally {
      await behindProxy.close();
    }
  });
});

describe('bodies a cross-site form can send, on endpoints that take JSON', () => {
  it.each([
    ['text/plain', '{"description":"x"}'],
    ['text/plain;charset=UTF-8', '{"description":"x"}'],
    [
      'multipart/form-data; boundary=b',
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--b--\r\n',
    ],
  ])('refuses %s with 415, from any client', async (contentType, payload) => {
    const counted = await tokenCount();
    const response = await depot.app.inject({
      method: 'POST',
      url: '/access/api/v1/tokens',
      payload,
      headers: { ...adminAuth(), 'content-type': contentType },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().errors[0].message).toMatch(/^Unsupported Media Type/);
    expect(await tokenCount()).toBe(counted);
  });

  it('refuses a form body on a console call', async () => {
    const response = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login',
      payload: 'user=admin&password=admin-secret-1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(415);
  });

  it('refuses text/plain on a call that reads no body (the move of the attack)', async () => {
    await deploy('f.txt');
    const response = await move('f.txt', 'f-moved.txt', adminAuth());
    expect(response.statusCode).toBe(415);
    expect(await exists('f.txt')).toBe(true);
  });

  it('still takes text/plain where the protocol does: AQL, deploys', async () => {
    const aql = await depot.app.inject({
      method: 'POST',
      url: '/artifactory/api/search/aql',
      payload: 'items.find({"repo":"gen-local","name":"r.txt"})',
      headers: { ...adminAuth(), 'content-type': 'text/plain' },
    });
    expect(aql.statusCode).toBe(200);
    expect(aql.json().results).toHaveLength(1);
    const deployed = await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/gen-local/plain.txt',
      payload: 'plain',
      headers: { ...adminAuth(), 'content-type': 'text/plain' },
    });
    expect(deployed.statusCode).toBe(201);
  });
});
