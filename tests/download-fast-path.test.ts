import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import {
  adminAuth,
  basic,
  changeNotificationsArrived,
  devWithOnlyGrant,
} from './helpers/test-app.ts';
import { BROWSABLE_SANDBOX } from '../server/modules/artifacts/download.ts';

/**
 * Small downloads a client repeats are answered from memory before Fastify
 * (server/modules/artifacts/download-fast-path.ts). Its answers must be the full route's,
 * byte for byte and header for header, and every change an admin or a deploy makes must be
 * seen by the very next request. Real HTTP on loopback: the fast path sits in front of the
 * server, where `inject` does not go.
 */
let depot: HttpDepot;
const DEV = { authorization: basic('dev', 'dev-pass-1') };
const PERMISSIONS = '/artifactory/api/v2/security/permissions';

beforeAll(async () => {
  depot = await startHttpDepot();
  for (const key of ['fast-local', 'other-local'])
    await depot.services.repositories.create({ key, rclass: 'local', packageType: 'generic' });
  await depot.services.repositories.create({
    key: 'maven-local',
    rclass: 'local',
    packageType: 'maven',
  });
  await devWithOnlyGrant(depot, {
    repositories: ['fast-local'],
    include: ['**'],
    exclude: [],
    actions: ['read'],
  });
  await put('fast-local/docs/readme.txt', 'read me', { 'content-type': 'text/plain' });
  await put('fast-local/site/index.html', '<script>alert(1)</script>');
  await put('other-local/x.bin', 'other');
  await put('maven-local/org/acme/lib/1.0/lib-1.0.jar', 'jar bytes');
});
afterAll(() => depot?.close());

