import type { Browser, Page } from 'playwright-core';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MFA_TEXTS, PAGE_TITLES } from '../src/shell/messages.ts';
import { PROFILE_LABELS, PROFILE_MESSAGES } from '../src/custom/user-profile/messages.ts';
import { SECURITY_LABELS } from '../src/custom/security-config/messages.ts';
import { TOKEN_LABELS } from '../src/custom/access-tokens/messages.ts';
import { chooseOption, launchBrowser, openFreshPage, signIn } from './browser.ts';
import { scriptedCall, startDepot, type E2eDepot } from './server.ts';

/**
 * MFA, the user profile, the Security Configuration and the Access Tokens screens in a real
 * browser. MFA: a user enrolls from the profile by scanning
 * (here: reading) the secret, signs out, and signs in again with a code; with MFA enforced a
 * new user enrolls on the way in. Codes are computed from the secret the page shows.
 */
const ADMIN_PASSWORD = 'mfa-admin-pass-1';
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

const asAdmin = (method: string, path: string, body?: unknown) =>
  scriptedCall(depot, { user: 'admin', password: ADMIN_PASSWORD }, method, path, body);
async function createUser(name: string) {
  const response = await asAdmin('POST', '/ui/api/v1/ui/users', {
    name,
    email: `${name}@example.com`,
    password: `${name}-pass-1`,
  });
  expect(response.status).toBe(201);
}
const codeAt = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

async function freshPage() {
  ({ page, pageErrors } = await openFreshPage(browser, page));
}

describe('MFA from the user profile', () => {
  it('enrolls from the profile, then signs in with a code', async () => {
    await createUser('mina');
    await freshPage();
    await page.goto(depot.ui('/login'));
    await signIn(page, 'mina', 'mina-pass-1');
    await page.waitForURL(/\/ui\/packages/);
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('link', { name: PROFILE_LABELS.editProfile }).click();
    await page.waitForURL(/\/ui\/admin\/artifactory\/user_profile$/);
    await page.getByRole('heading', { name: PROFILE_LABELS.title }).waitFor();

    await page.getByRole('button', { name: PROFILE_LABELS.setUpMfa }).click();
    const qr = page.getByRole('img', { name: MFA_TEXTS.qrAlt });
    await qr.waitFor();
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const secret = (await page.getByTestId('mfa-secret').textContent())!;
    await page.getByRole('textbox', { name: 'Verification code' }).fill(await codeAt(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(PROFILE_MESSAGES.mfaEnrolled).waitFor();
    await page.getByText(PROFILE_LABELS.mfaOn).waitFor();

    await page.goto(depot.ui('/logout'));
    await page.waitForURL(/\/ui\/login/);
    // Signing out ends with the console asking who is signed in now; signing in before
    // that answer arrives would race it (CI failed here once).
    await page.waitForLoadState('networkidle');
    await signIn(page, 'mina', 'mina-pass-1');
    await page.waitForURL(/\/ui\/login\/otp-login$/);
    await page.getByRole('heading', { name: PAGE_TITLES.otpLogin }).waitFor();
    await page.getByRole('textbox', { name: 'Verification code' }).fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'The code is not valid' }).waitFor();
    // The enrollment used this step's code: the next one is still in the window.
    await page.getByRole('textbox', { name: 'Verification code' }).fill(await codeAt(secret, 30));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/ui\/packages/);
    await page
      .getByRole('button', { name: /User menu/ })
      .getByText('mina')
      .waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('generates an API key and an identity token that authenticate a client', async () => {
    await page.goto(depot.ui('/admin/artifactory/user_profile'));
    await page.getByRole('button', { name: PROFILE_LABELS.generateApiKey }).click();
    const section = (name: string) => page.getByRole('region', { name, exact: true });
    const apiKey = (await section(PROFILE_LABELS.apiKey).locator('code').textContent())!;
    expect(apiKey).toMatch(/^AKCp/);
    await page.getByRole('button', { name: PROFILE_LABELS.generateToken }).click();
    const token = (await section(PROFILE_LABELS.identityToken).locator('code').textContent())!;
    const clients: Array<Record<string, string>> = [
      { 'X-JFrog-Art-Api': apiKey },
      { authorization: `Bearer ${token}` },
    ];
    for (const headers of clients) {
      const response = await fetch(`${depot.baseUrl}/ui/api/v1/ui/auth/current`, { headers });
      expect(await response.json()).toMatchObject({ name: 'mina', anonymous: false });
    }
    expect(pageErrors).toEqual([]);
  });
});

describe('MFA enforced', () => {
  it('makes a user without MFA enroll on the way in, then lets them in', async () => {
    await createUser('noor');
    expect(
      (await asAdmin('PUT', '/ui/api/v1/ui/securityconfig', { mfa: { enforced: true } })).status,
    ).toBe(200);
    try {
      await freshPage();
      await page.goto(depot.ui('/login'));
      await signIn(page, 'noor', 'noor-pass-1');
      await page.waitForURL(/\/ui\/login\/mfa-enroll$/);
      await page.getByRole('heading', { name: PAGE_TITLES.mfaEnroll }).waitFor();
      await page.getByRole('img', { name: MFA_TEXTS.qrAlt }).waitFor();
      const secret = (await page.getByTestId('mfa-secret').textContent())!;
      await page.getByRole('textbox', { name: 'Verification code' }).fill(await codeAt(secret));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/\/ui\/packages/);
      const users = await (await asAdmin('GET', '/ui/api/v1/ui/users')).json();
      expect(users.find((u: { name: string }) => u.name === 'noor')).toMatchObject({
        mfaEnrolled: true,
      });
      expect(pageErrors).toEqual([]);
    } finally {
      await asAdmin('PUT', '/ui/api/v1/ui/securityconfig', { mfa: { enforced: false } });
    }
  });
});

