import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABELS, NOT_AUTHORIZED_MESSAGE } from '../src/shell/messages.ts';
import { PROJECT_LABELS as L } from '../src/custom/projects/messages.ts';
import {
  chooseOption,
  chosenOption,
  launchBrowser,
  openFreshPage,
  openListbox,
  selectTrigger,
  signIn,
} from './browser.ts';
import { scriptedCall, startDepot, type E2eDepot } from './server.ts';

/**
 * Projects in a real browser: an admin creates a project (the key rules on the way), adds a
 * project admin, and creates a repository in the project, whose key gets the project's
 * prefix. The project admin then sees only that project, its Project Settings menu and its
 * repositories, and is refused the admin's project list. The limit is 2 here, so the third
 * project is refused with the spec's words.
 */
const ADMIN_PASSWORD = 'projects-admin-pass-1';
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

const asAdmin = (method: string, path: string, body?: unknown) =>
  scriptedCall(depot, { user: 'admin', password: ADMIN_PASSWORD }, method, path, body);

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD, { DEPOT_PROJECTS_LIMIT: '2' });
  const created = await asAdmin('POST', '/ui/api/v1/ui/users', {
    name: 'pia',
    email: 'pia@example.com',
    password: 'pia-pass-1',
  });
  expect(created.status).toBe(201);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

async function freshPage() {
  ({ page, pageErrors } = await openFreshPage(browser, page));
}
const sidebar = () => page.getByRole('navigation', { name: LABELS.mainNavigation });
const selector = () => selectTrigger(page, L.selector);

