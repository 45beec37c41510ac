import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCARD_DIALOG, LABELS } from '../src/shell/messages.ts';
import {
  JOB_CARDS,
  MAINTENANCE_LABELS,
  MAINTENANCE_MESSAGES,
} from '../src/custom/maintenance/messages.ts';
import { BACKUP_STATUS_LABELS } from '../src/custom/backup-status/messages.ts';
import { BACKUP_MESSAGES } from '../server/modules/backups/messages.ts';
import { WIDGET_TEXTS } from '../src/design/rjsf/widgetTexts.ts';
import { CONFIG_DESCRIPTOR_LABELS as CONFIG } from '../src/custom/config-descriptor/messages.ts';
import { launchBrowser, watchPageErrors, signIn } from './browser.ts';
import { startDepot, type E2eDepot } from './server.ts';

/**
 * The Maintenance page in a real browser against a real server: a file deployed and deleted
 * for good as a script would, then garbage collection run from the page frees it. The
 * server's grace period is 0 (DEPOT_GC_GRACE_SECONDS) so the blob is collectable at once.
 */
const ADMIN_PASSWORD = 'maintenance-admin-1';
const CONTENT = 'm'.repeat(2048);
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];
/** The one directory backups may go to (DEPOT_BACKUP_DIRS), with a subdirectory to pick. */
const backupRoot = mkdtempSync(join(tmpdir(), 'depot-e2e-backups-'));
mkdirSync(join(backupRoot, 'weekly'));

const adminAuth = {
  authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
};

/** A call as a script makes it (curl-shaped: basic auth, a body, no browser). */
async function asScript(method: string, path: string, body?: string, contentType?: string) {
  const response = await fetch(`${depot.baseUrl}${path}`, {
    method,
    headers: { ...adminAuth, ...(contentType ? { 'content-type': contentType } : {}) },
    body,
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return response;
}

const card = (job: string) =>
  page.getByRole('region', { name: JOB_CARDS.find((c) => c.job === job)!.title });
const cronInput = (job: string) => card(job).getByLabel(MAINTENANCE_LABELS.cronExpression);
const button = (job: string) =>
  card(job).getByRole('button', { name: JOB_CARDS.find((c) => c.job === job)!.button });

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD, {
    DEPOT_GC_GRACE_SECONDS: '0',
    DEPOT_BACKUP_DIRS: backupRoot,
  });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(10000);
  pageErrors = watchPageErrors(page);
  await asScript(
    'PUT',
    '/artifactory/api/repositories/maint-libs',
    JSON.stringify({ rclass: 'local', packageType: 'generic' }),
    'application/json',
  );
  await asScript('PUT', '/artifactory/maint-libs/tools/big.bin', CONTENT);
  // Deleted for good: out of the repository, then out of the trash can.
  await asScript('DELETE', '/artifactory/maint-libs/tools/big.bin');
  await asScript('POST', '/artifactory/api/trash/empty');
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
  rmSync(backupRoot, { recursive: true, force: true });
});