async function put(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await depot.request(`/artifactory/${path}`, {
    method: 'PUT',
    body,
    headers: { ...adminAuth(), ...headers },
  });
  expect(response.status, await response.text()).toBe(201);
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request's whole answer, and whether the fast path gave it. */
async function fetchAnswer(
  path: string,
  headers: Record<string, string> = adminAuth(),
  method = 'GET',
): Promise<Answer & { fast: boolean }> {
  const before = depot.downloadFastPath.served;
  // fetch itself, so that a request may carry no credentials at all
  const response = await fetch(`${depot.base}${path}`, { method, headers });
  const body = await response.text();
  const answered = Object.fromEntries(
    [...response.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive'),
  );
  return {
    status: response.status,
    headers: answered,
    body,
    fast: depot.downloadFastPath.served > before,
  };
}

/**
 * With every cache emptied, the first request goes the full way and fills them; the second
 * is answered fast, and the same.
 */
async function fullThenFast(
  path: string,
  headers: Record<string, string> = adminAuth(),
  method = 'GET',
) {
  await changeNotificationsArrived(depot);
  depot.services.tableChanges.changedAll();
  const full = await fetchAnswer(path, headers, method);
  const fast = await fetchAnswer(path, headers, method);
  expect(full.fast).toBe(false);
  expect(fast.fast).toBe(true);
  const { fast: _full, ...fullAnswer } = full;
  const { fast: _fast, ...fastAnswer } = fast;
  expect(fastAnswer).toEqual(fullAnswer);
  return fastAnswer;
}

describe('the download fast path', () => {
  it('answers a repeated download as the full route does, headers and bytes', async () => {
    const answer = await fullThenFast('/artifactory/fast-local/docs/readme.txt');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('read me');
    expect(answer.headers).toMatchObject({
      'content-type': 'text/plain',
      'content-length': '7',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
    });
    expect(answer.headers['x-checksum-sha256']).toMatch(/^[0-9a-f]{64}$/);
    const head = await fullThenFast('/artifactory/fast-local/docs/readme.txt', adminAuth(), 'HEAD');
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe('7');
  });

  it('sends active content as a sandboxed attachment, as the full route does', async () => {
    const answer = await fullThenFast('/artifactory/fast-local/site/index.html');
    expect(answer.headers['content-disposition']).toBe("attachment; filename*=UTF-8''index.html");
  });

  it('serves browsable content in the scripts-only sandbox, as the full route does', async () => {
    await depot.services.repositories.create({
      key: 'site-local',
      rclass: 'local',
      packageType: 'generic',
      allowContentBrowsing: true,
    });
    await put('site-local/index.html', '<script>document.cookie</script>');
    const answer = await fullThenFast('/artifactory/site-local/index.html');
    expect(answer.headers['content-security-policy']).toBe(BROWSABLE_SANDBOX);
    expect(answer.headers['content-disposition']).toBeUndefined();
    const head = await fullThenFast('/artifactory/site-local/index.html', adminAuth(), 'HEAD');
    expect(head.headers['content-security-policy']).toBe(BROWSABLE_SANDBOX);
  });

  it('counts the downloads it answers in the statistics', async () => {
    const path = 'docs/readme.txt';
    await depot.services.downloadStats.flush();
    const repo = await depot.services.artifacts.repository('fast-local');
    const node = await depot.services.artifacts.findNode(repo.id, path);
    const before = (await depot.services.downloadStats.get(node!.id)).downloadCount;
    await fullThenFast(`/artifactory/fast-local/${path}`);
    expect((await depot.services.downloadStats.get(node!.id)).downloadCount).toBe(before + 2);
  });

  it('serves a reader with read permission, and refuses the moment it is taken away', async () => {
    await fullThenFast('/artifactory/fast-local/docs/readme.txt', DEV);
    const denied = await fetchAnswer('/artifactory/other-local/x.bin', DEV);
    expect(denied.status).toBe(403);
    expect(denied.fast).toBe(false);

    const revoked = await depot.request(`${PERMISSIONS}/dev-only`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    const after = await fetchAnswer('/artifactory/fast-local/docs/readme.txt', DEV);
    expect(after.fast).toBe(false);
    expect(after.status).toBe(403);
  });

  it('refuses an old password the moment it is changed', async () => {
    await depot.services.users.create({
      name: 'ana',
      email: 'ana@example.com',
      password: 'ana-pass-1',
      admin: true,
    } as never);
    const ana = { authorization: basic('ana', 'ana-pass-1') };
    await fullThenFast('/artifactory/other-local/x.bin', ana);
    await depot.services.users.update('ana', { password: 'ana-pass-2' }, { name: 'admin' });
    const stale = await fetchAnswer('/artifactory/other-local/x.bin', ana);
    expect(stale.status).toBe(401);
    expect(stale.fast).toBe(false);
  });

  it('refuses a revoked token the moment it is revoked', async () => {
    const created = await depot.request('/access/api/v1/tokens', {
      method: 'POST',
      headers: { ...adminAuth(), 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'fast path' }),
    });
    const token = (await created.json()) as { token_id: string; access_token: string };
    const bearer = { authorization: `Bearer ${token.access_token}` };
    await fullThenFast('/artifactory/other-local/x.bin', bearer);
    const revoked = await depot.request(`/access/api/v1/tokens/${token.token_id}`, {
      method: 'DELETE',
    });
    expect(revoked.status).toBe(200);
    const after = await fetchAnswer('/artifactory/other-local/x.bin', bearer);
    expect(after.status).toBe(401);
    expect(after.fast).toBe(false);
  });

  it('serves new content right after an overwrite, and nothing once the file is deleted', async () => {
    await put('other-local/changing.txt', 'first');
    await fullThenFast('/artifactory/other-local/changing.txt');
    await put('other-local/changing.txt', 'second');
    expect((await fetchAnswer('/artifactory/other-local/changing.txt')).body).toBe('second');
    expect((await fullThenFast('/artifactory/other-local/changing.txt')).body).toBe('second');
    const deleted = await depot.request('/artifactory/other-local/changing.txt', {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(204);
    const gone = await fetchAnswer('/artifactory/other-local/changing.txt');
    expect(gone.status).toBe(404);
    expect(gone.fast).toBe(false);
  });

  it('serves anonymous readers only while anonymous access is on', async () => {
    await depot.services.securityConfig.update({ anonAccessEnabled: true });
    const anonymous = {};
    try {
      // The anonymous user reads through the default "Anything" target... which the dev
      // setup removed: grant it again for this repository.
      const granted = await depot.request(`${PERMISSIONS}/anonymous-read`, {
        method: 'PUT',
        headers: { ...adminAuth(), 'content-type': 'application/json' },
        body: JSON.stringify({
          repo: {
            repositories: ['other-local'],
            'include-patterns': ['**'],
            'exclude-patterns': [],
            actions: { users: { anonymous: ['read'] }, groups: {} },
          },
        }),
      });
      expect(granted.status).toBe(201);
      await fullThenFast('/artifactory/other-local/x.bin', anonymous);
    } finally {
      await depot.services.securityConfig.update({ anonAccessEnabled: false });
    }
    const refused = await fetchAnswer('/artifactory/other-local/x.bin', anonymous);
    expect(refused.status).toBe(401);
    expect(refused.fast).toBe(false);
  });

  it('keeps a kept-alive connection going, also after a request that sent a body', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const path = '/artifactory/fast-local/docs/readme.txt';
    // A body larger than the request stream's buffer: left undrained, it would stall the socket.
    const body = Buffer.alloc(1024 * 1024, 1);
    try {
      await changeNotificationsArrived(depot);
      depot.services.tableChanges.changedAll();
      const answers = [];
      for (const sent of [undefined, undefined, body, undefined, body, undefined]) {
        const before = depot.downloadFastPath.served;
        const answer = await getOnAgent(agent, path, sent);
        answers.push({ ...answer, fast: depot.downloadFastPath.served > before });
      }
      expect(answers.map((answer) => answer.text)).toEqual(Array(6).fill('read me'));
      expect(answers.map((answer) => answer.fast)).toEqual([false, true, true, true, true, true]);
      expect(answers.slice(1).every((answer) => answer.reusedSocket)).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('leaves ranges, conditionals, encoded or decorated paths, folders and Maven to the full route', async () => {
    const file = '/artifactory/other-local/x.bin';
    await fullThenFast(file);
    const etag = (await fetchAnswer(file)).headers.etag;
    const cases: [string, Record<string, string>, number][] = [
      [file, { ...adminAuth(), range: 'bytes=0-1' }, 206],
      [file, { ...adminAuth(), 'if-none-match': etag }, 304],
      ['/artifactory/other-local/%78.bin', adminAuth(), 200],
      ['/artifactory/other-local/x.bin;color=red', adminAuth(), 200],
      ['/artifactory/other-local/x.bin?properties', adminAuth(), 200],
      ['/artifactory/fast-local/docs', adminAuth(), 200],
      ['/artifactory/maven-local/org/acme/lib/1.0/lib-1.0.jar', adminAuth(), 200],
      ['/artifactory/other-local/missing.bin', adminAuth(), 404],
    ];
    for (const [path, headers, status] of cases) {
      // twice: the second would be fast if the path were taken
      await fetchAnswer(path, headers);
      const answer = await fetchAnswer(path, headers);
      expect([path, answer.status, answer.fast]).toEqual([path, status, false]);
    }
  });
});

/** A GET on `agent`'s one socket, with an optional body; answers the text and whether the socket was reused. */
function getOnAgent(agent: Agent, path: string, body?: Buffer) {
  return new Promise<{ text: string; reusedSocket: boolean }>((resolve, reject) => {
    const headers: Record<string, string> = { ...adminAuth() };
    if (body) headers['content-length'] = String(body.length);
    const request = httpRequest(`${depot.base}${path}`, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ text: Buffer.concat(chunks).toString(), reusedSocket: request.reusedSocket }),
      );
    });
    request.setTimeout(5000, () => request.destroy(new Error(`no answer to ${path}`)));
    request.on('error', reject);
    request.end(body);
  });
}
