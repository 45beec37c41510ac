import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABELS } from '../src/shell/messages.ts';
import {
  STORAGE_SUMMARY_COLUMNS,
  STORAGE_SUMMARY_LABELS,
} from '../src/custom/storage-summary/messages.ts';
import { launchBrowser, watchPageErrors, signIn } from './browser.ts';
import { startDepot, type E2eDepot } from './server.ts';

/**
 * The storage summary in a real browser against a real server: files deployed over HTTP as a
 * script would, including one content in two repositories, then read back on the page.
 */
const ADMIN_PASSWORD = 'summary-admin-1';
const SHARED = 'shared content '.repeat(200); // 3000 bytes
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

const adminAuth = {
  authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
};

/** A call as a script makes it (basic auth, from outside the browser). */
async function asScript(method: string, path: string, body: string, contentType?: string) {
  const response = await fetch(`${depot.baseUrl}${path}`, {
    method,
    headers: { ...adminAuth, ...(contentType ? { 'content-type': contentType } : {}) },
    body,
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
}
const createLocal = (key: string, packageType: string) =>
  asScript(
    'PUT',
    `/artifactory/api/repositories/${key}`,
    JSON.stringify({ rclass: 'local', packageType }),
    'application/json',
  );
const deploy = (path: string, body: string) => asScript('PUT', `/artifactory/${path}`, body);

const row = (text: string) => page.locator('.ag-row', { hasText: text });
const cell = (rowText: string, colId: string) => row(rowText).locator(`[col-id="${colId}"]`);
const barTitles = () => page.locator('svg[role="img"] g.usage-chart-bar > title').allTextContents();

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(10000);
  pageErrors = watchPageErrors(page);
  await createLocal('team-docs', 'generic');
  await createLocal('team-libs', 'maven');
  await deploy('team-docs/guide/shared.txt', SHARED);
  await deploy('team-docs/notes.txt', 'x'.repeat(1000));
  await deploy('team-libs/org/acme/shared.txt', SHARED);
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

describe('the storage summary page', () => {
  it('opens from Administration > Monitoring in the sidebar', async () => {
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\/mission_control\/topology$/);
    const navigation = page.getByRole('navigation', { name: LABELS.mainNavigation });
    await navigation.getByRole('heading', { name: STORAGE_SUMMARY_LABELS.menuGroup }).waitFor();
    await navigation.getByRole('link', { name: STORAGE_SUMMARY_LABELS.title }).click();
    await page.waitForURL(/\/ui\/admin\/monitoring\/storage-summary$/);
    await page.getByRole('heading', { name: STORAGE_SUMMARY_LABELS.title, level: 1 }).waitFor();
    expect(await page.title()).toMatch(new RegExp(`^${STORAGE_SUMMARY_LABELS.title} - `));
  });

  it('shows binaries against artifacts and what deduplication saves', async () => {
    const card = (name: string) => page.getByRole('region', { name, exact: true });
    // Two contents stored (3000 + 1000 bytes) for three files (7000 bytes).
    await expect(card(STORAGE_SUMMARY_LABELS.binaries).innerText()).resolves.toMatch(
      /Count\s+2\s+Size\s+3\.91 KB/,
    );
    await expect(card(STORAGE_SUMMARY_LABELS.artifacts).innerText()).resolves.toMatch(
      /Count\s+3\s+Size\s+6\.84 KB/,
    );
    await expect(card(STORAGE_SUMMARY_LABELS.deduplication).innerText()).resolves.toMatch(
      /Saves\s+2\.93 KB \(42\.86%\)\s+Optimization\s+57\.14%/,
    );
    const disk = page.getByRole('meter', { name: STORAGE_SUMMARY_LABELS.diskUse });
    await expect(disk.getAttribute('aria-valuetext')).resolves.toMatch(/^Used .+ of .+ \(.+%\)$/);
  });

  it('lists the repositories with their figures and a pinned total', async () => {
    for (const header of Object.values(STORAGE_SUMMARY_COLUMNS)) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    await row('team-docs').waitFor();
    await expect(cell('team-docs', 'usedSpace').innerText()).resolves.toBe('3.91 KB');
    await expect(cell('team-docs', 'percentage').innerText()).resolves.toBe('57.14%');
    await expect(cell('team-docs', 'filesCount').innerText()).resolves.toBe('2');
    await expect(cell('team-docs', 'foldersCount').innerText()).resolves.toBe('1');
    await expect(cell('team-libs', 'packageType').innerText()).resolves.toBe('Maven');
    await expect(cell('team-libs', 'usedSpace').innerText()).resolves.toBe('2.93 KB');
    await expect(cell('team-libs', 'itemsCount').innerText()).resolves.toBe('3');
    await expect(cell('TOTAL', 'usedSpace').innerText()).resolves.toBe('6.84 KB');
    await expect(cell('TOTAL', 'itemsCount').innerText()).resolves.toBe('6');
  });

  it('sorts the table by used space, the total staying last', async () => {
    const keys = () => page.locator('.ag-row [col-id="repoKey"]').allInnerTexts();
    const header = page.getByRole('columnheader', { name: STORAGE_SUMMARY_COLUMNS.usedSpace });
    await header.click(); // ascending
    await expect.poll(keys).toEqual(['team-libs', 'team-docs', 'TOTAL']);
    await header.click(); // descending
    await expect.poll(keys).toEqual(['team-docs', 'team-libs', 'TOTAL']);
  });

  it('draws a bar per repository with its size and share', async () => {
    await page.getByRole('img', { name: new RegExp(STORAGE_SUMMARY_LABELS.chartTitle) }).waitFor();
    await expect(barTitles()).resolves.toEqual([
      'team-docs: 3.91 KB (57.14%)',
      'team-libs: 2.93 KB (42.86%)',
    ]);
  });

  it('shows a new repository after Refresh', async () => {
    await createLocal('late-arrival', 'npm');
    await deploy('late-arrival/pkg.tgz', 'y'.repeat(2048));
    await page.getByRole('button', { name: STORAGE_SUMMARY_LABELS.refresh }).click();
    await row('late-arrival').waitFor();
    await expect(cell('late-arrival', 'usedSpace').innerText()).resolves.toBe('2 KB');
    await expect.poll(barTitles).toContain('late-arrival: 2 KB (22.63%)');
  });

  it('raised no uncaught error in the page', () => {
    expect(pageErrors.map((e) => e.message)).toEqual([]);
  });
});