describe('Security Configuration', () => {
  it('saves the password policy and MFA settings an admin changes', async () => {
    await freshPage();
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\//);
    await page.getByRole('link', { name: SECURITY_LABELS.menuLabel, exact: true }).click();
    await page.waitForURL(/\/ui\/admin\/artifactory\/security\/general$/);
    await page.getByRole('heading', { name: SECURITY_LABELS.title }).waitFor();
    const save = page.getByRole('button', { name: SECURITY_LABELS.save });
    expect(await save.isDisabled()).toBe(true);

    await page.getByLabel('Require a Digit').check();
    await page.getByLabel('Password Expires After (Days)').fill('90');
    await page.getByLabel('Require MFA for Every User').check();
    await save.click();
    await page.getByText(SECURITY_LABELS.saved).waitFor();
    try {
      const saved = await (await asAdmin('GET', '/ui/api/v1/ui/securityconfig')).json();
      expect(saved.passwordPolicy).toMatchObject({ digit: true, expiryDays: 90 });
      expect(saved.mfa).toEqual({ enabled: true, enforced: true });

      await page.reload();
      expect(await page.getByLabel('Require a Digit').isChecked()).toBe(true);
      expect(await page.getByRole('button', { name: SECURITY_LABELS.save }).isDisabled()).toBe(
        true,
      );
      expect(pageErrors).toEqual([]);
    } finally {
      await asAdmin('PUT', '/ui/api/v1/ui/securityconfig', {
        mfa: { enforced: false },
        passwordPolicy: { digit: false, expiryDays: 0 },
      });
    }
  });
});

describe('Access Tokens', () => {
  it('lets the admin generate a token for a user, see it listed, and revoke it', async () => {
    await createUser('tomas');
    await freshPage();
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\//);
    await page.getByRole('link', { name: TOKEN_LABELS.title }).click();
    await page.waitForURL(/\/ui\/admin\/configuration\/access_tokens$/);
    const form = page.getByRole('form', { name: TOKEN_LABELS.generate });
    await form.getByLabel(TOKEN_LABELS.userName).fill('tomas');
    await chooseOption(form, TOKEN_LABELS.expiry, '1 day');
    await form.getByLabel(TOKEN_LABELS.description).fill('ci pipeline');
    await form.getByRole('button', { name: TOKEN_LABELS.generate }).click();
    const token = (await page.getByTestId('issued-token').textContent())!;
    // A route for signed-in users: a refused token is a 401 there, not an anonymous answer.
    const asTomas = () =>
      fetch(`${depot.baseUrl}/ui/api/v1/auth/mfa/status`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await asTomas()).status).toBe(200);

    const row = page.getByRole('row').filter({ hasText: 'ci pipeline' });
    await row.waitFor();
    await row.getByRole('button', { name: TOKEN_LABELS.revoke }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: TOKEN_LABELS.revoke }).click();
    await page.getByText(TOKEN_LABELS.revoked).waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await asTomas()).status).toBe(401);
    expect(pageErrors).toEqual([]);
  });
});
