import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_LABELS as L, SEARCH_MESSAGES as M } from '../src/custom/search/messages.ts';
import {
  COLD_STORAGE_PATH,
  DISPLAY_STATES,
  RETENTION_LABELS as R,
  RETENTION_MESSAGES as RM,
} from '../src/custom/retention/messages.ts';
import { chooseOption, launchBrowser, openFreshPage, openListbox, signIn } from './browser.ts';
import { scriptedCall, startDepot, type E2eDepot } from './server.ts';

/**
 * The artifact search in a real browser against a real Depot: the toolbar's quick search to
 * the results page, a result opened in the tree, a property search, a checksum of a bad
 * length refused without a request, and recent searches kept across a reload. Then the
 * archive: a retention policy's run archives a file, the toolbar's Archive scope finds it, the
 * 'Select Restore Destination' modal brings it back to the tree, and cold storage monitoring
 * lists both executions.
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
  await page.waitForURL(/\/ui\/admin\/mission_control\/topology$/);
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

describe('the archive (retention)', () => {
  const POLICIES = '/ui/api/v1/ui/retention/archive/policies';
  const runs = async (kind: 'archive' | 'restore') =>
    (await (await admin('GET', `/ui/api/v1/ui/retention/${kind}/executions`)).json()) as {
      policyName: string;
      endTime: number | null;
      state: string;
    }[];

  it('finds what a policy run archived with the Archive scope of the toolbar', async () => {
    const saved = await admin('POST', POLICIES, {
      key: 'old-libs',
      cronExp: '0 0 3 ? * SUN',
      enabled: false,
      action: 'archive',
      policyBase: 'FORM',
      repositories: ['libs-local'],
      paths: ['lib'],
    });
    expect(saved.status).toBe(201);
    expect((await admin('POST', `${POLICIES}/old-libs/trigger`)).status).toBe(200);
    await expect.poll(async () => (await runs('archive'))[0]?.endTime ?? null).not.toBeNull();
    expect((await runs('archive'))[0]).toMatchObject({ policyName: 'old-libs', state: 'COMPLETE' });
    expect((await admin('GET', '/artifactory/libs-local/lib/library.bin')).status).toBe(404);

    await page.goto(depot.ui('/artifactSearchResults'));
    await chooseOption(page, L.toolbarScope, L.scopes.archive);
    await page.getByLabel(L.toolbarSearch, { exact: true }).fill('library');
    await page.getByLabel(L.toolbarSearch, { exact: true }).press('Enter');
    await page.waitForURL(/\/ui\/artifactoryRetention\/search\?aql=items\.find/);
    await page.getByRole('status').getByText(R.found(1)).waitFor();
    const table = page.getByRole('table', { name: R.searchTitle });
    await expect
      .poll(() => table.locator('tbody tr td:nth-child(2)').allTextContents())
      .toEqual(['library.bin']);
  });

  it('restores it through the Select Restore Destination modal; the tree shows it again', async () => {
    await page.getByRole('checkbox', { name: R.select('libs-local/lib/library.bin') }).check();
    await page.getByRole('button', { name: R.restoreSelected(1) }).click();
    const dialog = page.getByRole('dialog', { name: R.restoreTitle });
    expect(await dialog.getByRole('radio', { name: R.original }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: R.restore, exact: true }).click();
    await page.getByText('1 item(s) restored').waitFor();
    await page.getByText(RM.noResults).waitFor();
    expect(await (await admin('GET', '/artifactory/libs-local/lib/library.bin')).text()).toBe(
      'a library',
    );

    await page.goto(depot.ui('/repos/tree/General/libs-local/lib/library.bin'));
    await page.locator('[role=treeitem][aria-selected=true]', { hasText: 'library.bin' }).waitFor();
  });

  it('lists the archive and the restore executions in cold storage monitoring', async () => {
    await page.goto(depot.ui(COLD_STORAGE_PATH));
    await page.getByRole('heading', { name: R.monitoringTitle, level: 1 }).waitFor();
    const archived = page.getByRole('table', { name: R.tabs.archive });
    await archived.getByRole('row', { name: /old-libs/ }).waitFor();
    expect(await archived.getByRole('row', { name: /old-libs/ }).textContent()).toContain(
      DISPLAY_STATES.COMPLETE,
    );
    await page.getByRole('region', { name: R.cards.artifacts(0) }).waitFor();
    await page.getByRole('tab', { name: R.tabs.restore }).click();
    const restored = page.getByRole('table', { name: R.tabs.restore });
    await restored.getByRole('row').nth(1).waitFor();
    expect(await restored.getByRole('row').count()).toBe(2);
    expect(await restored.getByRole('row').nth(1).textContent()).toContain(DISPLAY_STATES.COMPLETE);
    expect(pageErrors).toEqual([]);
  });
});
