import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUCKET_LABELS as L,
  BUCKET_MESSAGES as M,
  BUCKETS_PATH,
} from '../src/custom/license-buckets/messages.ts';
import { signBucketFile } from '../server/modules/license-buckets/bucket-file.ts';
import { launchBrowser, signIn, watchPageErrors } from './browser.ts';
import { startDepot, type E2eDepot } from './server.ts';

/**
 * License buckets in a real browser against a real server: the list, adding a signed file
 * through the form (the spec's messages on the way), a tampered file refused, and a delete.
 */
const ADMIN_PASSWORD = 'buckets-admin-1';
const files = mkdtempSync(join(tmpdir(), 'depot-e2e-buckets-'));
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const grant = {
  identifier: 'acme-e2e',
  licenseType: 'ENTERPRISE_PLUS',
  customerName: 'Acme Inc.',
  issueDate: '2026-01-15',
  expiryDate: '2099-01-15',
  quantity: 10,
};
const bucketFile = join(files, 'acme-e2e.json');
const tamperedFile = join(files, 'tampered.json');
const textFile = join(files, 'acme-e2e.txt');
writeFileSync(bucketFile, signBucketFile(grant, privateKey));
writeFileSync(
  tamperedFile,
  signBucketFile(grant, privateKey).replace('"quantity": 10', '"quantity": 99'),
);
writeFileSync(textFile, signBucketFile(grant, privateKey));

let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD, {
    DEPOT_LICENSE_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(10000);
  pageErrors = watchPageErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
  rmSync(files, { recursive: true, force: true });
});

const addForm = () => page.getByRole('form', { name: L.addTitle });
const save = () => addForm().getByRole('button', { name: L.save }).click();
const notification = (text: string) => page.locator('.notification', { hasText: text });
const row = (text: string) => page.locator('.ag-row', { hasText: text });
/** The deployment licenses attach to: this Depot, by the name startDepot gives it. */
const SERVER_NAME = 'Depot E2E';

