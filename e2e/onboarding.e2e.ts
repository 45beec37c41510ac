import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABELS } from '../src/shell/messages.ts';
import { QUICK_SETUP_LABELS as Q } from '../src/custom/quick-setup/messages.ts';
import { ONBOARDING_LABELS as W } from '../src/custom/onboarding/messages.ts';
import { TOPOLOGY_LABELS as T } from '../src/custom/topology/messages.ts';
import { chooseOption, launchBrowser, openFreshPage, signIn } from './browser.ts';
import { basicAuth, startDepot, type E2eDepot } from './server.ts';

/**
 * The first run of an admin (docs/onboarding.md) in a real browser against a real server:
 * the quick setup at the first sign-in, npm repositories created, the topology afterwards;
 * a user lands on packages.
 */
const ADMIN_PASSWORD = 'onboard-admin-1';
const NPM_UPSTREAM = 'http://npm-upstream.example/';
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

const adminCall = (method: string, path: string, body?: unknown) =>
  fetch(`${depot.baseUrl}${path}`, {
    method,
    headers: {
      authorization: basicAuth('admin', ADMIN_PASSWORD),
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function logout() {
  await page.getByRole('button', { name: new RegExp(LABELS.userMenu) }).click();
  await page.getByRole('button', { name: LABELS.logout }).click();
  await page.waitForURL(/\/ui\/login/);
}

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD, {
    DEPOT_QUICK_SETUP_ON_FIRST_LOGIN: 'true',
    DEPOT_QUICK_SETUP_UPSTREAMS: `npm=${NPM_UPSTREAM}`,
  });
  const created = await adminCall('PUT', '/artifactory/api/security/users/newcomer', {
    email: 'newcomer@example.com',
    password: 'newcomer-pass-1',
  });
  expect(created.status).toBe(201);
  browser = await launchBrowser();
  ({ page, pageErrors } = await openFreshPage(browser));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

describe('the first run', () => {
  it('opens the personalisation wizard at the first sign-in; its steps need their answers', async () => {
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/onboarding$/);
    await page.getByRole('heading', { name: W.title, level: 1 }).waitFor();
    await page.getByRole('button', { name: W.start }).click();
    await page.getByRole('button', { name: W.next }).click();
    await page.getByText(W.required).waitFor();
    await page.getByRole('radio', { name: 'Commercial' }).check();
    await page.getByRole('button', { name: W.next }).click();
    await page.getByLabel(new RegExp(`^${W.companyName}`)).fill('Acme');
    await chooseOption(page, W.role, 'DevOps Engineer');
    await page.getByRole('button', { name: W.next }).click();
    await page.getByRole('checkbox', { name: 'Container Registry' }).check();
    await page.getByRole('button', { name: W.finish }).click();
    await page.waitForURL(/\/ui\/quick-setup$/);
    expect(await (await adminCall('GET', '/ui/api/v1/ui/onboarding')).json()).toMatchObject({
      personalization: 'done',
      answers: { purpose: 'Commercial', companyName: 'Acme', role: 'DevOps Engineer' },
    });
    expect(pageErrors).toEqual([]);
  });

  it('then the quick setup, which creates npm repositories', async () => {
    await page.getByRole('heading', { name: Q.title, level: 1 }).waitFor();

    await page.getByRole('checkbox', { name: 'npm', exact: true }).check();
    await page.getByRole('button', { name: Q.next }).click();
    await page.getByLabel(new RegExp(`^${Q.prefix}`)).fill('team');
    expect(await page.getByLabel(new RegExp(`^${Q.upstream('npm')}`)).inputValue()).toBe(
      NPM_UPSTREAM,
    );
    const plan = page.getByRole('table', { name: Q.preview });
    await plan.getByRole('cell', { name: 'team-npm-virtual' }).waitFor();
    // Quick setup repositories belong to no project: the spec's Default Project.
    const virtualRow = plan.getByRole('row').filter({ hasText: 'team-npm-virtual' });
    await virtualRow.getByRole('cell', { name: Q.defaultProject }).waitFor();
    await page.getByRole('button', { name: Q.create, exact: true }).click();

    await page
      .getByRole('heading', { name: 'All repositories were created successfully' })
      .waitFor();
    for (const key of ['team-npm-local', 'team-npm-remote', 'team-npm-virtual'])
      await page.getByRole('link', { name: key }).waitFor();
    const virtual = await adminCall('GET', '/artifactory/api/repositories/team-npm-virtual');
    expect(await virtual.json()).toMatchObject({
      rclass: 'virtual',
      repositories: ['team-npm-local', 'team-npm-remote'],
    });

    await page.getByRole('button', { name: Q.finish }).click();
    await page.waitForURL(/\/ui\/admin\/mission_control\/topology$/);
    await page.getByRole('heading', { name: T.title, level: 1 }).waitFor();
    // The deployment's node, from its heartbeat, and the map's text.
    await page.getByText(/Platform deployment Depot E2E: ONLINE, 1 of 1 nodes online\./).waitFor();
    await page.getByText(T.noneConfigured).first().waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('lands the admin on the topology at the next sign-in', async () => {
    await logout();
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\/mission_control\/topology$/);
    await page.goto(depot.ui('/'));
    await page.waitForURL(/\/ui\/admin\/mission_control\/topology$/);
  });

  it('reopens the quick setup from the quick actions menu; a clash names the key and creates nothing', async () => {
    await page.getByRole('button', { name: LABELS.quickActions }).click();
    await page.getByRole('menuitem', { name: 'Quick Repository Creation' }).click();
    await page.waitForURL(/\/ui\/quick-setup$/);
    await page.getByRole('checkbox', { name: /^npm/ }).check();
    await page.getByRole('checkbox', { name: 'PyPI', exact: true }).check();
    await page.getByRole('button', { name: Q.next }).click();
    await page.getByLabel(new RegExp(`^${Q.prefix}`)).fill('team');
    await page
      .getByLabel(new RegExp(`^${Q.upstream('PyPI')}`))
      .fill('http://pypi-upstream.example/');
    await page.getByRole('button', { name: Q.create, exact: true }).click();
    await page
      .getByRole('alert')
      .getByText(
        "Repositories 'team-npm-local', 'team-npm-remote', 'team-npm-virtual' already exist",
      )
      .waitFor();
    const pypi = await adminCall('GET', '/artifactory/api/repositories/team-pypi-local');
    expect(pypi.status).toBe(404);
  });

  it('offers a second admin the wizard once; Skip goes on to the topology', async () => {
    const created = await adminCall('PUT', '/artifactory/api/security/users/second-admin', {
      email: 'second@example.com',
      password: 'second-pass-1',
      admin: true,
    });
    expect(created.status).toBe(201);
    await logout();
    await signIn(page, 'second-admin', 'second-pass-1');
    await page.waitForURL(/\/ui\/onboarding$/);
    await page.getByRole('button', { name: W.skip }).click();
    await page.waitForURL(/\/ui\/admin\/mission_control\/topology$/);
    await logout();
    await signIn(page, 'second-admin', 'second-pass-1');
    await page.waitForURL(/\/ui\/admin\/mission_control\/topology$/);
  });

  it('lands a user on packages, with no quick setup', async () => {
    await logout();
    await signIn(page, 'newcomer', 'newcomer-pass-1');
    await page.waitForURL(/\/ui\/packages$/);
    await page.getByRole('button', { name: LABELS.quickActions }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Set Me Up' }).waitFor();
    expect(await menu.getByRole('menuitem', { name: 'Quick Repository Creation' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(pageErrors).toEqual([]);
  });
});
