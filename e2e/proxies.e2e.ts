import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingProxy, type CountingProxy } from '../tests/helpers/counting-proxy.ts';
import { startReceiver, until, type Receiver } from '../tests/helpers/webhook-receiver.ts';
import { launchBrowser, openFreshPage, signIn } from './browser.ts';
import { scriptedCall, startDepot, type E2eDepot } from './server.ts';

/**
 * The proxies form's "Services Using the Default Proxy" in a real browser (docs/proxies.md,
 * "Who uses which proxy"): the checkboxes set, saved, read back after a reload, and the
 * webhooks one taking effect: a subscription that names no proxy then delivers through the
 * default proxy, a real forward proxy on loopback.
 */
const ADMIN_PASSWORD = 'proxies-admin-pass-1';
const admin = { user: 'admin', password: ADMIN_PASSWORD };
const SERVICES = {
  remoteRepositories: 'Remote repositories (fetches and Test)',
  webhooks: 'Webhook deliveries without a proxy of their own',
  licenseBuckets: 'License bucket files fetched from a URL',
};
let depot: E2eDepot;
let proxy: CountingProxy;
let receiver: Receiver;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD, { DEPOT_WEBHOOK_POLL_MS: '100' });
  proxy = await startCountingProxy();
  receiver = await startReceiver();
  browser = await launchBrowser();
  const settings = { remoteAllowList: ['127.0.0.1'] };
  expect((await scriptedCall(depot, admin, 'PUT', '/ui/api/v1/ui/securityconfig', settings)).ok);
  const repository = { rclass: 'local', packageType: 'generic' };
  const path = '/artifactory/api/repositories/proxied-local';
  expect((await scriptedCall(depot, admin, 'PUT', path, repository)).status).toBe(200);
  // A subscription that names no proxy: it connects directly unless the default proxy serves webhooks.
  const subscription = {
    key: 'no-own-proxy',
    enabled: true,
    event_filter: {
      domain: 'artifact',
      event_types: ['deployed'],
      criteria: { anyLocal: true, anyRemote: false, repoKeys: [] },
    },
    handlers: [{ handler_type: 'webhook', url: `${receiver.url}/no-own-proxy`, proxy: '' }],
  };
  const created = await scriptedCall(
    depot,
    admin,
    'POST',
    '/event/api/v1/subscriptions',
    subscription,
  );
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
  await receiver?.close();
  await proxy?.close();
});

const service = (label: string) => page.getByRole('checkbox', { name: label, exact: true });
const checkedServices = async () => {
  const checked: string[] = [];
  for (const [value, label] of Object.entries(SERVICES))
    if (await service(label).isChecked()) checked.push(value);
  return checked;
};

/** Deploys a file and answers the targets the proxy was asked for on its delivery's behalf. */
async function deliveredVia(name: string) {
  const before = proxy.seen.length;
  const deployed = await scriptedCall(
    depot,
    admin,
    'PUT',
    `/artifactory/proxied-local/${name}`,
    name,
  );
  expect(deployed.status).toBe(201);
  await until(
    () => receiver.requests.some((r) => (r.json.data as { path?: string })?.path === name),
    `the delivery of ${name}`,
    30_000,
  );
  return proxy.seen.slice(before).map((seen) => seen.target);
}

describe('the default proxy and the services it serves', () => {
  it('saves the services checked and shows them again after a reload', async () => {
    // Before any proxy: the delivery connects directly.
    expect(await deliveredVia('before.txt')).toEqual([]);

    ({ page, pageErrors } = await openFreshPage(browser, page));
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\//);
    await page.goto(depot.ui('/admin/proxies/configuration'));
    await page.getByRole('link', { name: 'New Proxy' }).click();
    await page.waitForURL(/\/proxies\/configuration\/new$/);
    await page.getByLabel(/^Proxy Key/).fill('corp');
    await page.getByLabel(/^Host/).fill('127.0.0.1');
    await page.getByLabel(/^Port/).fill(String(proxy.port));
    await page.getByRole('checkbox', { name: 'Default Proxy', exact: true }).check();
    // A new proxy serves remote repositories unless changed (the schema's default).
    expect(await checkedServices()).toEqual(['remoteRepositories']);
    await service(SERVICES.remoteRepositories).uncheck();
    await service(SERVICES.webhooks).check();
    await service(SERVICES.licenseBuckets).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText("Proxy 'corp' created").waitFor();

    await page.goto(depot.ui('/admin/proxies/configuration/edit/corp'));
    await page.reload();
    await page.getByLabel(/^Host/).waitFor();
    await expect.poll(checkedServices).toEqual(['webhooks', 'licenseBuckets']);
    const saved = await scriptedCall(depot, admin, 'GET', '/ui/api/v1/ui/proxies/corp');
    expect(await saved.json()).toMatchObject({
      key: 'corp',
      defaultProxy: true,
      services: ['webhooks', 'licenseBuckets'],
    });
    expect(pageErrors).toEqual([]);
  });

  it('sends a webhook that names no proxy through the default proxy once it serves webhooks', async () => {
    expect(await deliveredVia('after.txt')).toEqual([`${receiver.url}/no-own-proxy`]);

    // Unchecked again in the form: deliveries go directly once more.
    await service(SERVICES.webhooks).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText("Proxy 'corp' updated").waitFor();
    expect(await deliveredVia('unchecked.txt')).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
