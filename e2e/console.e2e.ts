import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DISCARD_DIALOG,
  LABELS,
  NOT_AUTHORIZED_MESSAGE,
  NOT_FOUND_TEXT,
} from '../src/shell/messages.ts';
import { launchBrowser, watchPageErrors, signIn as signInOn } from './browser.ts';
import { startDepot, type E2eDepot } from './server.ts';

/**
 * What a newcomer does on a fresh Depot, in order, in a real browser against a real server:
 * each step builds on the one before (the server is shared), as a person's session would.
 */
let depot: E2eDepot;
const ui = (path: string) => depot.ui(path);
const ADMIN_NEW_PASSWORD = 'first-admin-pass-1';
const DEV_PASSWORD = 'dev-user-pass-1';

let browser: Browser;
let page: Page;
let pageErrors: Error[];

beforeAll(async () => {
  depot = await startDepot();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10000);
  pageErrors = watchPageErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

const signIn = (user: string, password: string) => signInOn(page, user, password);

const row = (text: string) => page.locator('.ag-row', { hasText: text });
const rowCheckbox = (text: string) => row(text).locator('input[type=checkbox]').first();

async function createUser(name: string, email: string, password: string) {
  await page.getByRole('link', { name: 'New User' }).click();
  await page.getByLabel(/User Name/).fill(name);
  await page.getByLabel(/Email Address/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByLabel(/Retype Password/).fill(password);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText(`User '${name}' created`).waitFor();
}

describe('a newcomer in the console', () => {
  it('is sent to change the default admin password at first sign-in, then lands on the topology', async () => {
    await page.goto(ui('/'));
    await page.waitForURL(/\/ui\/login/);
    await signIn('admin', 'password');
    await page.waitForURL(/\/ui\/login\/change-password\/admin$/);
    await page.getByLabel(LABELS.currentPassword).fill('password');
    await page.getByLabel(new RegExp(`^${LABELS.newPassword}`)).fill(ADMIN_NEW_PASSWORD);
    await page.getByLabel(LABELS.retypeNewPassword).fill(ADMIN_NEW_PASSWORD);
    await page.getByRole('button', { name: LABELS.changePassword }).click();
    await page.waitForURL(/\/ui\/admin\/mission_control\/topology$/);
    await page.getByRole('heading', { name: 'Topology', level: 1 }).waitFor();
    expect(await page.title()).toBe('Topology - Depot E2E');
    await page
      .getByRole('navigation', { name: LABELS.mainNavigation })
      .getByRole('link', { name: 'Users' })
      .click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await row('admin@localhost').waitFor();
    expect(await page.title()).toBe('Users - Depot E2E');
  });

  it('sees "Please enter a valid email" for a bad email, fixes it and saves the user', async () => {
    await page.getByRole('link', { name: 'New User' }).click();
    await page.getByLabel(/User Name/).fill('dev1');
    await page.getByLabel(/Email Address/).fill('not-an-email');
    await page.getByLabel(/^Password/).fill(DEV_PASSWORD);
    await page.getByLabel(/Retype Password/).fill(DEV_PASSWORD);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Please enter a valid email').waitFor();
    expect(page.url()).toMatch(/\/users\/new$/);

    await page.getByLabel(/Email Address/).fill('Dev1@Example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText("User 'dev1' created").waitFor();
    await page.waitForURL(/\/admin\/management\/users$/);
    // The server lowercases email addresses.
    await row('dev1@example.com').waitFor();
  });

  it('edits the user', async () => {
    await page.getByRole('link', { name: 'dev1', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit User dev1' }).waitFor();
    await expect(page.getByLabel(/User Name/).isDisabled()).resolves.toBe(true);
    await page.getByLabel(/Email Address/).fill('dev1@corp.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/admin\/management\/users$/);
    await row('dev1@corp.example.com').waitFor();
  });

  it('creates a group with the user as a member', async () => {
    await page.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('heading', { name: 'Groups' }).waitFor();
    await page.getByRole('link', { name: 'New Group' }).click();
    await page.getByLabel(/Group Name/).fill('developers');
    await page.getByLabel(/Description/).fill('Everyone who writes code');
    await page.getByRole('checkbox', { name: 'dev1', exact: true }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText("Group 'developers' created").waitFor();
    await row('developers').waitFor();
    // The membership shows on the user's side too.
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await row('dev1@corp.example.com').getByText('developers').waitFor();
  });

  it('deletes several users at once after confirming', async () => {
    await createUser('temp1', 'temp1@example.com', DEV_PASSWORD);
    await createUser('temp2', 'temp2@example.com', DEV_PASSWORD);
    await row('temp2@example.com').waitFor();
    await rowCheckbox('temp1').check();
    await rowCheckbox('temp2').check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Are you sure you want to delete 2 user(s)?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('2 user(s) deleted').waitFor();
    await row('temp1@example.com').waitFor({ state: 'detached' });
    await expect(row('temp2@example.com').count()).resolves.toBe(0);
    await expect(row('dev1@corp.example.com').count()).resolves.toBe(1);
  });

  it('is asked to discard unsaved changes when leaving a dirty form', async () => {
    await page.getByRole('link', { name: 'New User' }).click();
    await page.getByLabel(/User Name/).fill('half-typed');
    await page.getByRole('link', { name: 'Groups' }).click();
    const dialog = page.getByRole('alertdialog', { name: DISCARD_DIALOG.title });
    await dialog.getByText(DISCARD_DIALOG.text).waitFor();
    await dialog.getByRole('button', { name: DISCARD_DIALOG.cancel }).click();
    expect(page.url()).toMatch(/\/users\/new$/);
    await expect(page.getByLabel(/User Name/).inputValue()).resolves.toBe('half-typed');

    await page.getByRole('link', { name: 'Groups' }).click();
    await dialog.getByRole('button', { name: DISCARD_DIALOG.discard }).click();
    await page.waitForURL(/\/admin\/management\/groups$/);
  });

  it('signs out', async () => {
    await page.getByRole('button', { name: new RegExp(LABELS.userMenu) }).click();
    await page.getByRole('button', { name: LABELS.logout }).click();
    await page.waitForURL(/\/ui\/login/);
    // The session is gone on the server, not only in the page.
    await page.goto(ui('/admin/management/users'));
    await page.waitForURL(/\/ui\/login/);
  });

  it('signs in as the new non-admin user and is refused the admin routes', async () => {
    await signIn('dev1', DEV_PASSWORD);
    await page.waitForURL(/\/ui\/packages$/);
    await expect(page.getByRole('link', { name: 'Users' }).count()).resolves.toBe(0);
    await page.goto(ui('/admin/management/groups'));
    await page.getByText(NOT_AUTHORIZED_MESSAGE).waitFor();
    await page.waitForURL(/\/ui\/packages$/);
    const api = await page.request.get(`${depot.baseUrl}/ui/api/v1/ui/users`);
    expect(api.status()).toBe(403);
  });

  it('reloads a deep link and stays on it', async () => {
    await page.getByRole('button', { name: new RegExp(LABELS.userMenu) }).click();
    await page.getByRole('button', { name: LABELS.logout }).click();
    await page.waitForURL(/\/ui\/login/);
    await signIn('admin', ADMIN_NEW_PASSWORD);
    await page.waitForURL(/\/ui\/admin\/mission_control\/topology$/);
    await page.goto(ui('/admin/management/groups/developers/edit'));
    await page.getByRole('heading', { name: 'Edit Group developers' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Edit Group developers' }).waitFor();
    await expect(page.getByLabel(/Description/).inputValue()).resolves.toBe(
      'Everyone who writes code',
    );
  });

  it('saves the general configuration and shows its banner on every page', async () => {
    // The spec's route, opened at the base URL as a CocoaPods notice opens it.
    await page.goto(ui('/admin/artifactory/configuration/artifactory_general?focusOnBaseUrl=true'));
    await page.getByRole('heading', { name: 'General Configuration' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('root_baseUrl');
    await page.getByLabel('Server Name').fill('Build Farm');
    await page.getByLabel('Enable Custom Message').check();
    await page.getByLabel('Message', { exact: true }).fill('Maintenance on Saturday');
    await page.getByRole('button', { name: 'Save' }).click();
    const banner = page.getByRole('complementary', { name: LABELS.customMessage });
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toBe('Maintenance on Saturday');
    await page.goto(ui('/admin/management/users'));
    await banner.waitFor();
    await expect.poll(() => page.title()).toMatch(/Build Farm$/);
  });

  it('shows the 404 page for an unknown path', async () => {
    await page.goto(ui('/no/such/page'));
    await page.waitForURL(/\/ui\/404$/);
    await page.getByText(NOT_FOUND_TEXT).waitFor();
  });

  it('raised no uncaught error in any page', () => {
    expect(pageErrors.map((e) => e.message)).toEqual([]);
  });
});
