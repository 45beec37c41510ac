import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES as M } from '../server/modules/webhooks/messages.ts';
import { DELIVERY_LABELS as L } from '../src/custom/webhook-deliveries/messages.ts';
import { buildInfo } from '../tests/helpers/build-info.ts';
import { startReceiver, type Receiver } from '../tests/helpers/webhook-receiver.ts';
import {
  chooseOption,
  launchBrowser,
  openFreshPage,
  openListbox,
  selectTrigger,
  signIn,
} from './browser.ts';
import { scriptedCall, startDepot, type E2eDepot } from './server.ts';

/**
 * A webhook's life in a real browser against a receiver on loopback: created and tested from
 * the form, a deploy seen in its delivery history, retries while the receiver is down, a
 * redelivery, an edit at the spec's edit path, and the delete.
 */
const ADMIN_PASSWORD = 'hooks-admin-pass-1';
const admin = { user: 'admin', password: ADMIN_PASSWORD };
let depot: E2eDepot;
let receiver: Receiver;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD, {
    DEPOT_WEBHOOK_POLL_MS: '100',
    DEPOT_WEBHOOK_RETRY_BASE_MS: '300',
    DEPOT_WEBHOOK_RETRY_MAX_MS: '600',
  });
  receiver = await startReceiver();
  browser = await launchBrowser();
  const settings = { remoteAllowList: ['127.0.0.1'] };
  expect((await scriptedCall(depot, admin, 'PUT', '/ui/api/v1/ui/securityconfig', settings)).ok);
  const repository = { rclass: 'local', packageType: 'generic' };
  const created = await scriptedCall(
    depot,
    admin,
    'PUT',
    '/artifactory/api/repositories/hooks-local',
    repository,
  );
  expect(created.status).toBe(200);
  // What the form's pickers offer: a proxy and a build.
  const proxy = { key: 'corp-proxy', host: '127.0.0.1', port: 3128 };
  expect((await scriptedCall(depot, admin, 'POST', '/ui/api/v1/ui/proxies', proxy)).status).toBe(
    201,
  );
  const build = buildInfo({ name: 'nightly-app', number: '1', modules: [{ id: 'app' }] });
  expect((await scriptedCall(depot, admin, 'PUT', '/artifactory/api/build', build)).ok).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
  await receiver?.close();
});

const deploy = async (path: string) =>
  expect(
    (await scriptedCall(depot, admin, 'PUT', `/artifactory/hooks-local/${path}`, path)).status,
  ).toBe(201);
const row = (text: string | RegExp) => page.locator('.ag-row', { hasText: text });
const cell = (text: string | RegExp, column: string) =>
  row(text).locator(`[col-id="${column}"]`).first();

describe('webhooks in the console', () => {
  it('offers the proxies and the builds Depot has in the pickers', async () => {
    ({ page, pageErrors } = await openFreshPage(browser, page));
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\//);
    await page.goto(depot.ui('/admin/configuration/webhooks/new'));
    await selectTrigger(page, 'Use Proxy').click();
    const offered = openListbox(page).getByRole('option');
    await offered.filter({ hasText: 'corp-proxy' }).waitFor();
    expect(await offered.allTextContents()).toEqual(['No proxy: connect directly', 'corp-proxy']);
    await page.keyboard.press('Escape');
    const builds = page.getByRole('group', { name: 'Builds', exact: true }).first();
    await builds.getByRole('checkbox', { name: 'nightly-app', exact: true }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('creates a webhook and tests it against the receiver', async () => {
    ({ page, pageErrors } = await openFreshPage(browser, page));
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\//);
    await page.goto(depot.ui('/admin/configuration/webhooks'));
    await page.getByRole('link', { name: 'New Webhook' }).click();
    await page.waitForURL(/\/webhooks\/new$/);
    const sections = ['General Settings', 'Events', 'Repositories', 'Builds', 'Release Bundle'];
    for (const section of sections)
      await page.getByRole('group', { name: section, exact: true }).first().waitFor();
    // The Release Bundle list's help and empty state (the schema's description, the descriptor's emptyText).
    const bundles = page.getByRole('group', { name: 'Release Bundles', exact: true });
    await bundles.getByText('No release bundle names or patterns entered.').waitFor();
    await bundles.getByText(/^Depot has no release bundles yet/).waitFor();
    await page.getByLabel(/^Name/).fill('ci-hook');
    await page.getByLabel(/^URL/).fill(`${receiver.url}/ci`);
    await chooseOption(page, 'Event Domain', 'Artifacts');
    await page.getByRole('checkbox', { name: 'Artifact was deployed' }).check();
    await page.getByRole('checkbox', { name: 'hooks-local', exact: true }).check();

    await page.getByRole('button', { name: 'Test' }).click();
    await page.getByText(M.testSucceeded).waitFor();
    expect(receiver.requests.at(-1)?.json).toMatchObject({ subscription_key: 'ci-hook' });

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText("Webhook 'ci-hook' created").waitFor();
    await row('ci-hook').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('shows a deploy in the delivery history, at the spec edit path', async () => {
    const before = receiver.requests.length;
    await deploy('first.txt');
    await page.getByRole('link', { name: 'ci-hook' }).click();
    await page.waitForURL(/\/admin\/configuration\/webhooks\/edit\/ci-hook$/);
    await page.getByRole('heading', { name: L.title }).waitFor();
    await cell('artifact.deployed', 'status').filter({ hasText: 'Delivered' }).waitFor();
    await cell('artifact.deployed', 'responseCode').filter({ hasText: '200' }).waitFor();
    expect(receiver.requests.slice(before).map((r) => r.json.data)).toMatchObject([
      { path: 'first.txt' },
    ]);
    expect(pageErrors).toEqual([]);
  });

  it('shows the retries while the receiver is down, then redelivers', async () => {
    const { port } = receiver;
    await receiver.close();
    await deploy('second.txt');
    await page.getByRole('button', { name: L.refresh }).click();
    const retrying = row(/Retrying/);
    await retrying.waitFor();
    await expect
      .poll(async () => Number(await retrying.locator('[col-id="attempts"]').textContent()), {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(2);

    // Redelivered while the receiver is still down: it queues ahead of the later one.
    await page
      .getByRole('button', { name: /^Redeliver artifact\.deployed/ })
      .first()
      .click();
    await page.getByText(/^Delivery '.+' will be sent again$/).waitFor();
    receiver = await startReceiver('127.0.0.1', port);
    await expect
      .poll(() => receiver.requests.map((r) => (r.json.data as { path: string }).path), {
        timeout: 20_000,
      })
      .toEqual(['first.txt', 'second.txt']);
    // The open history asks again by itself: both end delivered, nothing left retrying.
    await expect
      .poll(() => page.locator('[col-id="status"]', { hasText: 'Delivered' }).count(), {
        timeout: 20_000,
      })
      .toBe(2);
    await expect(row(/Retrying/).count()).resolves.toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('edits the webhook and deletes it', async () => {
    await page.getByLabel(/^Description/).fill('Tell CI about deploys');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText("Webhook 'ci-hook' updated").waitFor();
    await row('Tell CI about deploys').waitFor();
    await row('ci-hook').locator('input[type=checkbox]').first().check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('1 webhook(s) deleted').waitFor();
    await row('ci-hook').waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});
