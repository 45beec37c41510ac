import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAB_LABELS } from '../src/custom/tree-browser/messages.ts';
import { buildInfo } from '../tests/helpers/build-info.ts';
import { launchBrowser, signIn, watchPageErrors } from './browser.ts';
import { startDepot, type E2eDepot } from './server.ts';

/**
 * The tree's Builds tab against a real server (docs/builds.md, "Linking"): a jar deployed
 * over REST, a build that produced it and one that used it uploaded as CI does, and the tab
 * listing both in Chromium.
 */
const ADMIN_PASSWORD = 'builds-admin-pass-1';
const JAR = 'org/acme/app/1.0/app-1.0.jar';
const T = TAB_LABELS.builds;
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

const authorization = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
async function asScript(method: string, path: string, body: string | object) {
  const json = typeof body === 'object';
  const response = await fetch(`${depot.baseUrl}${path}`, {
    method,
    headers: { authorization, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(body) : body,
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
}

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD);
  await asScript('PUT', '/artifactory/api/repositories/libs-local', {
    rclass: 'local',
    packageType: 'generic',
  });
  await asScript('PUT', `/artifactory/libs-local/${JAR}`, 'app jar');
  const jar = { name: 'app-1.0.jar', content: 'app jar' };
  await asScript(
    'PUT',
    '/artifactory/api/build',
    buildInfo({
      name: 'acme-app',
      number: '12',
      modules: [{ id: 'org.acme:app:1.0', artifacts: [jar] }],
    }),
  );
  await asScript(
    'PUT',
    '/artifactory/api/build',
    buildInfo({
      name: 'acme-service',
      number: '4',
      modules: [
        {
          id: 'service',
          dependencies: [{ ...jar, name: 'org.acme:app:1.0', scopes: ['compile'] }],
        },
      ],
    }),
  );
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(10000);
  pageErrors = watchPageErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

describe("a jar's Builds tab", () => {
  it('lists the build that produced it and the build that used it', async () => {
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\//);
    await page.goto(depot.ui(`/repos/tree/General/libs-local/${JAR}`));
    await page.getByRole('tab', { name: 'Builds' }).click();
    await page.waitForURL((url) => url.pathname === `/ui/repos/tree/Builds/libs-local/${JAR}`);
    const produced = page.getByRole('table', { name: T.producedBy });
    await expect.poll(() => produced.getByRole('row').count()).toBe(2);
    expect(await produced.getByRole('row').nth(1).textContent()).toContain(
      'acme-app12org.acme:app:1.0',
    );
    const used = page.getByRole('table', { name: T.usedBy });
    await expect.poll(() => used.getByRole('row').count()).toBe(2);
    expect(await used.getByRole('row').nth(1).textContent()).toContain('acme-service4service');
    expect(pageErrors).toEqual([]);
  });
});
