import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingProxy, type CountingProxy } from './helpers/counting-proxy.ts';
import { startNtlmProxy, type NtlmProxy } from './helpers/ntlm-proxy.ts';
import {
  adminAuth,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';
import { startReceiver, until, type Receiver } from './helpers/webhook-receiver.ts';

/**
 * Outbound proxies (docs/proxies.md): a remote repository's upstream fetch and a webhook's
 * delivery go through a real forward proxy on loopback, with the sealed credentials.
 */
const PROXY_USER = 'depot-out';
const PROXY_PASSWORD = 'proxy-Secret-77';

const NTLM_ACCOUNT = {
  username: 'depot-svc',
  domain: 'CORP',
  // MD4 of the UTF-16LE password below, as the domain controller keeps it.
  ntHash: 'f27170d63590c14832b7ba893fd2a20a',
};
const NTLM_PASSWORD = 'ntlm-Secret-26';

let depot: TestDepot;
let proxy: CountingProxy;
let ntlmProxy: NtlmProxy;
let receiver: Receiver;
let upstream: Server;
let upstreamUrl: string;
const upstreamSeen: string[] = [];
let tlsServer: TlsServer;
let tlsConnections = 0;
const tlsSockets = new Set<Socket>();
let certDir: string;

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  depot.app.inject({ method, url, headers: adminAuth(), payload: payload as never });

const saveProxy = (body: Record<string, unknown>, method: 'POST' | 'PUT' = 'POST') =>
  api(method, `/ui/api/v1/ui/proxies${method === 'PUT' ? `/${String(body.key)}` : ''}`, body);

/** A webhook subscription in the Event API's shape. */
const subscription = (key: string, url: string, proxyKey: string) => ({
  key,
  enabled: true,
  event_filter: {
    domain: 'artifact',
    event_types: ['deployed'],
    criteria: { anyLocal: true, anyRemote: false, repoKeys: [] },
  },
  handlers: [{ handler_type: 'webhook', url, secret: 'hook-secret', proxy: proxyKey }],
});

beforeAll(async () => {
  depot = await startTestDepot({ DEPOT_WEBHOOK_POLL_MS: '50', DEPOT_WEBHOOK_TIMEOUT_MS: '3000' });
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.1'] });
  proxy = await startCountingProxy({ username: PROXY_USER, password: PROXY_PASSWORD });
  ntlmProxy = await startNtlmProxy(NTLM_ACCOUNT);
  receiver = await startReceiver();
  upstream = createServer((request, response) => {
    upstreamSeen.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/plain' }).end('through the proxy\n');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;
  // An https target with a self-signed certificate: the tunnel reaches it, the TLS check refuses it.
  certDir = mkdtempSync(join(tmpdir(), 'depot-proxy-cert-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      join(certDir, 'key.pem'),
      '-out',
      join(certDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  tlsServer = createTlsServer({
    key: readFileSync(join(certDir, 'key.pem')),
    cert: readFileSync(join(certDir, 'cert.pem')),
  });
  tlsServer.on('connection', (socket: Socket) => {
    tlsConnections++;
    tlsSockets.add(socket);
  });
  tlsServer.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await receiver?.close();
  await proxy?.close();
  await ntlmProxy?.close();
  for (const server of [upstream, tlsServer]) {
    if (!server) continue;
    const closed = new Promise((resolve) => server.close(resolve));
    if ('closeAllConnections' in server) server.closeAllConnections();
    for (const socket of tlsSockets) socket.destroy();
    await closed;
  }
  if (certDir) rmSync(certDir, { recursive: true, force: true });
  await depot?.close();
});

describe('the proxies screen', () => {
  it('keeps a proxy with its password sealed and never answered', async () => {
    const created = await saveProxy({
      key: 'corp',
      host: '127.0.0.1',
      port: proxy.port,
      username: PROXY_USER,
      password: PROXY_PASSWORD,
      defaultProxy: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ key: 'corp', passwordSet: true, defaultProxy: true });
    const listed = await api('GET', '/ui/api/v1/ui/proxies');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([expect.objectContaining({ key: 'corp', passwordSet: true })]);
    for (const answer of [created, listed, await api('GET', '/ui/api/v1/ui/proxies/corp')])
      expect(answer.body).not.toContain(PROXY_PASSWORD);
    const stored = await depot.services.db
      .selectFrom('entity_documents')
      .select('document')
      .where('entity', '=', 'proxy')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.document)).not.toContain(PROXY_PASSWORD);
  });

  it('keeps the password only for the host and port it was saved for', async () => {
    const saved = { key: 'moving', host: '127.0.0.1', port: proxy.port, username: PROXY_USER };
    expect((await saveProxy({ ...saved, password: PROXY_PASSWORD })).statusCode).toBe(201);
    for (const elsewhere of [{ host: 'proxy.attacker.example' }, { port: proxy.port + 1 }]) {
      const moved = await saveProxy({ ...saved, ...elsewhere }, 'PUT');
      expect(moved.statusCode, JSON.stringify(elsewhere)).toBe(400);
      expect(moved.json().errors[0]).toMatchObject({
        message:
          'Enter the password again: the stored one goes only to the proxy host and port it was saved for',
        field: 'password',
      });
    }
    expect((await api('GET', '/ui/api/v1/ui/proxies/moving')).json()).toMatchObject(saved);
    const renamed = await saveProxy({ ...saved, username: 'another' }, 'PUT');
    expect(renamed.statusCode, renamed.body).toBe(200);
    const retyped = await saveProxy({ ...saved, port: proxy.port + 1, password: 'new-one' }, 'PUT');
    expect(retyped.statusCode, retyped.body).toBe(200);
    const deleted = await api('POST', '/ui/api/v1/ui/proxies/delete', { keys: ['moving'] });
    expect(deleted.statusCode, deleted.body).toBe(200);
  });

  it('keeps one default proxy and refuses a remote repository naming an unknown one', async () => {
    const second = await saveProxy({
      key: 'other',
      host: '127.0.0.1',
      port: 9,
      defaultProxy: true,
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().errors[0].message).toBe(
      "Proxy 'corp' is already the default proxy: clear its Default Proxy first",
    );
    const repo = await api('PUT', '/artifactory/api/repositories/via-nowhere', {
      rclass: 'remote',
      packageType: 'generic',
      url: upstreamUrl,
      proxy: 'nowhere',
    });
    expect(repo.statusCode).toBe(400);
    expect(repo.body).toContain("Proxy 'nowhere' is not configured");
  });
});

describe('connections through a proxy', () => {
  it("fetches a remote repository's upstream through the default proxy, with its credentials", async () => {
    const saved = await api('PUT', '/artifactory/api/repositories/via-default', {
      rclass: 'remote',
      packageType: 'generic',
      url: upstreamUrl,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const before = proxy.seen.length;
    const file = await api('GET', '/artifactory/via-default/pkg/file.txt');
    expect(file.statusCode, file.body).toBe(200);
    expect(file.body).toBe('through the proxy\n');
    const through = proxy.seen.slice(before);
    expect(through.map((seen) => seen.target)).toEqual([`${upstreamUrl}pkg/file.txt`]);
    expect(through[0]!.headers['proxy-authorization']).toBe(
      `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`,
    );
    expect(upstreamSeen).toContain('/pkg/file.txt');
  });

  it("tests a remote repository's URL through the proxy it would use", async () => {
    const before = proxy.seen.length;
    const tested = await api('POST', '/ui/api/v1/ui/admin/repositories/testremote', {
      url: `${upstreamUrl}ping`,
    });
    expect(tested.statusCode, tested.body).toBe(200);
    expect(proxy.seen.slice(before).map((seen) => seen.target)).toEqual([`${upstreamUrl}ping`]);
    const unknown = await api('POST', '/ui/api/v1/ui/admin/repositories/testremote', {
      url: `${upstreamUrl}ping`,
      proxy: 'nowhere',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain("Connection failed: Proxy 'nowhere' is not configured");
  });

  it('connects directly when the repository disables the proxy', async () => {
    await api('PUT', '/artifactory/api/repositories/direct', {
      rclass: 'remote',
      packageType: 'generic',
      url: upstreamUrl,
      disableProxy: true,
    });
    const before = proxy.seen.length;
    const file = await api('GET', '/artifactory/direct/pkg/direct.txt');
    expect(file.statusCode).toBe(200);
    expect(proxy.seen.length).toBe(before);
    expect(upstreamSeen).toContain('/pkg/direct.txt');
  });

  it('delivers a webhook with "Use Proxy" through that proxy', async () => {
    await createRepository(depot, 'hooked-local', 'local');
    const created = await api(
      'POST',
      '/event/api/v1/subscriptions',
      subscription('through-proxy', `${receiver.url}/proxied`, 'corp'),
    );
    expect(created.statusCode, created.body).toBe(201);
    const before = proxy.seen.length;
    await deployFile(depot, 'hooked-local', 'a/b.txt', 'x');
    await until(() => receiver.requests.some((r) => r.path === '/hook/proxied'), 'the delivery');
    const delivery = receiver.requests.find((r) => r.path === '/hook/proxied')!;
    expect(delivery.json).toMatchObject({ event_type: 'deployed', data: { path: 'a/b.txt' } });
    expect(proxy.seen.slice(before).map((seen) => seen.target)).toEqual([
      `${receiver.url}/proxied`,
    ]);
    expect(delivery.headers['proxy-authorization']).toBeUndefined();
  });

  it('serves as the default proxy only the services it lists', async () => {
    const corp = (services: string[]) =>
      saveProxy(
        {
          key: 'corp',
          host: '127.0.0.1',
          port: proxy.port,
          username: PROXY_USER,
          defaultProxy: true,
          services,
        },
        'PUT',
      );
    const created = await api(
      'POST',
      '/event/api/v1/subscriptions',
      subscription('no-proxy', `${receiver.url}/no-proxy`, ''),
    );
    expect(created.statusCode, created.body).toBe(201);
    const delivered = async (path: string) => {
      const before = proxy.seen.length;
      await deployFile(depot, 'hooked-local', `${path}.txt`, 'x');
      await until(
        () =>
          receiver.requests.some((r) => (r.json.data as { path?: string })?.path === `${path}.txt`),
        'the delivery',
      );
      // Only this subscription's requests: 'through-proxy' names the proxy itself.
      return proxy.seen
        .slice(before)
        .map((seen) => seen.target)
        .filter((target) => target.endsWith('/no-proxy'));
    };
    try {
      // By default a default proxy serves remote repositories only: the webhook goes direct.
      expect(await delivered('direct')).toEqual([]);
      expect((await corp(['remoteRepositories', 'webhooks'])).statusCode).toBe(200);
      expect(await delivered('defaulted')).toEqual([`${receiver.url}/no-proxy`]);
      expect((await corp(['webhooks'])).statusCode).toBe(200);
      const before = proxy.seen.length;
      const file = await api('GET', '/artifactory/via-default/pkg/not-via-default.txt');
      expect(file.statusCode).toBe(200);
      expect(proxy.seen.length).toBe(before);
      expect(upstreamSeen).toContain('/pkg/not-via-default.txt');
      const invalid = await corp(['mail']);
      expect(invalid.statusCode).toBe(400);
    } finally {
      await corp(['remoteRepositories']);
      await api('DELETE', '/event/api/v1/subscriptions/no-proxy');
    }
  });

  it('opens a CONNECT tunnel for an https URL, with the credentials', async () => {
    const before = proxy.seen.length;
    const connectionsBefore = tlsConnections;
    const target = `127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
    const tested = await api('POST', '/event/api/v1/subscriptions/test', {
      ...subscription('tls-test', `https://${target}/hook`, 'corp'),
    });
    // The tunnel reached the server; its self-signed certificate is refused, as it must be.
    expect(tested.statusCode).toBe(400);
    expect(tested.body).toMatch(/Sending a dummy Webhook failed: .*certificate/);
    const connect = proxy.seen.slice(before);
    expect(connect.map((seen) => `${seen.method} ${seen.target}`)).toEqual([`CONNECT ${target}`]);
    expect(connect[0]!.headers['proxy-authorization']).toBe(
      `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`,
    );
    expect(tlsConnections).toBe(connectionsBefore + 1);
  });

  it('still refuses a target on a private address the allow list does not name', async () => {
    await depot.services.securityConfig.update({ remoteAllowList: [] });
    try {
      const before = proxy.seen.length;
      const tested = await api(
        'POST',
        '/event/api/v1/subscriptions/test',
        subscription('guarded', `http://localhost:${receiver.port}/hook/guarded`, 'corp'),
      );
      expect(tested.statusCode).toBe(400);
      expect(tested.body).toContain('is private or reserved');
      expect(proxy.seen.length).toBe(before);
    } finally {
      await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.1'] });
    }
  });

  it('sends nothing through a proxy whose credentials are wrong: the proxy refuses it', async () => {
    const changed = await saveProxy(
      {
        key: 'corp',
        host: '127.0.0.1',
        port: proxy.port,
        username: PROXY_USER,
        password: 'wrong',
        defaultProxy: true,
      },
      'PUT',
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const file = await api('GET', '/artifactory/via-default/pkg/refused.txt');
    expect(file.statusCode).not.toBe(200);
    expect(upstreamSeen).not.toContain('/pkg/refused.txt');
    await saveProxy(
      {
        key: 'corp',
        host: '127.0.0.1',
        port: proxy.port,
        username: PROXY_USER,
        password: PROXY_PASSWORD,
        defaultProxy: true,
      },
      'PUT',
    );
  });
});

describe('a webhook delivery the proxy does not pass on', () => {
  type Try = { outcome: string; status: number | null; error: string | null };
  type Delivery = { id: string; state: string; tries: Try[] };
  const historyOf = async (key: string) =>
    (
      (await api('GET', `/ui/api/v1/ui/webhooks/${key}/deliveries`)).json() as {
        deliveries: Delivery[];
      }
    ).deliveries;
  /** A port nothing listens on: a proxy that is down. */
  const closedPort = async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  };

  /**
   * Deploys through a subscription whose proxy is `broken`, waits for two failed attempts
   * (the first and its retry), checks that the receiver never saw them, then lets `fix`
   * mend the proxy and waits for the same delivery to arrive.
   */
  async function refusedThenRetried(
    name: string,
    broken: Record<string, unknown>,
    fix: Record<string, unknown>,
  ) {
    const key = `hook-via-${name}`;
    const saved = await saveProxy({ key: name, host: '127.0.0.1', ...broken });
    expect(saved.statusCode, saved.body).toBe(201);
    const created = await api(
      'POST',
      '/event/api/v1/subscriptions',
      subscription(key, `${receiver.url}/${key}`, name),
    );
    expect(created.statusCode, created.body).toBe(201);
    try {
      await deployFile(depot, 'hooked-local', `refused/${name}.txt`, 'x');
      await until(
        async () => ((await historyOf(key))[0]?.tries.length ?? 0) >= 2,
        'a retry',
        30_000,
      );
      const [waiting] = await historyOf(key);
      expect(waiting!.state).toBe('pending');
      expect(receiver.requests.filter((r) => r.path === `/hook/${key}`)).toEqual([]);
      const fixed = await saveProxy({ key: name, host: '127.0.0.1', ...fix }, 'PUT');
      expect(fixed.statusCode, fixed.body).toBe(200);
      await until(
        async () => (await historyOf(key))[0]?.state === 'delivered',
        'the delivery',
        30_000,
      );
      const [delivered] = await historyOf(key);
      const arrived = receiver.requests.filter((r) => r.path === `/hook/${key}`);
      expect(arrived.map((r) => r.headers['x-depot-delivery'])).toEqual([delivered!.id]);
      expect(delivered!.tries.at(-1)).toMatchObject({ outcome: 'delivered', status: 200 });
      return delivered!.tries.slice(0, -1);
    } finally {
      await api('DELETE', `/event/api/v1/subscriptions/${key}`);
      await api('POST', '/ui/api/v1/ui/proxies/delete', { keys: [name] });
    }
  }

  it("is retried while the proxy refuses Depot's credentials (407), the refusal in the history", async () => {
    const credentials = { port: proxy.port, username: PROXY_USER };
    const before = proxy.seen.length;
    const refused = await refusedThenRetried(
      'refusing',
      { ...credentials, password: 'not-the-password' },
      { ...credentials, password: PROXY_PASSWORD },
    );
    const target = `127.0.0.1:${receiver.port}`;
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const attempt of refused)
      expect(attempt).toEqual({
        ...attempt,
        outcome: 'retry',
        status: null,
        error: `Proxy 'refusing' refused the request to ${target} (407: proxy authentication required)`,
      });
    // Every attempt reached the proxy (the refused ones and the one it passed on); the
    // receiver got only the last (checked above).
    const asked = proxy.seen
      .slice(before)
      .filter((seen) => seen.target.endsWith('/hook-via-refusing'));
    expect(asked).toHaveLength(refused.length + 1);
  });

  it('is retried while the proxy is down, then delivered through it once it is up', async () => {
    const refused = await refusedThenRetried(
      'down',
      { port: await closedPort() },
      { port: proxy.port, username: PROXY_USER, password: PROXY_PASSWORD },
    );
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const attempt of refused) {
      expect(attempt).toMatchObject({ outcome: 'retry', status: null });
      expect(attempt.error).toMatch(/^Proxy 'down' could not be reached: .*ECONNREFUSED/);
    }
  });
});

describe('a proxy that authenticates with NTLM', () => {
  const saveNtlmProxy = (password: string, method: 'POST' | 'PUT' = 'POST') =>
    saveProxy(
      {
        key: 'ntlm',
        host: '127.0.0.1',
        port: ntlmProxy.port,
        username: NTLM_ACCOUNT.username,
        password,
        domain: NTLM_ACCOUNT.domain,
        ntHost: 'DEPOT01',
      },
      method,
    );
  const legs = (from: number) =>
    ntlmProxy.seen.slice(from).map(({ method, target, leg, connection }) => ({
      request: `${method} ${target}`,
      leg,
      connection,
    }));

  it('fetches a remote repository through it: negotiate, challenge, authenticate on one connection', async () => {
    expect((await saveNtlmProxy(NTLM_PASSWORD)).statusCode).toBe(201);
    const saved = await api('PUT', '/artifactory/api/repositories/via-ntlm', {
      rclass: 'remote',
      packageType: 'generic',
      url: upstreamUrl,
      proxy: 'ntlm',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const before = ntlmProxy.seen.length;
    const file = await api('GET', '/artifactory/via-ntlm/pkg/ntlm.txt');
    expect(file.statusCode, file.body).toBe(200);
    expect(file.body).toBe('through the proxy\n');
    const [negotiate, authenticate] = legs(before);
    const request = `GET ${upstreamUrl}pkg/ntlm.txt`;
    expect([negotiate, authenticate]).toEqual([
      { request, leg: 'negotiate', connection: negotiate!.connection },
      { request, leg: 'authenticated', connection: negotiate!.connection },
    ]);
    expect(ntlmProxy.seen.at(-1)).toMatchObject({
      username: 'depot-svc',
      domain: 'CORP',
      workstation: 'DEPOT01',
    });
    expect(upstreamSeen.filter((path) => path === '/pkg/ntlm.txt')).toHaveLength(1);
  });

  it('delivers a webhook through it, the probe without the body or the secret', async () => {
    const created = await api(
      'POST',
      '/event/api/v1/subscriptions',
      subscription('through-ntlm', `${receiver.url}/ntlm`, 'ntlm'),
    );
    expect(created.statusCode, created.body).toBe(201);
    const before = ntlmProxy.seen.length;
    await deployFile(depot, 'hooked-local', 'n/t.txt', 'x');
    await until(() => receiver.requests.some((r) => r.path === '/hook/ntlm'), 'the delivery');
    const deliveries = receiver.requests.filter((r) => r.path === '/hook/ntlm');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.json).toMatchObject({ data: { path: 'n/t.txt' } });
    expect(legs(before).map(({ request, leg }) => `${leg} ${request}`)).toEqual([
      `negotiate POST ${receiver.url}/ntlm`,
      `authenticated POST ${receiver.url}/ntlm`,
    ]);
    expect((await api('DELETE', '/event/api/v1/subscriptions/through-ntlm')).statusCode).toBe(204);
  });

  it('opens a CONNECT tunnel through it for an https URL', async () => {
    const before = ntlmProxy.seen.length;
    const connectionsBefore = tlsConnections;
    const target = `127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
    const tested = await api(
      'POST',
      '/event/api/v1/subscriptions/test',
      subscription('ntlm-tls', `https://${target}/hook`, 'ntlm'),
    );
    expect(tested.statusCode).toBe(400);
    expect(tested.body).toMatch(/Sending a dummy Webhook failed: .*certificate/);
    const [negotiate, authenticate] = legs(before);
    expect([negotiate, authenticate]).toEqual([
      { request: `CONNECT ${target}`, leg: 'negotiate', connection: negotiate!.connection },
      { request: `CONNECT ${target}`, leg: 'authenticated', connection: negotiate!.connection },
    ]);
    expect(tlsConnections).toBe(connectionsBefore + 1);
  });

  it('is refused with a wrong password: a clear error, nothing fetched, no secret in the logs', async () => {
    expect((await saveNtlmProxy('wrong-Secret-9', 'PUT')).statusCode).toBe(200);
    try {
      const before = ntlmProxy.seen.length;
      const file = await api('GET', '/artifactory/via-ntlm/pkg/refused-ntlm.txt');
      expect(file.statusCode).toBe(502);
      expect(file.json().errors[0].message).toBe(
        `Remote repository 'via-ntlm': Proxy 'ntlm' refused the request to ${new URL(upstreamUrl).host} (407: proxy authentication required)`,
      );
      expect(legs(before).map(({ leg }) => leg)).toEqual(['negotiate', 'refused']);
      expect(upstreamSeen).not.toContain('/pkg/refused-ntlm.txt');
      const target = `127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
      const tested = await api(
        'POST',
        '/event/api/v1/subscriptions/test',
        subscription('ntlm-refused', `https://${target}/hook`, 'ntlm'),
      );
      expect(tested.body).toContain(
        `Proxy 'ntlm' refused the connection to ${target} (407: proxy authentication required)`,
      );
      await new Promise((resolve) => (depot.app.log as unknown as Logger).flush(resolve));
      const logDir = join(depot.config.home, 'logs');
      const logs = readdirSync(logDir).map((name) => readFileSync(join(logDir, name), 'utf8'));
      expect(logs.join('').length).toBeGreaterThan(0);
      for (const secret of [NTLM_PASSWORD, 'wrong-Secret-9', 'NTLM T'])
        expect(logs.join('\n')).not.toContain(secret);
    } finally {
      await saveNtlmProxy(NTLM_PASSWORD, 'PUT');
      await api('DELETE', '/artifactory/api/repositories/via-ntlm');
    }
  });
});

describe('deleting a proxy', () => {
  it('is refused while a webhook or a remote repository names it, then allowed', async () => {
    const saved = await api('PUT', '/artifactory/api/repositories/via-corp', {
      rclass: 'remote',
      packageType: 'generic',
      url: upstreamUrl,
      proxy: 'corp',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const refused = await api('POST', '/ui/api/v1/ui/proxies/delete', { keys: ['corp'] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0].message).toBe(
      "Proxy 'corp' is used by webhook 'through-proxy', remote repository 'via-corp': choose another proxy for them first",
    );
    expect((await api('DELETE', '/event/api/v1/subscriptions/through-proxy')).statusCode).toBe(204);
    expect((await api('DELETE', '/artifactory/api/repositories/via-corp')).statusCode).toBe(200);
    const deleted = await api('POST', '/ui/api/v1/ui/proxies/delete', { keys: ['corp'] });
    expect(deleted.statusCode, deleted.body).toBe(200);
    // Repositories that relied on the default proxy now connect directly.
    const before = proxy.seen.length;
    const file = await api('GET', '/artifactory/via-default/pkg/after.txt');
    expect(file.statusCode).toBe(200);
    expect(proxy.seen.length).toBe(before);
  });
});