describe('projects in the console', () => {
  it('creates a project from the empty list, with the key rules on the way', async () => {
    await freshPage();
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\//);
    await sidebar().getByRole('link', { name: L.title, exact: true }).click();
    await page.waitForURL(/\/ui\/admin\/projects$/);
    await page.getByText(L.empty).waitFor();

    await page.getByRole('link', { name: L.createProject }).click();
    await page.waitForURL(/\/ui\/admin\/projects\/create$/);
    await page.getByLabel(new RegExp(`^${L.name}`)).fill('Team Alpha');
    // The key follows the name until typed.
    expect(await page.getByLabel(new RegExp(`^${L.key}`)).inputValue()).toBe('teamalpha');
    await page.getByLabel(new RegExp(`^${L.key}`)).fill('1alpha');
    await page.getByRole('button', { name: L.create, exact: true }).click();
    await page.getByText(L.keyStart).waitFor();
    await page.getByLabel(new RegExp(`^${L.key}`)).fill('alpha');
    await page.getByLabel(L.quota).fill('1');
    await page.getByRole('button', { name: L.create, exact: true }).click();

    await page.getByText(L.created('Team Alpha')).waitFor();
    await page.waitForURL(/\/ui\/admin\/projects\/overview$/);
    // Selected as soon as the refreshed project list holds it.
    await expect.poll(() => chosenOption(page, L.selector)).toBe('Team Alpha');
    await sidebar().getByRole('heading', { name: L.projectSettings }).waitFor();
    expect(await sidebar().getByRole('heading', { name: LABELS.administration }).count()).toBe(0);
    const stored = await (await asAdmin('GET', '/access/api/v1/projects/alpha')).json();
    expect(stored).toMatchObject({ display_name: 'Team Alpha', storage_quota_bytes: 1024 ** 3 });
  });

  it('adds a member with a role', async () => {
    await sidebar().getByRole('link', { name: L.members }).click();
    await page.waitForURL(/\/ui\/admin\/projects\/members$/);
    await page.getByText(L.noMembers).waitFor();
    await page.getByRole('textbox', { name: new RegExp(`^${L.users}`) }).fill('pia');
    await page.getByRole('checkbox', { name: 'Project Admin' }).check();
    await page.getByRole('button', { name: L.addMember }).click();
    await page.getByText(L.memberSaved('pia')).waitFor();
    await page.getByRole('cell', { name: 'pia', exact: true }).waitFor();
    const members = await (await asAdmin('GET', '/access/api/v1/projects/alpha/users')).json();
    expect(members).toEqual({ members: [{ name: 'pia', roles: ['Project Admin'] }] });
  });

  it('adds a custom role for one environment', async () => {
    await sidebar().getByRole('link', { name: L.roles }).click();
    await page.waitForURL(/\/ui\/admin\/projects\/roles$/);
    // The predefined roles show where they act: Developer in DEV only.
    await expect
      .poll(() => page.getByRole('row', { name: /^Developer/ }).textContent())
      .toContain('DEV');
    expect(await page.getByRole('row', { name: /^Developer/ }).textContent()).not.toContain('PROD');
    const form = page.getByRole('form', { name: L.addRole });
    await form.getByLabel(new RegExp(`^${L.roleName}`)).fill('Releaser');
    await form.getByRole('checkbox', { name: 'DEV' }).uncheck();
    await form.getByRole('checkbox', { name: 'Deploy / cache' }).check();
    await form.getByRole('button', { name: L.addRole }).click();
    await page.getByText(L.roleCreated('Releaser')).waitFor();
    await page.getByRole('row', { name: /^Releaser/ }).waitFor();
    const roles = await (await asAdmin('GET', '/access/api/v1/projects/alpha/roles')).json();
    expect(roles.find((role: { name: string }) => role.name === 'Releaser')).toMatchObject({
      environments: ['PROD'],
      actions: ['DEPLOY_CACHE_REPOSITORY'],
    });
  });

  it('creates a repository in the project, whose key gets the project prefix', async () => {
    await sidebar().getByRole('link', { name: L.repositories }).click();
    await page.waitForURL(/\/ui\/admin\/repositories\/local$/);
    await page.getByRole('link', { name: 'New Local Repository' }).click();
    await page.getByRole('button', { name: 'Generic', exact: true }).click();
    await page.getByText('alpha-', { exact: true }).waitFor();
    await page.getByLabel(/Repository Key/).fill('files');
    // A project's repository starts in DEV; this one is for releases.
    expect(await chosenOption(page, 'Environment')).toBe('DEV');
    await chooseOption(page, 'Environment', 'PROD');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText("Successfully created repository 'alpha-files'").waitFor();
    await page.locator('.ag-row', { hasText: 'alpha-files' }).waitFor();
    const config = await (await asAdmin('GET', '/artifactory/api/repositories/alpha-files')).json();
    expect(config).toMatchObject({
      key: 'alpha-files',
      projectKey: 'alpha',
      environments: ['PROD'],
    });

    // Back in the default context, the admin menu returns and the list holds every repository.
    await chooseOption(page, L.selector, L.all);
    await sidebar().getByRole('heading', { name: LABELS.administration }).waitFor();
  });

  it('refuses a project past the limit with the spec message', async () => {
    expect(
      (
        await asAdmin('POST', '/access/api/v1/projects', {
          project_key: 'beta',
          display_name: 'Beta',
        })
      ).status,
    ).toBe(201);
    await page.goto(depot.ui('/admin/projects/create'));
    await page.getByText(L.limitReached(2)).waitFor();
    expect(await page.getByRole('button', { name: L.create, exact: true }).count()).toBe(0);
  });

  it('confines the project admin to their project', async () => {
    await freshPage();
    await page.goto(depot.ui('/login'));
    await signIn(page, 'pia', 'pia-pass-1');
    await page.waitForURL(/\/ui\/packages/);
    await selector().click();
    await openListbox(page).getByRole('option', { name: 'Team Alpha' }).waitFor();
    const options = await openListbox(page).getByRole('option').allTextContents();
    expect(options).toEqual([L.all, 'Team Alpha']);
    await openListbox(page).getByRole('option', { name: 'Team Alpha' }).click();
    await sidebar().getByRole('link', { name: L.storage }).click();
    await page.waitForURL(/\/ui\/admin\/projects\/storage$/);
    await page.getByRole('meter', { name: L.storage }).waitFor();
    await page.getByRole('cell', { name: 'alpha-files' }).waitFor();
    await sidebar().getByRole('link', { name: L.repositories }).click();
    await page.locator('.ag-row', { hasText: 'alpha-files' }).waitFor();

    await page.goto(depot.ui('/admin/projects'));
    await page.getByText(NOT_AUTHORIZED_MESSAGE).waitFor();
    await page.waitForURL(/\/ui\/packages/);
    expect(pageErrors).toEqual([]);
  });
});
