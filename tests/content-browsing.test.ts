import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSABLE_SANDBOX } from '../server/modules/artifacts/download.ts';
import { startScriptedUpstream, type ScriptedUpstream } from './helpers/scripted-upstream.ts';
import { adminAuth, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * Active content (HTML, SVG, ...) is sandboxed and sent as an attachment unless an admin
 * turned on `allowContentBrowsing` for the repository it is read through; then it is shown
 * inline, its scripts running in a sandbox without the console's origin.
 */
let depot: TestDepot;
let upstream: ScriptedUpstream;
beforeAll(async () => {
  [depot, upstream] = await Promise.all([startTestDepot(), startScriptedUpstream()]);
  for (const key of ['site-local', 'open-site']) {
    await depot.services.repositories.create({ key, rclass: 'local', packageType: 'generic' });
  }
  for (const key of ['site-local', 'open-site']) {
    await depot.app.inject({
      method: 'PUT',
      url: `/artifactory/${key}/docs/index.html`,
      payload: '<html><script>alert(1)</script></html>',
      headers: adminAuth(),
    });
  }
});
afterAll(async () => {
  await Promise.all([depot?.close(), upstream?.close()]);
});

const download = (path: string, headers: Record<string, string> = {}, method = 'GET' as const) =>
  depot.app.inject({
    method,
    url: `/artifactory/${path}`,
    headers: { ...adminAuth(), ...headers },
  });
const setBrowsing = (key: string, allowContentBrowsing: boolean) =>
  depot.app.inject({
    method: 'POST',
    url: `/artifactory/api/repositories/${key}`,
    payload: { allowContentBrowsing },
    headers: adminAuth(),
  });

function expectSandboxed(response: Awaited<ReturnType<typeof download>>) {
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-security-policy']).toBe('sandbox');
  expect(response.headers['content-disposition']).toBe("attachment; filename*=UTF-8''index.html");
  expect(response.headers['x-content-type-options']).toBe('nosniff');
}

/** Shown inline, scripts allowed, but never with the console's origin (no allow-same-origin). */
function expectBrowsable(response: Awaited<ReturnType<typeof download>>, status = 200) {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-security-policy']).toBe(
    'sandbox allow-scripts allow-popups allow-downloads',
  );
  expect(response.headers['content-disposition']).toBeUndefined();
  expect(response.headers['x-content-type-options']).toBe('nosniff');
}

function expectInline(response: Awaited<ReturnType<typeof download>>) {
  expectBrowsable(response);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.body).toContain('<script>');
}

describe('allowContentBrowsing', () => {
  it('is off by default: HTML is sandboxed and downloaded as an attachment', async () => {
    const config = await depot.app.inject({
      url: '/artifactory/api/repositories/site-local',
      headers: adminAuth(),
    });
    expect(config.json().allowContentBrowsing).toBe(false);
    expectSandboxed(await download('site-local/docs/index.html'));
  });

  it('serves active content inline, scripts sandboxed away from the console, once an admin turns it on', async () => {
    expect((await setBrowsing('open-site', true)).statusCode).toBe(200);
    expectInline(await download('open-site/docs/index.html'));
    // The other repository keeps its sandbox.
    expectSandboxed(await download('site-local/docs/index.html'));
  });

  it('is sandboxed again when turned off', async () => {
    await setBrowsing('open-site', false);
    expectSandboxed(await download('open-site/docs/index.html'));
    await setBrowsing('open-site', true);
  });

  it('needs the virtual repository and the member holding the file to both allow it', async () => {
    await depot.services.repositories.create({
      key: 'site-virtual',
      rclass: 'virtual',
      packageType: 'generic',
      repositories: ['open-site'],
      allowContentBrowsing: false,
    });
    expectSandboxed(await download('site-virtual/docs/index.html'));
    await setBrowsing('site-virtual', true);
    expectInline(await download('site-virtual/docs/index.html'));
    await depot.services.repositories.update('site-virtual', { repositories: ['site-local'] });
    expectSandboxed(await download('site-virtual/docs/index.html'));
  });

  it('keeps the sandbox on every way the file is read: HEAD, a range, a 304', async () => {
    const path = 'open-site/docs/index.html';
    expectBrowsable(await download(path, {}, 'HEAD' as 'GET'));
    expectBrowsable(await download(path, { range: 'bytes=0-5' }), 206);
    const etag = String((await download(path)).headers.etag);
    expectBrowsable(await download(path, { 'if-none-match': etag }), 304);
    expect(BROWSABLE_SANDBOX).not.toMatch(/allow-same-origin|allow-top-navigation/);
  });

  it("keeps it for a remote repository's files, fetched and cached", async () => {
    upstream.file('/site/page.html', '<html><script>fetch("/ui/api/v1/ui/users")</script></html>');
    await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
    await depot.services.repositories.create({
      key: 'site-remote',
      rclass: 'remote',
      packageType: 'generic',
      url: `${upstream.base}/site/`,
      allowContentBrowsing: true,
    });
    for (let read = 0; read < 2; read++) {
      const response = await download('site-remote/page.html');
      expectBrowsable(response);
      expect(response.body).toContain('<script>');
    }
    expect(upstream.hits('/site/page.html')).toBe(1);
  });

  it('refuses a value that is not a boolean', async () => {
    const response = await depot.app.inject({
      method: 'POST',
      url: '/artifactory/api/repositories/open-site',
      payload: { allowContentBrowsing: 'yes' },
      headers: adminAuth(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].field).toBe('allowContentBrowsing');
  });
});
