import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REMOTE_MESSAGES } from '../server/modules/remote/routes.ts';
import { LAYOUT_MESSAGES } from '../server/modules/repositories/messages.ts';
import {
  DISCARD_CHANGES_TEXT,
  REPO_KEY_MESSAGES,
  deleteRepositoryText,
} from '../src/custom/repositories/messages.ts';
import { LABELS } from '../src/shell/messages.ts';
import { chooseOption, launchBrowser, watchPageErrors, signIn } from './browser.ts';
import { startDepot, type E2eDepot } from './server.ts';

/**
 * An admin manages repositories in the console, against a real server: creates a local, a
 * remote (its upstream is this Depot's own local repository, on loopback) and a virtual one
 * with the form, meets the key rules, edits one and deletes one.
 */
const ADMIN_PASSWORD = 'repo-admin-pass-1';
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

const adminAuth = {
  authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
};
/** A call as a script makes it, to check what the console did. */
async function asScript(method: string, path: string, body?: unknown) {
  return fetch(`${depot.baseUrl}${path}`, {
    method,
    headers: { ...adminAuth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD);
  // The upstream is on loopback, which remote repositories may reach only when allowed.
  const allowed = await asScript('PUT', '/ui/api/v1/ui/securityconfig', {
    remoteAllowList: ['127.0.0.1'],
  });
  expect(allowed.status).toBe(200);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10000);
  pageErrors = watchPageErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

const row = (text: string) => page.locator('.ag-row', { hasText: text });
const keyField = () => page.getByLabel(/Repository Key/);

async function startNew(kind: 'Local' | 'Remote' | 'Virtual', packageType: string) {
  await page.getByRole('navigation', { name: 'Repository types' }).getByText(kind).click();
  await page.getByRole('link', { name: `New ${kind} Repository` }).click();
  await page.getByRole('button', { name: packageType, exact: true }).click();
  await keyField().waitFor();
}

async function save(expectedNotification: string) {
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText(expectedNotification).waitFor();
}

describe('repositories in the console', () => {
  it('opens the repositories from the sidebar, empty at first', async () => {
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\/mission_control\/topology$/);
    await page
      .getByRole('navigation', { name: LABELS.mainNavigation })
      .getByRole('link', {
        name: 'Repositories',
      })
      .click();
    await page.waitForURL(/\/ui\/admin\/repositories\/local$/);
    await page.getByText('No local repositories yet.').waitFor();
  });

  it('shows the key rules as the key is typed, then creates a local repository', async () => {
    await startNew('Local', 'Generic');
    await keyField().fill('1st-local');
    await page.getByText(REPO_KEY_MESSAGES.startsWithNumber).waitFor();
    await keyField().fill('e2e-cache');
    await page.getByText(REPO_KEY_MESSAGES.localCacheSuffix).waitFor();
    await keyField().fill('e2e-local');
    await page.getByLabel('Public Description').fill('End-to-end files');
    await save("Successfully created repository 'e2e-local'");
    await page.waitForURL(/\/ui\/admin\/repositories\/local$/);
    await row('e2e-local').waitFor();
    expect(await row('e2e-local').textContent()).toContain('Generic');
  });

  it('creates a snapshot-only Maven repository with its Maven settings', async () => {
    await startNew('Local', 'Maven');
    await keyField().fill('e2e-snapshots');
    const maven = page.getByRole('group', { name: 'Maven Settings' });
    expect(await maven.getByLabel('Handle Releases').isChecked()).toBe(true);
    await maven.getByLabel('Handle Releases').uncheck();
    await maven.getByLabel('Max Unique Snapshots').fill('3');
    await save("Successfully created repository 'e2e-snapshots'");
    const config = await (
      await asScript('GET', '/artifactory/api/repositories/e2e-snapshots')
    ).json();
    expect(config).toMatchObject({
      packageType: 'maven',
      handleReleases: false,
      handleSnapshots: true,
      maxUniqueSnapshots: 3,
      suppressPomConsistencyChecks: false,
    });
  });

  it('wants Docker keys in lowercase, and asks before discarding the form', async () => {
    await startNew('Local', 'Docker');
    await keyField().fill('Images');
    await page.getByText(REPO_KEY_MESSAGES.dockerLowercase).waitFor();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByText(DISCARD_CHANGES_TEXT).waitFor();
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.waitForURL(/\/ui\/admin\/repositories\/local$/);
  });

  it('creates a remote repository whose upstream it tests first', async () => {
    await startNew('Remote', 'Generic');
    await keyField().fill('e2e-remote');
    await page.getByLabel(/^URL/).fill(`${depot.baseUrl}/artifactory/e2e-local/`);
    await page.getByRole('button', { name: 'Test' }).click();
    await page.getByText(TEST_REMOTE_MESSAGES.success).waitFor();
    await save("Successfully created repository 'e2e-remote'");
    await page.waitForURL(/\/ui\/admin\/repositories\/remote$/);
    expect(await row('e2e-remote').textContent()).toContain('/artifactory/e2e-local/');
  });

  it('creates a virtual repository with ordered members and a deployment target', async () => {
    await startNew('Virtual', 'Generic');
    await keyField().fill('e2e-virtual');
    const available = page.getByRole('listbox', { name: 'Available Repositories' });
    await available.getByRole('option', { name: 'e2e-local', exact: true }).click();
    await page.getByRole('button', { name: 'Add' }).click();
    await available.getByRole('option', { name: 'e2e-remote', exact: true }).click();
    await page.getByRole('button', { name: 'Add' }).click();
    await page
      .getByRole('listbox', { name: 'Selected Repositories' })
      .getByRole('option', { name: 'e2e-remote', exact: true })
      .click();
    await page.getByRole('button', { name: 'Move Up' }).click();
    await chooseOption(page, 'Default Deployment Repository', 'e2e-local');
    await save("Successfully created repository 'e2e-virtual'");
    await page.waitForURL(/\/ui\/admin\/repositories\/virtual$/);
    expect(await row('e2e-virtual').textContent()).toContain('e2e-remote, e2e-local');
    const config = await (
      await asScript('GET', '/artifactory/api/repositories/e2e-virtual')
    ).json();
    expect(config).toMatchObject({
      rclass: 'virtual',
      repositories: ['e2e-remote', 'e2e-local'],
      defaultDeploymentRepo: 'e2e-local',
    });
  });

  it('edits a repository', async () => {
    await page.getByRole('navigation', { name: 'Repository types' }).getByText('Local').click();
    await row('e2e-local').getByRole('link', { name: 'e2e-local' }).click();
    await page.waitForURL(/\/ui\/admin\/repositories\/local\/e2e-local\/edit$/);
    await expect(keyField().inputValue()).resolves.toBe('e2e-local');
    await page.getByLabel('Public Description').fill('Edited in the browser');
    await page.getByLabel('Exclude Patterns').fill('**/*.tmp');
    await save("Repository 'e2e-local' update successful.");
    await page.waitForURL(/\/ui\/admin\/repositories\/local$/);
    const config = await (await asScript('GET', '/artifactory/api/repositories/e2e-local')).json();
    expect(config).toMatchObject({
      description: 'Edited in the browser',
      excludesPattern: '**/*.tmp',
    });
  });

  it('deletes a repository after the confirmation, and it leaves the list', async () => {
    await page.getByRole('navigation', { name: 'Repository types' }).getByText('Virtual').click();
    await row('e2e-virtual').waitFor();
    await page.getByRole('button', { name: 'Delete e2e-virtual' }).click();
    await page.getByText(deleteRepositoryText('e2e-virtual')).waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page
      .getByText("Repository 'e2e-virtual' and all its content have been removed")
      .waitFor();
    await row('e2e-virtual').waitFor({ state: 'detached' });
    await page.getByText('No virtual repositories yet.').waitFor();
    expect((await asScript('GET', '/artifactory/api/repositories/e2e-virtual')).status).toBe(404);
    expect(pageErrors).toEqual([]);
  });

  it('adds a layout of its own, after the token rule, and a repository uses it', async () => {
    await page
      .getByRole('navigation', { name: LABELS.mainNavigation })
      .getByRole('link', { name: 'Layouts' })
      .click();
    await page.waitForURL(/\/ui\/admin\/repositories\/layouts$/);
    await row('maven-2-default').waitFor();
    await page.getByRole('link', { name: 'New Layout' }).click();
    await page.getByLabel(/^Layout Name/).fill('team-layout');
    await page.getByLabel(/^Artifact Path Pattern/).fill('[module]/[baseRev].[ext]');
    await page.getByLabel(/^Folder Integration Revision RegExp/).fill('SNAPSHOT');
    await page.getByLabel(/^File Integration Revision RegExp/).fill('SNAPSHOT');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(LAYOUT_MESSAGES.tokens).waitFor();
    await page.getByLabel(/^Artifact Path Pattern/).fill('[org]/[module]/[baseRev].[ext]');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText("Layout 'team-layout' created").waitFor();
    await row('team-layout').waitFor();

    await page.goto(depot.ui('/admin/repositories/local/e2e-local/edit'));
    await chooseOption(page, 'Repository Layout', 'team-layout');
    await save("Repository 'e2e-local' update successful.");
    const config = await (await asScript('GET', '/artifactory/api/repositories/e2e-local')).json();
    expect(config.repoLayoutRef).toBe('team-layout');
    expect(pageErrors).toEqual([]);
  });
});
