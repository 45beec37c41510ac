import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABELS } from '../src/shell/messages.ts';
import {
  LOG_SERVICES,
  SUPPORT_ZONE_PATH,
  SYSTEM_LOGS_LABELS as L,
} from '../src/custom/system-logs/messages.ts';
import { SERVICE_STATUS_LABELS as S } from '../src/custom/service-status/messages.ts';
import { SUPPORT_ZONE_LABELS as Z } from '../src/custom/support-zone/messages.ts';
import { chooseOption, chosenOption, launchBrowser, signIn, watchPageErrors } from './browser.ts';
import { basicAuth, startDepot, type E2eDepot } from './server.ts';

/**
 * The live log viewer in Chromium against a real server: it follows the request log while
 * requests are made, stops while paused (the page's clock run forward), and goes on when
 * resumed or told to refresh now.
 */
const ADMIN_PASSWORD = 'logs-admin-1';
const NODE = 'e2e-logs-node';
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];
let dataReads = 0;

/** A request as a script makes it; its path is then a line of the request log. */
const requestMarker = (marker: string) =>
  fetch(`${depot.baseUrl}/artifactory/${marker}/probe.txt`, {
    headers: { authorization: basicAuth('admin', ADMIN_PASSWORD) },
  }).then((response) => response.body?.cancel());

/** Whether the server's request log holds the marker, read as a script would. */
async function serverLogged(marker: string) {
  const response = await fetch(
    `${depot.baseUrl}/ui/api/v1/system/logs/data/artifactory?id=depot-request.log&file_size=0`,
    { headers: { authorization: basicAuth('admin', ADMIN_PASSWORD) } },
  );
  return ((await response.json()) as { log_content: string }).log_content.includes(marker);
}

async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 15000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const logArea = () => page.getByLabel(L.logArea);
const shows = (marker: string) =>
  logArea()
    .textContent()
    .then((t) => (t ?? '').includes(marker));

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD, {
    DEPOT_NODE_ID: NODE,
    DEPOT_LOG_VIEWER_REFRESH_MS: '2000',
    DEPOT_HEARTBEAT_SECONDS: '1',
  });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(15000);
  pageErrors = watchPageErrors(page);
  page.on('request', (request) => {
    if (request.url().includes('/system/logs/data/')) dataReads += 1;
  });
  // The page's timers run on a clock the test can stop and run forward.
  await page.clock.install();
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

describe('the live log viewer', () => {
  it('opens from Administration > Monitoring on this node and its service log', async () => {
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\/mission_control\/topology$/);
    const navigation = page.getByRole('navigation', { name: LABELS.mainNavigation });
    await navigation.getByRole('link', { name: L.title }).click();
    await page.waitForURL(/\/ui\/admin\/monitoring\/system_logs$/);
    await page.getByRole('heading', { name: L.title, level: 1 }).waitFor();
    // The service log has the start's lines, once the node and its logs are loaded.
    await until(() => shows('Depot is ready'), 'the service log shown');
    await expect(chosenOption(page, L.service)).resolves.toBe(LOG_SERVICES[0].label);
    await expect(chosenOption(page, L.node)).resolves.toBe(NODE);
    await expect(chosenOption(page, L.logFile)).resolves.toBe('depot-service.log');
    await expect(page.getByTestId('log-last-modified').textContent()).resolves.not.toBe('—');
    await expect(page.getByTestId('log-last-updated').textContent()).resolves.not.toBe('—');
    await expect(
      page.getByRole('link', { name: L.supportZone }).getAttribute('href'),
    ).resolves.toBe(`/ui${SUPPORT_ZONE_PATH}`);
  });

  it('follows the request log while requests are made', async () => {
    await chooseOption(page, L.logFile, 'depot-request.log');
    await requestMarker('marker-one');
    await until(() => shows('/artifactory/marker-one/probe.txt'), 'the first request followed');
    await requestMarker('marker-two');
    await until(() => shows('/artifactory/marker-two/probe.txt'), 'the second request followed');
    // The area follows the end.
    const atEnd = await logArea().evaluate(
      (area) => area.scrollTop + area.clientHeight >= area.scrollHeight - 2,
    );
    expect(atEnd).toBe(true);
  });

  it('reads nothing while paused, and goes on when resumed', async () => {
    await page.getByRole('button', { name: L.pause }).click();
    await page.getByText(L.paused).waitFor();
    await requestMarker('marker-paused');
    await until(() => serverLogged('/artifactory/marker-paused/probe.txt'), 'the server log');
    const readsBefore = dataReads;
    // Three refresh periods pass on the page's clock.
    await page.clock.runFor(6000);
    // A round trip the page makes after those ticks: any read they started came before it.
    await page.evaluate(() => fetch('/artifactory/api/system/ping').then((r) => r.text()));
    expect(dataReads).toBe(readsBefore);
    expect(await shows('/artifactory/marker-paused/probe.txt')).toBe(false);

    await page.getByRole('button', { name: L.resume }).click();
    await page.clock.runFor(2000);
    await until(() => shows('/artifactory/marker-paused/probe.txt'), 'the line after resuming');
  });

  it('reads at once on Refresh now, even while paused', async () => {
    await page.getByRole('button', { name: L.pause }).click();
    await requestMarker('marker-now');
    await until(() => serverLogged('/artifactory/marker-now/probe.txt'), 'the server log');
    await page.getByRole('button', { name: L.refreshNow }).click();
    await until(() => shows('/artifactory/marker-now/probe.txt'), 'the line on Refresh now');
    await page.getByText(L.paused).waitFor();
  });

  it('answers at its second admin path too, and the page raised no error', async () => {
    await page.goto(depot.ui('/admin/artifactory/advanced/system_logs'));
    await page.getByRole('heading', { name: L.title, level: 1 }).waitFor();
    await until(() => shows('Depot is ready'), 'the service log shown');
    expect(pageErrors).toEqual([]);
  });
});

