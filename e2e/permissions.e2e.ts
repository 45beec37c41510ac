import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PERMISSION_LABELS as L,
  PERMISSION_MESSAGES,
} from '../src/custom/permissions-editor/messages.ts';
import { launchBrowser, signIn, watchPageErrors } from './browser.ts';
import { startDepot, type E2eDepot } from './server.ts';

/**
 * An admin gives a team exactly the access it needs with the permissions editor, against a
 * real server: the name rules, a repository section by name, a user dragged in with Delete
 * (and what it implies), a group without permissions confirmed away, then the grant checked
 * by deploying as that user; editing keeps the By Name mode; deleting from the list.
 */
const ADMIN_PASSWORD = 'perm-admin-pass-1';
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
async function asScript(method: string, path: string, body?: unknown, user = 'admin') {
  const password = user === 'admin' ? ADMIN_PASSWORD : `${user}-pass-1`;
  return fetch(`${depot.baseUrl}${path}`, {
    method,
    headers: { authorization: basic(user, password), 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD);
  for (const key of ['team-local', 'other-local'])
    await asScript('PUT', `/artifactory/api/repositories/${key}`, {
      rclass: 'local',
      packageType: 'generic',
    });
  const dev = await asScript('POST', '/ui/api/v1/ui/users', {
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  });
  expect(dev.status).toBeLessThan(300);
  await asScript('POST', '/ui/api/v1/ui/groups', { name: 'qa' });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(15000);
  pageErrors = watchPageErrors(page);
  await page.goto(depot.ui('/login'));
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.waitForURL(/\/ui\/admin\//);
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

const repositories = () => page.getByRole('region', { name: 'Repositories' });
const nameField = () => page.getByLabel(/^Name/).first();

describe('the permissions editor', () => {
  it('creates a target for a user, confirming away a group without permissions', async () => {
    await page.goto(depot.ui('/admin/management/permissions'));
    await page.getByRole('link', { name: L.newPermission }).click();
    await page.getByRole('button', { name: L.create }).click();
    await page.getByText(PERMISSION_MESSAGES.nameEmpty).waitFor();

    await nameField().fill('team');
    await repositories().getByLabel('team-local').check();
    await repositories().getByLabel('By Name').check();
    await repositories().getByLabel(L.names).fill('org');
    await expect(page.getByRole('button', { name: L.create }).isDisabled()).resolves.toBe(true);
    await repositories()
      .getByRole('button', { name: L.resourceSave('Repositories') })
      .click();

    const available = page.getByRole('list', { name: L.available('users') });
    await expect(available.getByRole('button', { name: L.add('admin') }).count()).resolves.toBe(0);
    await available
      .getByText('dev', { exact: true })
      .dragTo(page.getByRole('region', { name: L.selected('users') }));
    const dev = page.getByRole('group', { name: 'dev', exact: true });
    await dev.getByLabel('Delete/Overwrite').check();
    for (const implied of ['Read', 'Annotate', 'Deploy/Cache'])
      await expect(dev.getByLabel(implied).isChecked()).resolves.toBe(true);
    await expect(dev.getByLabel('Manage', { exact: true }).isChecked()).resolves.toBe(false);

    await page.getByRole('tab', { name: 'Groups' }).click();
    await page
      .getByRole('list', { name: L.available('groups') })
      .getByRole('button', { name: L.add('qa') })
      .click();
    await page.getByRole('button', { name: L.create }).click();
    await page
      .getByRole('alertdialog')
      .getByText(L.confirmText(['qa']))
      .waitFor();
    await page.getByRole('button', { name: L.saveAnyway }).click();
    await page.waitForURL(/\/management\/permissions$/);
    await page.getByRole('link', { name: 'team', exact: true }).waitFor();

    const stored = await (
      await asScript('GET', '/artifactory/api/v2/security/permissions/team')
    ).json();
    expect(stored.repo).toEqual({
      'include-patterns': ['org/**'],
      'exclude-patterns': [],
      repositories: ['team-local'],
      actions: { users: { dev: ['read', 'annotate', 'write', 'delete'] }, groups: {} },
    });
    expect((await asScript('PUT', '/artifactory/team-local/org/a.txt', 'a', 'dev')).status).toBe(
      201,
    );
    expect((await asScript('PUT', '/artifactory/team-local/other/a.txt', 'a', 'dev')).status).toBe(
      403,
    );
    expect((await asScript('PUT', '/artifactory/other-local/org/a.txt', 'a', 'dev')).status).toBe(
      403,
    );
  });

  it('refuses a name already taken', async () => {
    await page.goto(depot.ui('/admin/management/permissions/create'));
    await nameField().fill('team');
    await page.getByRole('button', { name: L.create }).click();
    await page.getByText(PERMISSION_MESSAGES.nameExists).waitFor();
  });

  it('edits a target in its By Name mode, and the implications drop later actions', async () => {
    await page.goto(depot.ui('/admin/management/permissions'));
    await page.getByRole('link', { name: 'team', exact: true }).click();
    await page.getByRole('heading', { name: L.editTitle('team') }).waitFor();
    await expect(repositories().getByLabel('By Name').isChecked()).resolves.toBe(true);
    await expect(repositories().getByLabel(L.names).inputValue()).resolves.toBe('org');
    await page.getByRole('group', { name: 'dev', exact: true }).getByLabel('Annotate').uncheck();
    await page.getByRole('button', { name: L.save, exact: true }).click();
    await page.waitForURL(/\/management\/permissions$/);
    const stored = await (
      await asScript('GET', '/artifactory/api/v2/security/permissions/team')
    ).json();
    expect(stored.repo.actions.users.dev).toEqual(['read']);
    expect((await asScript('PUT', '/artifactory/team-local/org/b.txt', 'b', 'dev')).status).toBe(
      403,
    );
  });

  it('deletes a target from the list after confirming', async () => {
    await page.goto(depot.ui('/admin/management/permissions'));
    await page.getByRole('button', { name: L.deleteRow('team') }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: L.delete }).click();
    await page.getByRole('link', { name: 'team', exact: true }).waitFor({ state: 'detached' });
    expect((await asScript('GET', '/artifactory/api/v2/security/permissions/team')).status).toBe(
      404,
    );
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
