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

describe('license buckets', () => {
  it('shows the empty list at its route', async () => {
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\//);
    await page.goto(depot.ui(BUCKETS_PATH));
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
