import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_LABELS as L, SEARCH_MESSAGES as M } from '../src/custom/search/messages.ts';
import { launchBrowser, openFreshPage, openListbox, signIn } from './browser.ts';
import { scriptedCall, startDepot, type E2eDepot } from './server.ts';

/**
 * The artifact search in a real browser against a real Depot: the toolbar's quick search to
 * the results page, a result opened in the tree, a property search, a checksum of a bad
 * length refused without a request, and recent searches kept across a reload.
 */
const ADMIN = { user: 'admin', password: 'search-admin-pass-1' };
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

const admin = (method: string, path: string, body?: unknown) =>
  scriptedCall(depot, ADMIN, method, path, body);
const grid = () => page.getByLabel(L.title, { exact: true }).locator('.ag-root');
const resultLinks = () => grid().getByRole('link');

beforeAll(async () => {
  depot = await startDepot(ADMIN.password);
  for (const key of ['docs-local', 'libs-local'])
    expect(
      (
        await admin('PUT', `/artifactory/api/repositories/${key}`, {
          rclass: 'local',
          packageType: 'generic',
        })
      ).status,
    ).toBe(200);
  for (const [path, body] of [
    ['docs-local/guide/readme.md;team=core', 'the guide'],
    ['docs-local/guide/readme-old.md;team=web', 'the old guide'],
    ['libs-local/lib/library.bin', 'a library'],
  ])
    expect((await admin('PUT', `/artifactory/${path}`, body)).status).toBe(201);
  browser = await launchBrowser();
  ({ page, pageErrors } = await openFreshPage(browser));
  await page.goto(depot.ui('/login'));
  await signIn(page, ADMIN.user, ADMIN.password);
  await page.waitForURL(/\/ui\/admin\/management\/users$/);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

describe('artifact search', () => {
  it('runs a quick search from the toolbar and lists the results', async () => {
    await page.getByLabel(L.toolbarSearch, { exact: true }).fill('readme');
    await page.getByLabel(L.toolbarSearch, { exact: true }).press('Enter');
    await page.waitForURL(/\/ui\/artifactSearchResults\?searchType=quick&name=readme$/);
    await page.getByRole('status').getByText(M.found(2)).waitFor();
    await expect
      .poll(() => resultLinks().allTextContents())
      .toEqual(['readme-old.md', 'readme.md']);
  });

  it('opens a result in the tree', async () => {
    await resultLinks()
      .filter({ hasText: /^readme\.md$/ })
      .click();
    await page.waitForURL(/\/ui\/repos\/tree\/General\/docs-local\/guide\/readme\.md$/);
    await page.locator('[role=treeitem][aria-selected=true]', { hasText: 'readme.md' }).waitFor();
  });

  it('searches by property', async () => {
    await page.goto(depot.ui('/artifactSearchResults'));
    await page.getByRole('tab', { name: 'Property' }).click();
    await page.getByLabel(L.propertyKey).fill('team=core');
    await page.getByRole('button', { name: L.search, exact: true }).click();
    await page.waitForURL(/searchType=property&properties=team%3Dcore/);
    await expect.poll(() => resultLinks().allTextContents()).toEqual(['readme.md']);
  });

  it('runs the Remote search (no remote repositories here: nothing found)', async () => {
    await page.getByRole('tab', { name: 'Upstreams' }).click();
    await page.getByLabel(L.name, { exact: true }).fill('readme');
    await page.getByRole('button', { name: L.search, exact: true }).click();
    await page.waitForURL(/searchType=remote&name=readme$/);
    await page.getByText(M.noResults).waitFor();
    await page.goBack();
    await page.waitForURL(/searchType=property/);
  });

  it('refuses a checksum of a bad length without asking the server', async () => {
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/artifactsearch/checksum')) requests.push(request.url());
    });
    await page.getByRole('tab', { name: 'Checksum' }).click();
    await page.getByRole('textbox', { name: L.checksum }).fill('abc123');
    await page.getByRole('button', { name: L.search, exact: true }).click();
    await page.getByText(M.invalidChecksumLength).waitFor();
    expect(page.url()).toMatch(/searchType=property/);
    expect(requests).toEqual([]);
  });

  it('keeps recent searches across a reload, most recent first', async () => {
    await page.reload();
    const recent = page.getByRole('navigation', { name: L.recent }).getByRole('link');
    await recent.first().waitFor();
    expect(await recent.allTextContents()).toEqual([
      'remote: readme',
      'property: team=core',
      'quick: readme',
    ]);
    await recent.last().click();
    await page.waitForURL(/searchType=quick&name=readme$/);
    await expect
      .poll(() => resultLinks().allTextContents())
      .toEqual(['readme-old.md', 'readme.md']);
    expect(pageErrors).toEqual([]);
  });

  it('searches only the repositories picked in the repositories combobox', async () => {
    await page.goto(depot.ui('/artifactSearchResults'));
    await page.getByRole('textbox', { name: L.name, exact: true }).fill('readme');
    const repositories = page.getByRole('combobox', { name: L.repositories });
    await repositories.fill('do');
    await openListbox(page).getByRole('option', { name: 'docs-local' }).waitFor();
    expect(await openListbox(page).getByRole('option').allTextContents()).toEqual(['docs-local']);
    await repositories.press('ArrowDown');
    await repositories.press('Enter');
    await repositories.fill('libs');
    await openListbox(page).getByRole('option', { name: 'libs-local' }).click();
    // picked values become tags; removing one leaves the other
    const picked = page.getByRole('grid', { name: L.repositories });
    const tags = () =>
      picked.getByRole('row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));
    await expect.poll(tags).toEqual(['docs-local', 'libs-local']);
    await picked.getByRole('button', { name: /^Remove docs-local/ }).click();
    await expect.poll(tags).toEqual(['libs-local']);
    await page.getByRole('button', { name: L.search, exact: true }).click();
    await page.waitForURL(/searchType=quick&name=readme&repo=libs-local$/);
    await page.getByText(M.noResults).waitFor();
  });
});
