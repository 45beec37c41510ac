import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_MESSAGES } from '../server/modules/mail/messages.ts';
import { MAIL_LABELS } from '../src/custom/mail-config/messages.ts';
import { INVITE_LABELS } from '../src/custom/invite-user/messages.ts';
import { LABELS, PAGE_TITLES } from '../src/shell/messages.ts';
import { linkIn, startSmtpServer } from '../tests/helpers/smtp.ts';
import { launchBrowser, openFreshPage, signIn } from './browser.ts';
import { startDepot, type E2eDepot } from './server.ts';

/**
 * The mail flows in a real browser against a real SMTP server on loopback: the admin sets
 * up mail and sends a test, a user resets a forgotten password from the mailed link, and an
 * invited user chooses a first password; both end signed in.
 */
const ADMIN_PASSWORD = 'mail-admin-pass-1';
let depot: E2eDepot;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD);
  smtp = await startSmtpServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
  await smtp?.close();
});

async function freshPage() {
  ({ page, pageErrors } = await openFreshPage(browser, page));
}

async function setNewPassword(password: string) {
  // The label reads "New Password*": the star marks a required field.
  await page.getByLabel(new RegExp(`^${LABELS.newPassword}`)).fill(password);
  await page.getByLabel(LABELS.retypeNewPassword).fill(password);
  await page.getByRole('button', { name: LABELS.setPassword }).click();
}

describe('mail', () => {
  it('lets the admin set up the mail server and send a test mail', async () => {
    await freshPage();
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\//);
    await page.goto(depot.ui('/admin/configuration/mail'));
    await page.getByRole('heading', { name: MAIL_LABELS.title, exact: true }).waitFor();
    await page.getByLabel('Enabled', { exact: true }).check();
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('Port', { exact: true }).fill(String(smtp.port));
    await page.getByLabel('Depot URL to Be Used in Mails').fill(depot.baseUrl);
    await page.getByLabel(MAIL_LABELS.testTo).fill('ops@example.test');
    await page.getByRole('button', { name: MAIL_LABELS.sendTest }).click();
    await page.getByText(MAIL_MESSAGES.testSent('ops@example.test')).waitFor();
    expect((await smtp.waitFor(1))[0]!.subject).toBe('[Depot] Test message');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MAIL_LABELS.saved).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('invites a user, who chooses a password from the mailed link and is signed in', async () => {
    await page.getByRole('link', { name: INVITE_LABELS.title }).click();
    await page.getByLabel(INVITE_LABELS.name).fill('ines');
    await page.getByLabel(INVITE_LABELS.email).fill('ines@example.test');
    await page.getByRole('button', { name: INVITE_LABELS.invite }).click();
    await page.getByText(MAIL_MESSAGES.invited('ines@example.test')).waitFor();
    const mail = (await smtp.waitFor(2))[1]!;
    const link = linkIn(mail.text, '/ui/auth/invitation');

    await freshPage();
    await page.goto(link.toString());
    await page.getByRole('heading', { name: PAGE_TITLES.invitation }).waitFor();
    await page.getByText('ines', { exact: true }).waitFor();
    await setNewPassword('ines-pass-123');
    await page.waitForURL(/\/ui\/packages/);
    await page
      .getByRole('button', { name: /User menu/ })
      .getByText('ines')
      .waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('resets a forgotten password from the mailed link and signs in with it', async () => {
    await freshPage();
    await page.goto(depot.ui('/login'));
    await page.getByRole('link', { name: LABELS.forgotPasswordLink }).click();
    await page.waitForURL(/\/ui\/login\/forgot-password$/);
    await page.getByLabel(LABELS.username).fill('ines');
    await page.getByRole('button', { name: LABELS.sendResetLink }).click();
    await page.getByText(MAIL_MESSAGES.resetSent).waitFor();
    const mail = (await smtp.waitFor(3))[2]!;
    const link = linkIn(mail.text, '/ui/auth/reset-password');

    await page.goto(link.toString());
    await page.getByRole('heading', { name: PAGE_TITLES.resetPassword }).waitFor();
    await setNewPassword('short');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Password is not satisfy the policy' })
      .waitFor();
    await setNewPassword('ines-new-pass-456');
    await page.waitForURL(/\/ui\/packages/);
    await page
      .getByRole('button', { name: /User menu/ })
      .getByText('ines')
      .waitFor();

    // The link worked once (a signed-in user opening it would just be sent home).
    await freshPage();
    await page.goto(link.toString());
    await page.getByRole('alert').filter({ hasText: MAIL_MESSAGES.invalidKey }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
