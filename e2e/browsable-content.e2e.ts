import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signIn } from './browser.ts';
import { basicAuth, startDepot, type E2eDepot } from './server.ts';

/**
 * An admin signed in to the console, whose browser also holds basic-auth credentials for
 * Depot (Playwright's httpCredentials answer every challenge, as a browser's cache does),
 * opens a page someone deployed to a repository with content browsing on, and a page of
 * another site. The deployed page's scripts run, but in a sandbox without the console's
 * origin; neither page can change anything on Depot (docs/security.md).
 */
const ADMIN_PASSWORD = 'browse-admin-1';
const PROBE = `<!doctype html><html><body><script>
const out = { scriptRan: true };
try { out.cookie = 'read:' + document.cookie; } catch (error) { out.cookie = 'blocked:' + error.name; }
const settle = (promise) => promise.then((r) => 'status:' + r.status, (e) => 'failed:' + e.name);
(async () => {
  out.read = await fetch('/ui/api/v1/ui/auth/current', { credentials: 'include' })
    .then((r) => r.text()).then((t) => 'read:' + t, (e) => 'failed:' + e.name);
  out.move = await settle(fetch('/artifactory/api/move/site-local/victim.txt?to=/site-local/moved.txt',
    { method: 'POST', credentials: 'include' }));
  out.token = await settle(fetch('/access/api/v1/tokens', { method: 'POST', credentials: 'include',
    headers: { 'content-type': 'text/plain' }, body: '{"description":"from the page"}' }));
  document.body.dataset.out = JSON.stringify(out);
  document.title = 'done';
})();
</script></body></html>`;

let depot: E2eDepot;
let attacker: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const asAdmin = (method: string, path: string, body?: string) =>
  fetch(`${depot.baseUrl}${path}`, {
    method,
    headers: {
      authorization: basicAuth('admin', ADMIN_PASSWORD),
      'content-type': 'application/json',
    },
    body,
  });
const exists = async (path: string) =>
  (await asAdmin('GET', `/artifactory/site-local/${path}`)).status === 200;
const tokenCount = async () =>
  ((await (await asAdmin('GET', '/access/api/v1/tokens')).json()) as { tokens: unknown[] }).tokens
    .length;

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD);
  const created = await asAdmin(
    'PUT',
    '/artifactory/api/repositories/site-local',
    JSON.stringify({ rclass: 'local', packageType: 'generic', allowContentBrowsing: true }),
  );
  expect(created.status).toBe(200);
  for (const [path, content] of [
    ['page.html', PROBE],
    ['victim.txt', 'victim'],
  ])
    expect((await asAdmin('PUT', `/artifactory/site-local/${path}`, content)).status).toBe(201);
  // Another site: a page that posts a text/plain form to Depot as soon as it loads.
  attacker = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(
      `<form method="POST" enctype="text/plain"
         action="${depot.baseUrl}/artifactory/api/move/site-local/victim.txt?to=/site-local/stolen.txt">
         <input name="a" value="b"></form><script>document.forms[0].submit()</script>`,
    );
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  browser = await launchBrowser();
  context = await browser.newContext({
    httpCredentials: { username: 'admin', password: ADMIN_PASSWORD },
  });
  page = await context.newPage();
  page.setDefaultTimeout(15000);
  await page.goto(depot.ui('/login'));
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (attacker ? attacker.close(resolve) : resolve(undefined)));
  await depot?.stop();
});

describe('a deployed page with content browsing on', () => {
  it("runs, but reads neither the console's cookies nor the API, and changes nothing", async () => {
    expect((await context.cookies()).map((cookie) => cookie.name)).toContain('depot_session');
    const tokens = await tokenCount();
    await page.goto(`${depot.baseUrl}/artifactory/site-local/page.html`);
    await page.waitForFunction(() => document.title === 'done');
    const out = JSON.parse(await page.evaluate(() => document.body.dataset.out ?? '{}'));
    expect(out.scriptRan).toBe(true);
    expect(out.cookie).toMatch(/^blocked:/);
    expect(out.read).toMatch(/^failed:/);
    expect(out.move).toMatch(/^failed:/);
    expect(out.token).toMatch(/^failed:/);
    expect(await exists('victim.txt')).toBe(true);
    expect(await exists('moved.txt')).toBe(false);
    expect(await tokenCount()).toBe(tokens);
  });
});

describe('a page of another site', () => {
  it('cannot move a file with a text/plain form and the cached basic credentials', async () => {
    const { port } = attacker.address() as AddressInfo;
    // localhost and 127.0.0.1 are different sites to the browser.
    await page.goto(`http://localhost:${port}/`);
    await page.waitForURL(/\/artifactory\/api\/move\//);
    expect(await page.textContent('body')).toContain('Cross-site request refused');
    expect(await exists('victim.txt')).toBe(true);
    expect(await exists('stolen.txt')).toBe(false);
  });
});