describe('the Maintenance page', () => {
  it('is in the Administration menu for an admin', async () => {
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((url) => !url.pathname.startsWith('/ui/login'));
    await page
      .getByRole('navigation', { name: LABELS.mainNavigation })
      .getByRole('link', { name: MAINTENANCE_LABELS.title })
      .click();
    await page.waitForURL(/\/ui\/admin\/artifactory\/advanced\/maintenance$/);
    await page.getByRole('heading', { name: MAINTENANCE_LABELS.title, level: 1 }).waitFor();
    expect(await page.title()).toMatch(/^Maintenance/);
    // The default schedule is checked by the server and its next run shown.
    await card('garbageCollection').getByText(`${MAINTENANCE_LABELS.nextRun}:`).waitFor();
    await card('garbageCollection').getByText(MAINTENANCE_LABELS.neverRun).waitFor();
  });

  it('runs garbage collection and tells what it freed', async () => {
    await button('garbageCollection').click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Garbage collection freed 1 binaries (2.0 KB)' })
      .waitFor();
    // The card shows the run as its last one.
    await card('garbageCollection')
      .getByText('Garbage collection freed 1 binaries (2.0 KB)')
      .waitFor();
    await expect(button('garbageCollection').isEnabled()).resolves.toBe(true);
  });

  it('says when a cron is invalid or missing, and saves a valid one', async () => {
    const save = page.getByRole('button', { name: MAINTENANCE_LABELS.save });
    await cronInput('garbageCollection').fill('every night at two');
    await card('garbageCollection').getByText(MAINTENANCE_MESSAGES.invalidCron).waitFor();
    await expect(save.isDisabled()).resolves.toBe(true);
    await cronInput('garbageCollection').fill('');
    await card('garbageCollection').getByText(MAINTENANCE_MESSAGES.required).waitFor();

    await cronInput('garbageCollection').fill('0 30 3 * * ?');
    await card('garbageCollection').getByText(`${MAINTENANCE_LABELS.nextRun}:`).waitFor();
    await save.click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Successfully updated maintenance settings' })
      .waitFor();
    const saved = await (await asScript('GET', '/ui/api/v1/ui/maintenance')).json();
    expect(saved.garbageCollectorCron).toBe('0 30 3 * * ?');
  });

  it('turns the storage quota on with inputs from 0 to 100 by 5', async () => {
    const quota = page.getByRole('region', { name: MAINTENANCE_LABELS.storageQuota });
    await quota.getByLabel(MAINTENANCE_LABELS.quotaControl).check();
    const limit = quota.getByLabel(MAINTENANCE_LABELS.storageLimit);
    await expect(limit.getAttribute('step')).resolves.toBe('5');
    await expect(limit.getAttribute('max')).resolves.toBe('100');
    await limit.fill('100');
    await quota.getByLabel(MAINTENANCE_LABELS.storageWarning).fill('100');
    await quota.getByText(MAINTENANCE_MESSAGES.warningBelowLimit).waitFor();
    await quota.getByLabel(MAINTENANCE_LABELS.storageWarning).fill('95');
    // The previous test's notice may still be up: wait for this save's own answer.
    const saving = page.waitForResponse(
      (response) =>
        response.url().endsWith('/ui/api/v1/ui/maintenance') &&
        response.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: MAINTENANCE_LABELS.save }).click();
    expect((await saving).status()).toBe(200);
    const saved = await (await asScript('GET', '/ui/api/v1/ui/maintenance')).json();
    expect(saved).toMatchObject({ quotaControl: true, storageLimit: 100, storageWarning: 95 });
  });

  it('compresses the database from its button', async () => {
    await button('compress').click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Compressed the internal database: / })
      .waitFor();
  });

  it('asks before leaving with unsaved changes, and Reset puts the saved values back', async () => {
    await cronInput('cleanVirtualRepo').fill('0 0 1 * * ?');
    await page.getByRole('button', { name: MAINTENANCE_LABELS.reset }).click();
    await expect(cronInput('cleanVirtualRepo').inputValue()).resolves.toBe('0 12 0 * * ?');

    await cronInput('cleanVirtualRepo').fill('0 0 1 * * ?');
    await page.getByRole('link', { name: LABELS.home }).click();
    const dialog = page.getByRole('alertdialog', { name: DISCARD_DIALOG.title });
    await dialog.getByRole('button', { name: DISCARD_DIALOG.cancel }).click();
    await expect(cronInput('cleanVirtualRepo').inputValue()).resolves.toBe('0 0 1 * * ?');
    await page.getByRole('link', { name: LABELS.home }).click();
    await dialog.getByRole('button', { name: DISCARD_DIALOG.discard }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/maintenance'));
    expect(pageErrors).toEqual([]);
  });
});

