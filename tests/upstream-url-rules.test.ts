import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_MESSAGES } from '../server/modules/repositories/messages.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { startScriptedUpstream, type ScriptedUpstream } from './helpers/scripted-upstream.ts';

/**
 * A remote repository's upstream is an http or https URL at a public address: other schemes
 * are refused when it is saved (REST and console) and at every connection, and IPv6 forms
 * that carry a private IPv4 address are refused like that address.
 */
let depot: HttpDepot;
let upstream: ScriptedUpstream;

const json = { 'content-type': 'application/json' };
const putRepo = (key: string, body: object) =>
  depot.request(`/artifactory/api/repositories/${key}`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify(body),
  });
const remote = (url: string) => ({ rclass: 'remote', packageType: 'generic', url });
const firstError = async (response: Response) =>
  ((await response.json()) as { errors: { message: string; field?: string }[] }).errors[0];

beforeAll(async () => {
  [depot, upstream] = await Promise.all([startHttpDepot(), startScriptedUpstream()]);
  upstream.file('/files/tool.txt', 'tool');
});
afterAll(async () => {
  await Promise.all([depot?.close(), upstream?.close()]);
});

describe('upstream URL schemes', () => {
  it.each([
    ['file:///etc/passwd', 'file'],
    ['gopher://127.0.0.1:6379/_FLUSHALL', 'gopher'],
    ['ftp://files.example.test/pub/', 'ftp'],
  ])('refuses %s when a repository is created', async (url, scheme) => {
    const response = await putRepo('odd-remote', remote(url));
    expect(response.status).toBe(400);
    expect(await firstError(response)).toEqual({
      status: 400,
      message: REPO_MESSAGES.urlScheme(scheme),
      field: 'url',
    });
    expect((await depot.request('/artifactory/api/repositories/odd-remote')).status).toBe(404);
  });

  it('refuses one on update and keeps the URL it had', async () => {
    const url = `${upstream.base}/files/`;
    expect((await putRepo('kept-remote', remote(url))).status).toBe(200);
    const response = await depot.request('/artifactory/api/repositories/kept-remote', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: 'gopher://127.0.0.1:25/' }),
    });
    expect(response.status).toBe(400);
    expect((await firstError(response)).message).toBe(REPO_MESSAGES.urlScheme('gopher'));
    const config = await (await depot.request('/artifactory/api/repositories/kept-remote')).json();
    expect(config.url).toBe(url);
  });

  it("refuses one from the console's repository form, on its URL field", async () => {
    const response = await depot.request('/ui/api/v1/ui/admin/repositories', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        type: 'remote',
        general: { repoKey: 'form-remote' },
        typeSpecific: { repoType: 'generic' },
        remote: { url: 'file:///etc/shadow' },
      }),
    });
    expect(response.status).toBe(400);
    expect(await firstError(response)).toMatchObject({
      message: REPO_MESSAGES.urlScheme('file'),
      field: 'remote.url',
    });
  });

  it('refuses a redirect to another scheme at connect time', async () => {
    await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
    upstream.handle('/files/elsewhere.txt', (_request, response) =>
      response.writeHead(302, { location: 'file:///etc/passwd' }).end(),
    );
    expect((await putRepo('redirecting-remote', remote(`${upstream.base}/files/`))).status).toBe(
      200,
    );
    const response = await depot.request('/artifactory/redirecting-remote/elsewhere.txt');
    expect(response.status).toBe(502);
    expect((await firstError(response)).message).toMatch(/must be http or https, not file:/);
    await depot.services.securityConfig.update({ remoteAllowList: [] });
  });
});

describe('upstream addresses with an IPv4 address inside', () => {
  it.each([
    ['IPv4-compatible', (port: string) => `http://[::127.0.0.1]:${port}/files/`],
    ['IPv4-mapped', (port: string) => `http://[::ffff:127.0.0.1]:${port}/files/`],
    ['NAT64', (port: string) => `http://[64:ff9b::127.0.0.1]:${port}/files/`],
  ])('refuses the %s form of loopback without connecting', async (form, urlOf) => {
    const key = `v6-${form.toLowerCase()}`;
    const port = new URL(upstream.base).port;
    expect((await putRepo(key, remote(urlOf(port)))).status).toBe(200);
    const before = upstream.hits('/files/tool.txt');
    const response = await depot.request(`/artifactory/${key}/tool.txt`);
    expect(response.status).toBe(502);
    expect((await firstError(response)).message).toMatch(/is private or reserved/);
    expect(upstream.hits('/files/tool.txt')).toBe(before);
  });

  it("refuses it in the form's Test button too", async () => {
    const port = new URL(upstream.base).port;
    const response = await depot.request('/ui/api/v1/ui/admin/repositories/testremote', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: `http://[::127.0.0.1]:${port}/files/` }),
    });
    expect(response.status).toBe(400);
    expect((await firstError(response)).message).toMatch(
      /^Connection failed: .*private or reserved/,
    );
  });
});
