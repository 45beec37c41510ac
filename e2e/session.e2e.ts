import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../server/modules/auth/messages.ts';
import { ERROR_DIALOG, LABELS } from '../src/shell/messages.ts';
import { launchBrowser, signIn as signInOn } from './browser.ts';
import { startDepot, type E2eDepot } from './server.ts';

/** Sessions, failures and anonymous access, each in a fresh browser context. */
const ADMIN_PASSWORD = 'session-admin-1';
let depot: E2eDepot;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const adminAuth = {
  authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
};

/** A call as a script makes it (basic auth, from outside the browser). */
async function asScript(method: string, path: string, body?: unknown) {
  const response = await fetch(`${depot.baseUrl}${path}`, {
    method,
    headers: { ...adminAuth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
}

const signIn = (user: string, password: string) => signInOn(page, user, password);

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(10000);
});
afterEach(async () => {
  await context?.close();
});

describe('the session', () => {
  it('is checked on the first activity after 60 s idle, and an ended session goes to login', async () => {
    await asScript('PUT', '/artifactory/api/security/users/idler', {
      email: 'idle@example.com',
      password: 'idler-pass-1',
    });
    await page.clock.install();
    await page.goto(depot.ui('/login'));
    await signIn('idler', 'idler-pass-1');
    await page.waitForURL(/\/ui\/packages$/);

    // The session ends on the server (a password change ends every session of the user).
    const changed = await fetch(`${depot.baseUrl}/ui/api/v1/ui/auth/changePassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        userName: 'idler',
        oldPassword: 'idler-pass-1',
        newPassword1: 'idler-pass-2',
        newPassword2: 'idler-pass-2',
      }),
    });
    expect(changed.status).toBe(200);

    await page.clock.fastForward(61000);
    await page.mouse.move(200, 200);
    await page.mouse.move(300, 300);
    await page.waitForURL(/\/ui\/login\?logout=true&fromUnauthorized=true/);
  });

  it('locks an account after repeated failed sign-ins and says so', async () => {
    await asScript('PUT', '/artifactory/api/security/users/forgetful', {
      email: 'f@example.com',
      password: 'forgetful-pass-1',
    });
    await page.goto(depot.ui('/login'));
    for (let attempt = 1; attempt < 5; attempt++) {
      await signIn('forgetful', `wrong-${attempt}`);
      await page.getByText(AUTH_MESSAGES.badCredentials).waitFor();
    }
    await signIn('forgetful', 'wrong-5');
    await page.getByText(AUTH_MESSAGES.locked).waitFor();
    await signIn('forgetful', 'forgetful-pass-1');
    await page.getByText(AUTH_MESSAGES.locked).waitFor();
    expect(page.url()).toMatch(/\/ui\/login/);
  });

  it('lets an admin see the locked user and unlock it from the users list', async () => {
    await page.goto(depot.ui('/login'));
    await signIn('admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/admin\/mission_control\/topology$/);
    await page.goto(depot.ui('/admin/management/users'));
    const forgetful = page.locator('.ag-row', { hasText: 'f@example.com' });
    await forgetful.getByText('Yes').waitFor(); // the Locked column
    await forgetful.locator('input[type=checkbox]').first().check();
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await forgetful.getByText('Yes').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: new RegExp(LABELS.userMenu) }).click();
    await page.getByRole('button', { name: LABELS.logout }).click();
    await page.waitForURL(/\/ui\/login/);
    await signIn('forgetful', 'forgetful-pass-1');
    await page.waitForURL(/\/ui\/packages$/);
  });

  it('shows the "Oops!" dialog with details when the server fails', async () => {
    await page.goto(depot.ui('/login'));
    await signIn('admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/admin\/mission_control\/topology$/);
    await page.route('**/ui/api/v1/ui/groups', (route) =>
      route.fulfill({ status: 500, body: 'disk full on node 2' }),
    );
    await page.getByRole('link', { name: 'Groups' }).click();
    const dialog = page.getByRole('alertdialog', { name: ERROR_DIALOG.header });
    await dialog.getByText(ERROR_DIALOG.subheader).waitFor();
    await dialog.getByText(ERROR_DIALOG.text).waitFor();
    await dialog.getByRole('button', { name: ERROR_DIALOG.seeMore }).click();
    await dialog.getByText('disk full on node 2').waitFor();
  });

  it('lets anonymous visitors in only when anonymous access is on', async () => {
    await page.goto(depot.ui('/'));
    await page.waitForURL(/\/ui\/login/);

    await asScript('PUT', '/ui/api/v1/ui/securityconfig', { anonAccessEnabled: true });
    try {
      await page.goto(depot.ui('/'));
      await page.waitForURL(/\/ui\/packages$/);
      await page.goto(depot.ui('/admin/management/users'));
      await page.waitForURL(/\/ui\/(home|login)/);
      expect(page.url()).not.toMatch(/admin/);
    } finally {
      await asScript('PUT', '/ui/api/v1/ui/securityconfig', { anonAccessEnabled: false });
    }
  });
});