describe('a backup’s runs on the Backups screen', () => {
  it('runs now, shows the result, and a Restore the server refuses says why', async () => {
    await asScript(
      'POST',
      '/ui/api/v1/ui/backup',
      JSON.stringify({ key: 'e2e-nightly', cronExp: '0 0 2 * * ?' }),
      'application/json',
    );
    await page.goto(depot.ui('/admin/artifactory/services/backups/edit/e2e-nightly'));
    const panel = page.getByRole('region', { name: BACKUP_STATUS_LABELS.title });
    await panel.getByText(BACKUP_STATUS_LABELS.never).waitFor();
    await panel.getByRole('button', { name: BACKUP_STATUS_LABELS.runNow }).click();
    // The panel polls the server: the run's outcome and its sentence appear by themselves.
    await panel.getByText(/^Succeeded at .+ \(run now\)$/).waitFor();
    await panel.getByText(/^Backup 'e2e-nightly' wrote \d+ binaries/).waitFor();
    await panel.getByText(/^backup-\d{8}\.\d{6}$/).waitFor();

    await panel.getByRole('button', { name: BACKUP_STATUS_LABELS.restore }).click();
    const dialog = page.getByRole('alertdialog', { name: BACKUP_STATUS_LABELS.restoreTitle });
    await dialog.getByRole('button', { name: BACKUP_STATUS_LABELS.restoreConfirm }).click();
    // This Depot has a repository: the server refuses, and the panel says so in its words.
    await panel.getByRole('alert').filter({ hasText: BACKUP_MESSAGES.notEmpty }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});

describe('the backup form’s Server Path', () => {
  it('is picked with Browse among the directories the administrator allowed', async () => {
    await page.goto(depot.ui('/admin/artifactory/services/backups/new'));
    await page
      .getByRole('button', { name: WIDGET_TEXTS.browseFor('Server Path For Backup') })
      .click();
    const picker = page.getByRole('dialog', { name: WIDGET_TEXTS.pickDirectory });
    await picker.getByRole('button', { name: backupRoot, exact: true }).click();
    await picker.getByText(backupRoot, { exact: true }).waitFor();
    await picker.getByRole('button', { name: 'weekly', exact: true }).click();
    await picker.getByText(WIDGET_TEXTS.noSubdirectories).waitFor();
    await picker.getByRole('button', { name: WIDGET_TEXTS.selectDirectory }).click();
    await picker.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Server Path For Backup', { exact: true }).inputValue()).toBe(
      join(backupRoot, 'weekly'),
    );
    expect(pageErrors).toEqual([]);
  });
});

// The other Advanced pages, on the same server: configuration as code (docs/config-as-code.md).
describe('the Config Descriptor and Security Descriptor pages', () => {
  it('applies an edited configuration XML, and refuses a broken one saying why', async () => {
    await page.goto(depot.ui('/admin/artifactory/advanced/config_descriptor'));
    await page.getByRole('heading', { name: CONFIG.configTitle, level: 1 }).waitFor();
    await page.getByText(CONFIG.configWarning).waitFor();
    const editor = page.getByLabel(CONFIG.editor);
    const xml = await editor.inputValue();
    expect(xml).toContain('<trashcanRetentionDays>14</trashcanRetentionDays>');
    await editor.fill(xml.replace('<trashcanRetentionDays>14<', '<trashcanRetentionDays>21<'));
    await page.getByRole('button', { name: CONFIG.save }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Configuration saved successfully' })
      .waitFor();
    const general = await asScript('GET', '/ui/api/v1/ui/generalConfig');
    expect((await general.json()).trashcanRetentionDays).toBe(21);

    await editor.fill('<config><general>');
    await page.getByRole('button', { name: CONFIG.save }).click();
    await page
      .getByText(/not well-formed XML/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: CONFIG.reset }).click();
    expect(await editor.inputValue()).toContain('<trashcanRetentionDays>21<');
  });

  it('shows the security settings read-only', async () => {
    await page.goto(depot.ui('/admin/artifactory/advanced/security_descriptor'));
    const view = page.getByLabel(CONFIG.securityXml);
    await view.waitFor();
    expect(await view.inputValue()).toContain('<security>');
    expect(await view.getAttribute('readonly')).not.toBeNull();
    expect(pageErrors).toEqual([]);
  });
});