describe('license buckets', () => {
  it('shows the empty list at its route', async () => {
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\//);
    await page.goto(depot.ui(BUCKETS_PATH));
    // The first visit loads the screen's code: wait for it as long as any locator does.
    await page.getByRole('heading', { name: L.title }).waitFor();
    await expect.poll(() => page.getByRole('heading', { name: L.title }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('status').filter({ hasText: L.empty }).count()).toBe(1);
  });

  it("checks the add form with the spec's messages", async () => {
    await page.getByRole('link', { name: L.add }).click();
    await page.waitForURL(/license_buckets\/add$/);
    await save();
    await expect.poll(() => addForm().getByText(M.mandatory).count()).toBe(2);
    await addForm().getByLabel(L.name).fill('bad name!');
    await addForm().locator('input[type="file"]').setInputFiles(textFile);
    await expect.poll(() => addForm().getByText(M.badName).isVisible()).toBe(true);
    await expect.poll(() => addForm().getByText(M.notJsonFile).isVisible()).toBe(true);
    await addForm().getByLabel(L.fromUrl).check();
    await addForm().getByRole('textbox', { name: L.url, exact: true }).fill('not a url');
    await save();
    await expect.poll(() => addForm().getByText(M.badUrl).isVisible()).toBe(true);
    await addForm().getByLabel(L.fileUpload).check();
  });

  it("refuses a tampered file with the server's reason, keeping nothing", async () => {
    await addForm().getByLabel(L.name).fill('tampered');
    await addForm().locator('input[type="file"]').setInputFiles(tamperedFile);
    await save();
    await expect
      .poll(() => addForm().getByRole('alert').textContent())
      .toMatch(/signature does not match its contents/);
  });

  it('adds a signed file and lists it with its columns', async () => {
    await addForm().getByLabel(L.name).fill('main-1.0');
    await addForm().locator('input[type="file"]').setInputFiles(bucketFile);
    await save();
    await page.waitForURL(new RegExp(`${BUCKETS_PATH}$`));
    await expect.poll(() => notification(M.added).isVisible()).toBe(true);
    const row = page.locator('.ag-row', { hasText: 'main-1.0' });
    await expect.poll(() => row.textContent()).toContain('acme-e2e');
    const text = (await row.textContent()) ?? '';
    for (const value of ['ENTERPRISE_PLUS', '2026-01-15', '2099-01-15', '0 / 10', 'Acme Inc.'])
      expect(text).toContain(value);
    expect(await page.locator('.ag-row').count()).toBe(1);
    for (const header of Object.values(L.columns))
      expect(await page.locator('.ag-header-cell', { hasText: header }).count()).toBeGreaterThan(0);
  });

  it('splits licenses off into a bucket of their own, checking the number first', async () => {
    await page.getByRole('button', { name: `${L.split} main-1.0` }).click();
    const split = page.getByRole('form', { name: L.splitTitle });
    expect(await split.getByLabel(L.sourceBucket).inputValue()).toBe('main-1.0');
    expect(await split.getByLabel(L.totalLicense).inputValue()).toBe('10');
    expect(await split.getByLabel(L.availableLicense).inputValue()).toBe('10');
    const submit = () => page.getByRole('dialog').getByRole('button', { name: L.split }).click();
    await split.getByLabel(L.bucketName).fill('team-a');
    await split.getByLabel(L.numberOfLicenses).fill('2.5');
    await submit();
    await expect.poll(() => split.getByText(M.decimal).isVisible()).toBe(true);
    await split.getByLabel(L.numberOfLicenses).fill('11');
    await expect.poll(() => split.getByText(M.tooHigh).isVisible()).toBe(true);
    await split.getByLabel(L.numberOfLicenses).fill('3');
    await submit();
    await expect.poll(() => notification(M.split('team-a')).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => row('acme-e2e.team-a').textContent()).toContain('0 / 3');
    await expect.poll(() => row('main-1.0').textContent()).toContain('3 / 10');
  });

  it('attaches licenses to the deployment, never more than are available', async () => {
    await page.getByRole('link', { name: `${L.attach} main-1.0` }).click();
    await page.waitForURL(/license_buckets\/attach\/acme-e2e$/);
    const attach = page.getByRole('form', { name: L.attachTitle('main-1.0') });
    const count = attach.getByLabel(`${L.licensesToAttach} ${SERVER_NAME}`);
    await count.fill('8');
    await attach.getByRole('button', { name: L.attach }).click();
    await expect.poll(() => attach.getByText(M.overAvailable).isVisible()).toBe(true);
    await count.fill('2');
    await attach.getByRole('button', { name: L.attach }).click();
    await page.waitForURL(new RegExp(`${BUCKETS_PATH}$`));
    await expect.poll(() => notification(M.attached(2, SERVER_NAME)).isVisible()).toBe(true);
    await expect.poll(() => row('main-1.0').textContent()).toContain('5 / 10');
  });

  it('reports where the licenses went, and detaches them from the deployment after asking', async () => {
    await page.getByRole('link', { name: `${L.report} main-1.0` }).click();
    await page.getByRole('heading', { name: L.reportTitle('main-1.0') }).waitFor();
    const fact = (term: string) => page.locator('dl div', { hasText: term }).locator('dd');
    expect(await fact(L.totalLicenses).textContent()).toBe('10');
    expect(await fact(L.bucketIdentifier).textContent()).toBe('acme-e2e');
    expect(await fact(L.maxConsumed).textContent()).toBe('5');
    expect(await fact(L.splits).textContent()).toBe('team-a: 0 / 3');
    const deployments = page.getByRole('table', { name: L.deployments });
    const home = deployments.locator('tbody tr', { hasText: SERVER_NAME });
    expect(await home.locator('td').allTextContents()).toEqual([
      SERVER_NAME,
      'ONLINE',
      '2',
      L.detach,
    ]);

    await home.getByRole('button', { name: `${L.detach} ${SERVER_NAME}` }).click();
    const dialog = page.getByRole('alertdialog', { name: L.detachTitle });
    await expect
      .poll(() => dialog.textContent())
      .toContain(L.detachText(2, SERVER_NAME, 'main-1.0'));
    await dialog.getByRole('button', { name: L.detach }).click();
    await expect.poll(() => notification(M.detached(2, SERVER_NAME)).isVisible()).toBe(true);
    await expect.poll(() => home.locator('td').nth(2).textContent()).toBe('0');
    expect(await home.getByRole('button').count()).toBe(0);
    // The most ever out of the bucket at once stays what it was.
    expect(await fact(L.maxConsumed).textContent()).toBe('5');
    await page.getByRole('link', { name: L.back }).click();
    await expect.poll(() => row('main-1.0').textContent()).toContain('3 / 10');
  });

  it('deletes it after asking, and the list reloads', async () => {
    await page.getByRole('button', { name: `${L.delete} main-1.0` }).click();
    const dialog = page.getByRole('alertdialog', { name: L.deleteTitle });
    await expect.poll(() => dialog.textContent()).toContain(L.deleteParent('main-1.0'));
    await dialog.getByRole('button', { name: L.delete }).click();
    await expect.poll(() => notification(M.removed).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('status').filter({ hasText: L.empty }).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