describe('the service status page', () => {
  it('lists Depot with this node online, its heartbeat, uptime and parts', async () => {
    await page.clock.resume();
    const navigation = page.getByRole('navigation', { name: LABELS.mainNavigation });
    await navigation.getByRole('link', { name: S.title }).click();
    await page.waitForURL(/\/ui\/admin\/monitoring\/service-status$/);
    const depotService = page.getByRole('region', { name: 'Depot' });
    const row = depotService.getByRole('row', { name: new RegExp(NODE) });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    // Status, host, version, last heartbeat, uptime, database, filestore, jobs, actions.
    expect(cells[0]).toBe('ONLINE');
    expect(cells[4]).toMatch(/^\d+[dhms]( \d+[dhms])?$/);
    expect(cells.slice(5, 8)).toEqual(['ONLINE', 'ONLINE', 'ONLINE']);
    // A live node cannot be removed: no button offers it.
    expect(await row.getByRole('button').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

describe('the support zone', () => {
  it('creates a bundle with progress, downloads its zip and deletes it', async () => {
    const navigation = page.getByRole('navigation', { name: LABELS.mainNavigation });
    await navigation.getByRole('link', { name: Z.title }).click();
    await page.waitForURL(new RegExp(`/ui${SUPPORT_ZONE_PATH}$`));
    await page.getByText(Z.noBundles).waitFor();

    await page.getByRole('button', { name: Z.create }).click();
    const dialog = page.getByRole('dialog', { name: Z.createTitle });
    await dialog.getByLabel(Z.name).fill('e2e bundle');
    await dialog.getByLabel(Z.description).fill('for the test');
    // Dates out of order are refused in the form, before any call.
    await dialog.getByLabel(Z.logsFrom).fill('2031-01-10');
    await dialog.getByLabel(Z.logsTo).fill('2031-01-01');
    await dialog.getByRole('button', { name: Z.submit }).click();
    await dialog.getByText(Z.datesOutOfOrder).waitFor();
    await dialog.getByLabel(Z.logsFrom).fill('2020-01-01');
    await dialog.getByRole('button', { name: Z.submit }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(Z.started).waitFor();

    // The list is asked again while the bundle is made, until it is ready.
    const row = page.getByRole('row', { name: /e2e bundle/ });
    await row.getByText(Z.statusLabels.success).waitFor({ timeout: 30000 });
    expect(await row.getByRole('cell').nth(0).textContent()).toBe('for the test');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: `${Z.download} e2e bundle` }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const zip = await readFile((await download.path())!);
    expect(zip.subarray(0, 4).toString('binary')).toBe('PK\x03\x04');
    // Entry names are stored as plain text in a zip's headers.
    expect(zip.includes('manifest.json')).toBe(true);

    await row.getByRole('button', { name: `${Z.delete} e2e bundle` }).click();
    await page
      .getByRole('alertdialog', { name: Z.deleteTitle })
      .getByRole('button', { name: Z.delete })
      .click();
    await page.getByText(Z.noBundles).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
