import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * Active content (HTML, SVG, ...) is sandboxed and sent as an attachment unless an admin
 * turned on `allowContentBrowsing` for the repository it is read through.
 */
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
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
afterAll(() => depot?.close());

const download = (path: string) =>
  depot.app.inject({ url: `/artifactory/${path}`, headers: adminAuth() });
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

function expectInline(response: Awaited<ReturnType<typeof download>>) {
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.headers['content-security-policy']).toBeUndefined();
  expect(response.headers['content-disposition']).toBeUndefined();
  expect(response.headers['x-content-type-options']).toBe('nosniff');
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

  it('serves active content inline, without the sandbox, once an admin turns it on', async () => {
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
