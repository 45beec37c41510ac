import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import {
  ACTION_LABELS,
  TAB_LABELS,
  TREE_LABELS,
  TREE_MESSAGES,
} from '../src/custom/tree-browser/messages.ts';
import { DEPLOY_LABELS } from '../src/custom/tree-browser/deploy/messages.ts';
import { PROPERTY_SET_MESSAGES } from '../server/modules/property-sets/messages.ts';
import { craftZip, untar, unzip } from '../tests/helpers/archives.ts';
import { chooseOption, chosenOption, launchBrowser, signIn, watchPageErrors } from './browser.ts';
import { seededFileName, seedTree } from './seed-tree.ts';
import { startDepot, type E2eDepot } from './server.ts';

/**
 * The artifact browser against a real server: a seeded repository with a folder of
 * 100,000 files, and a few repositories filled over REST. Deep links, the not-found walk,
 * keyboard navigation with the route following, the big folder to its last row, favorites
 * and filters that outlive a reload, and the trash can's own tree.
 */
const ADMIN_PASSWORD = 'tree-admin-pass-1';
const APP = 'libs-release-local/org/acme/app/1.0/app-1.0';
const APP_POM =
  '<project><groupId>org.acme</groupId><artifactId>app</artifactId><version>1.0</version></project>';
/** A small jar: a manifest, a class and an inner class (class files hold NUL bytes). */
const APP_JAR = craftZip([
  { name: 'META-INF/MANIFEST.MF', data: Buffer.from('Manifest-Version: 1.0\n') },
  { name: 'org/acme/App.class', data: Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52]) },
  { name: 'org/acme/App$Inner.class', data: Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52]) },
]);
const BIG_FOLDER_SIZE = 100_000;
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

const authorization = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
async function asScript(method: string, path: string, body?: string | Buffer | object) {
  const json = typeof body === 'object' && !Buffer.isBuffer(body);
  const response = await fetch(`${depot.baseUrl}${path}`, {
    method,
    headers: { authorization, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(body) : Buffer.isBuffer(body) ? new Uint8Array(body) : body,
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
}

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD, {}, (home) =>
    seedTree(home, ADMIN_PASSWORD, {
      repoKey: 'big-local',
      bigFolder: 'huge',
      bigFolderSize: BIG_FOLDER_SIZE,
    }),
  );
  const repo = (key: string, body: object) =>
    asScript('PUT', `/artifactory/api/repositories/${key}`, body);
  await repo('docs-local', { rclass: 'local', packageType: 'generic' });
  await repo('libs-release-local', { rclass: 'local', packageType: 'maven' });
  await repo('all-libs', {
    rclass: 'virtual',
    packageType: 'maven',
    repositories: ['libs-release-local'],
  });
  for (const path of [
    'docs-local/readme.txt',
    'docs-local/a b/c#d.txt',
    'docs-local/guides/intro/start.md',
    'docs-local/old.txt',
  ]) {
    const encoded = path.split('/').map(encodeURIComponent).join('/');
    await asScript('PUT', `/artifactory/${encoded}`, `content of ${path}`);
  }
  await asScript('DELETE', '/artifactory/docs-local/old.txt'); // into the trash can
  await asScript('PUT', `/artifactory/${APP}.jar`, APP_JAR);
  await asScript('PUT', `/artifactory/${APP}.pom`, APP_POM);

  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
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

async function statusOf(path: string) {
  const response = await fetch(`${depot.baseUrl}${path}`, { headers: { authorization } });
  await response.arrayBuffer();
  return response.status;
}
const tab = (name: string) => page.getByRole('tab', { name, exact: true });
async function expectActiveOnTab(text: string, tabName: string, pathInUrl: string) {
  await expect.poll(() => activeText().textContent()).toBe(text);
  await page.waitForURL((url) => url.pathname === `/ui/repos/tree/${tabName}/${pathInUrl}`);
}
const actions = () => page.getByRole('toolbar', { name: 'Actions' });
const mainTree = () => page.getByRole('tree', { name: TREE_LABELS.tree });
/** The row showing exactly `text`. */
const treeItem = (text: string, tree = mainTree()) =>
  tree.getByRole('treeitem').filter({
    has: page.locator('.tree-text').getByText(text, { exact: true }),
  });
const activeText = () => page.locator('[role=treeitem][aria-selected=true] .tree-text');
async function expectActive(text: string, pathInUrl: string) {
  await expect.poll(() => activeText().textContent()).toBe(text);
  await page.waitForURL((url) => url.pathname === `/ui/repos/tree/General/${pathInUrl}`);
}

describe('the artifact browser', () => {
  it('opens at the first repository and writes it to the route', async () => {
    await page.goto(depot.ui('/repos/tree'));
    await expectActive('big-local', 'big-local');
    // local repositories by key, then virtual ones; the trash can has a tree of its own
    await treeItem('all-libs').waitFor();
    const roots = await mainTree().locator('[aria-level="1"] .tree-text').allTextContents();
    expect(roots).toEqual(['big-local', 'docs-local', 'libs-release-local', 'all-libs']);
    const trash = page.getByRole('tree', { name: TREE_LABELS.trashTree });
    await treeItem('Trash Can', trash).waitFor();
  });

  it('walks a deep link down to its node, and again after a reload', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local/a%20b/c%23d.txt'));
    await expectActive('c#d.txt', 'docs-local/a%20b/c%23d.txt');
    await page.reload();
    await expectActive('c#d.txt', 'docs-local/a%20b/c%23d.txt');
    const details = page.getByRole('region', { name: TREE_LABELS.details });
    await details.getByRole('heading', { name: 'c#d.txt' }).waitFor();
  });

  it('names a missing segment with the not-found suffix and selects the last node found', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local/nope/x.txt'));
    await page.getByText(TREE_MESSAGES.notFound('nope')).waitFor();
    await expectActive('docs-local', 'docs-local');
  });

  it('moves with the arrows, opens with Enter, and Back returns to the previous node', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local'));
    await expectActive('docs-local', 'docs-local');
    await page.keyboard.press('ArrowRight'); // opens docs-local
    await treeItem('readme.txt').waitFor();
    await page.keyboard.press('ArrowDown');
    await expectActive('a b', 'docs-local/a%20b');
    await page.keyboard.press('ArrowDown'); // a compacted chain of single folders
    await expectActive('guides/intro', 'docs-local/guides/intro');
    await page.keyboard.press('Enter');
    await treeItem('start.md').waitFor();
    await page.keyboard.press('ArrowDown');
    await expectActive('start.md', 'docs-local/guides/intro/start.md');
    await page.keyboard.press('ArrowLeft');
    await expectActive('guides/intro', 'docs-local/guides/intro');
    await page.keyboard.press('ArrowLeft'); // closes it
    await expect.poll(() => treeItem('start.md').count()).toBe(0);
    await page.goBack();
    await expectActive('start.md', 'docs-local/guides/intro/start.md');
  });

  it('opens a folder of 100,000 files at once and reaches its last row', async () => {
    await page.goto(depot.ui('/repos/tree/General/big-local/huge'));
    await expectActive('huge', 'big-local/huge');
    await page.keyboard.press('ArrowRight');
    await treeItem(seededFileName(1)).waitFor();
    // the rest arrive in pages; once nothing is fetching, the bottom of the scroll box shows
    // the folder's last file just above the three repositories that follow it
    await page.locator('.tree-toolbar button[aria-busy="false"]').waitFor();
    await mainTree().evaluate((box) => box.scrollTo({ top: box.scrollHeight }));
    const last = seededFileName(BIG_FOLDER_SIZE);
    await treeItem(last).click();
    await expectActive(last, `big-local/huge/${last}`);
    expect(await mainTree().locator('[aria-level="3"]').last().textContent()).toBe(last);
    await page.keyboard.press('Home');
    await expectActive('big-local', 'big-local');
    await page.keyboard.press('End');
    await expectActive('all-libs', 'all-libs');
  });

  it('keeps favorites and filters across a reload, with their empty states', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local'));
    await expectActive('docs-local', 'docs-local');
    await page.getByRole('button', { name: TREE_LABELS.addFavorite('docs-local') }).click();
    await page.getByLabel(TREE_LABELS.favoritesOnly).check();
    await expect.poll(() => mainTree().getByRole('treeitem').count()).toBe(1);
    await page.reload();
    await treeItem('docs-local').waitFor();
    expect(await mainTree().getByRole('treeitem').count()).toBe(1);
    await page.getByRole('button', { name: TREE_LABELS.removeFavorite('docs-local') }).click();
    await page.getByText(TREE_MESSAGES.noFavorites).waitFor();
    await page.getByLabel(TREE_LABELS.favoritesOnly).uncheck();
    await treeItem('big-local').waitFor();

    await page.getByText(TREE_LABELS.filter, { exact: true }).click();
    await page.getByLabel('Virtual', { exact: true }).check();
    await expect.poll(() => mainTree().getByRole('treeitem').count()).toBe(1);
    await treeItem('all-libs').waitFor();
    await page.reload();
    await treeItem('all-libs').waitFor();
    await page.getByText(TREE_LABELS.filter, { exact: false }).first().click();
    await page.getByLabel('Virtual', { exact: true }).uncheck();
    await page.getByLabel('Remote', { exact: true }).check();
    await page.getByText(TREE_MESSAGES.noMatches).waitFor();
    await page.getByRole('button', { name: TREE_LABELS.clearFilters }).first().click();
    await treeItem('big-local').waitFor();
  });

  it('copies after a dry run, and lands on the copy', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local/readme.txt'));
    await expectActive('readme.txt', 'docs-local/readme.txt');
    await actions().getByRole('button', { name: ACTION_LABELS.names.copy }).click();
    const dialog = page.getByRole('dialog');
    await chooseOption(dialog, ACTION_LABELS.targetRepository, 'big-local');
    await dialog.getByLabel(ACTION_LABELS.targetPath).fill('copied/readme.txt');
    await dialog.getByRole('button', { name: ACTION_LABELS.dryRun }).click();
    await dialog.getByRole('status').waitFor();
    expect(await statusOf('/artifactory/big-local/copied/readme.txt')).toBe(404);
    await dialog.getByRole('button', { name: ACTION_LABELS.names.copy }).click();
    await expectActive('readme.txt', 'big-local/copied/readme.txt');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await statusOf('/artifactory/big-local/copied/readme.txt')).toBe(200);
    expect(await statusOf('/artifactory/docs-local/readme.txt')).toBe(200);
  });

  it('moves a file into a folder under its own name', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local/a%20b/c%23d.txt'));
    await expectActive('c#d.txt', 'docs-local/a%20b/c%23d.txt');
    await actions().getByRole('button', { name: ACTION_LABELS.names.move }).click();
    const dialog = page.getByRole('dialog');
    await chooseOption(dialog, ACTION_LABELS.targetRepository, 'docs-local');
    await dialog.getByLabel(ACTION_LABELS.targetPath).fill('moved/');
    await dialog.getByRole('button', { name: ACTION_LABELS.names.move }).click();
    await expectActive('c#d.txt', 'docs-local/moved/c%23d.txt');
    expect(await statusOf('/artifactory/docs-local/moved/c%23d.txt')).toBe(200);
    expect(await statusOf('/artifactory/docs-local/a%20b/c%23d.txt')).toBe(404);
  });

  it('deletes into the trash can, goes to the parent, and restores from there', async () => {
    await page.goto(depot.ui('/repos/tree/General/big-local/copied/readme.txt'));
    await expectActive('readme.txt', 'big-local/copied/readme.txt');
    await actions().getByRole('button', { name: ACTION_LABELS.names.delete }).click();
    await page.getByText(ACTION_LABELS.deleteText('big-local/copied/readme.txt')).waitFor();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: ACTION_LABELS.names.delete })
      .click();
    await expectActive('copied', 'big-local/copied');
    expect(await statusOf('/artifactory/big-local/copied/readme.txt')).toBe(404);

    await page.goto(depot.ui('/repos/tree/General/auto-trashcan/big-local/copied/readme.txt'));
    await expectActive('readme.txt', 'auto-trashcan/big-local/copied/readme.txt');
    await actions().getByRole('button', { name: ACTION_LABELS.names.restore }).click();
    const dialog = page.getByRole('dialog');
    await expect
      .poll(() => dialog.getByLabel(ACTION_LABELS.targetPath).inputValue())
      .toBe('copied/readme.txt');
    await dialog.getByRole('button', { name: ACTION_LABELS.names.restore }).click();
    await expectActive('readme.txt', 'big-local/copied/readme.txt');
    expect(await statusOf('/artifactory/big-local/copied/readme.txt')).toBe(200);
  });

  it('refuses a restore over newer content, in the dry run and the restore, and keeps the newer file', async () => {
    const path = '/artifactory/big-local/restore-race/x.txt';
    await asScript('PUT', path, 'one');
    await asScript('DELETE', path);
    await asScript('PUT', path, 'two');
    await page.goto(depot.ui('/repos/tree/General/auto-trashcan/big-local/restore-race/x.txt'));
    await expectActive('x.txt', 'auto-trashcan/big-local/restore-race/x.txt');
    await actions().getByRole('button', { name: ACTION_LABELS.names.restore }).click();
    const dialog = page.getByRole('dialog');
    const refusal = dialog.getByText(
      /^Nothing was restored: newer content is at big-local\/restore-race\/x\.txt/,
    );
    await dialog.getByRole('button', { name: ACTION_LABELS.dryRun }).click();
    await refusal.waitFor();
    await dialog.getByRole('button', { name: ACTION_LABELS.names.restore }).click();
    await refusal.waitFor();
    const kept = await fetch(`${depot.baseUrl}${path}`, { headers: { authorization } });
    expect(await kept.text()).toBe('two');
  });

  it('downloads a file', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local/readme.txt'));
    await expectActive('readme.txt', 'docs-local/readme.txt');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      actions().getByRole('button', { name: ACTION_LABELS.names.download }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('readme.txt');
    expect(readFileSync(await download.path()).toString()).toBe('content of docs-local/readme.txt');
  });

  it('opens an artifact path in the tree, views a text file, and lists a folder natively', async () => {
    await page.goto(depot.ui('/artifactory/docs-local/guides/intro/start.md'));
    await expectActive('start.md', 'docs-local/guides/intro/start.md');
    await actions().getByRole('button', { name: ACTION_LABELS.names.view }).click();
    const code = page.getByRole('dialog', { name: ACTION_LABELS.viewTitle('start.md') });
    await code.getByText('content of docs-local/guides/intro/start.md').waitFor();
    await code.getByRole('button', { name: ACTION_LABELS.close }).click();
    await code.waitFor({ state: 'detached' });
    await page.goto(depot.ui('/artifactory/docs-local/nope/x.txt'));
    await page.getByText(TREE_MESSAGES.notFound('nope')).waitFor();
    await page.goto(depot.ui('/native/docs-local/guides'));
    await page.getByRole('link', { name: 'intro/' }).click();
    const file = page.getByRole('link', { name: 'start.md' });
    await file.waitFor();
    expect(await file.getAttribute('href')).toBe('/artifactory/docs-local/guides/intro/start.md');
    expect(new URL(page.url()).pathname).toBe('/ui/native/docs-local/guides/intro');
  });

  it("shows a file's downloads, saves it by its link, and fixes its checksums", async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local/guides/intro/start.md'));
    await expectActive('start.md', 'docs-local/guides/intro/start.md');
    const general = page.locator('.tree-general');
    const downloads = () =>
      general
        .locator('div', { has: page.getByText(TREE_LABELS.info.downloadCount, { exact: true }) })
        .locator('dd');
    const before = Number(await downloads().textContent());
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      general.getByRole('link', { name: 'start.md' }).click(),
    ]);
    expect(readFileSync(await download.path()).toString()).toBe(
      'content of docs-local/guides/intro/start.md',
    );
    // Deployed without an MD5: the fix computes it, and the tab is read again.
    const checksums = page.getByRole('region', { name: TREE_LABELS.checksums });
    await checksums.getByText(TREE_LABELS.md5NotComputed).waitFor();
    await checksums.getByRole('button', { name: TREE_LABELS.fixChecksums }).click();
    const md5 = createHash('md5')
      .update('content of docs-local/guides/intro/start.md')
      .digest('hex');
    await checksums.getByText(md5).waitFor();
    await expect
      .poll(() => checksums.getByRole('button', { name: TREE_LABELS.fixChecksums }).count())
      .toBe(0);
    expect(await checksums.getByText(TREE_LABELS.md5NotComputed).count()).toBe(0);
    await expect.poll(async () => Number(await downloads().textContent())).toBe(before + 1);
    await general.getByText('admin', { exact: true }).first().waitFor();
  });

  it('downloads a folder as a zip after showing its size', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local/guides/intro'));
    await expectActive('guides/intro', 'docs-local/guides/intro');
    await actions().getByRole('button', { name: ACTION_LABELS.names.downloadfolder }).click();
    const confirm = page.getByRole('dialog', { name: ACTION_LABELS.downloadFolderTitle });
    await confirm.getByText(/^1 files/).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      confirm.getByRole('button', { name: ACTION_LABELS.names.download }).click(),
    ]);
    const saved = await download.path();
    const entries = await unzip(readFileSync(saved));
    expect([...entries.keys()]).toEqual(['start.md']);
    expect(entries.get('start.md')!.toString()).toBe('content of docs-local/guides/intro/start.md');
  });

  it('downloads a folder as a tar.gz with checksum files, chosen in the dialog', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local/guides/intro'));
    await expectActive('guides/intro', 'docs-local/guides/intro');
    await actions().getByRole('button', { name: ACTION_LABELS.names.downloadfolder }).click();
    const dialog = page.getByRole('dialog', { name: ACTION_LABELS.downloadFolderTitle });
    await chooseOption(dialog, ACTION_LABELS.archiveType, 'Tar.gz');
    await dialog.getByRole('checkbox', { name: ACTION_LABELS.includeChecksumFiles }).check();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: ACTION_LABELS.names.download }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('intro.tar.gz');
    const entries = await untar(readFileSync(await download.path()), true);
    const content = 'content of docs-local/guides/intro/start.md';
    const digest = (kind: string) => createHash(kind).update(content).digest('hex');
    expect(
      Object.fromEntries([...entries].map(([name, bytes]) => [name, bytes.toString()])),
    ).toEqual({
      'start.md': content,
      'start.md.sha1': digest('sha1'),
      'start.md.sha256': digest('sha256'),
      'start.md.md5': digest('md5'),
    });
  });

  it('declares a Maven dependency, and shows the POM', async () => {
    await page.goto(depot.ui(`/repos/tree/General/${APP}.jar`));
    await expectActive('app-1.0.jar', `${APP}.jar`);
    const declaration = page.getByRole('region', { name: TAB_LABELS.dependencyDeclaration });
    await declaration.getByText('<artifactId>app</artifactId>').waitFor();
    // the build tools are a named tab list (React Aria Tabs): the arrow key moves to Gradle
    const tools = declaration.getByRole('tablist', { name: TAB_LABELS.buildTool });
    await tools.getByRole('tab', { name: 'Maven' }).focus();
    await page.keyboard.press('ArrowRight');
    await declaration.getByRole('tabpanel', { name: 'Gradle' }).waitFor();
    await declaration.getByText("implementation 'org.acme:app:1.0'").waitFor();
    await page.getByRole('tablist', { name: TREE_LABELS.details }).waitFor();
    await tab('Pom View').click();
    await page.waitForURL((url) => url.pathname === `/ui/repos/tree/PomView/${APP}.jar`);
    await page.locator('.tree-code', { hasText: '<groupId>org.acme</groupId>' }).waitFor();
  });

  it('lists the classes inside a jar and opens an entry', async () => {
    await page.goto(depot.ui(`/repos/tree/ViewSource/${APP}.jar`));
    await expectActiveOnTab('app-1.0.jar', 'ViewSource', `${APP}.jar`);
    const entries = page.getByRole('tree', { name: TAB_LABELS.source.entries });
    await entries.getByText('App$Inner.class').waitFor();
    expect(await entries.locator('.tree-text').allTextContents()).toEqual([
      'META-INF/',
      'MANIFEST.MF',
      'org/',
      'acme/',
      'App$Inner.class',
      'App.class',
    ]);
    await entries.getByText('MANIFEST.MF').click();
    await page.getByRole('dialog').getByText('Manifest-Version: 1.0').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: TAB_LABELS.source.close }).click();
    await entries.getByText('App.class', { exact: true }).click();
    await page.getByRole('dialog').getByText(TAB_LABELS.source.binary).waitFor();
    await page.keyboard.press('Escape');
  });

  it('recalculates a Maven repository’s index, saying what it read', async () => {
    await page.goto(depot.ui('/repos/tree/General/libs-release-local'));
    await expectActive('libs-release-local', 'libs-release-local');
    await actions().getByRole('button', { name: ACTION_LABELS.names.calculateIndex }).click();
    await page
      .getByText(/^Calculated the index of 'libs-release-local': \d+ files read, \d+ indexed$/)
      .waitFor();
    // A generic repository keeps no index: the action is not offered there.
    await page.goto(depot.ui('/repos/tree/General/docs-local'));
    await expectActive('docs-local', 'docs-local');
    await actions().getByRole('button', { name: ACTION_LABELS.names.watch }).waitFor();
    expect(
      await actions().getByRole('button', { name: ACTION_LABELS.names.calculateIndex }).count(),
    ).toBe(0);
  });

  it('deletes a chosen version from the Delete Versions dialog, and keeps the others', async () => {
    const next = 'libs-release-local/org/acme/app/2.0/app-2.0.pom';
    await asScript('PUT', `/artifactory/${next}`, APP_POM.replace('1.0', '2.0'));
    // Compacted, the single-child chain org/acme/app is one row.
    await page.goto(depot.ui('/repos/tree/General/libs-release-local/org/acme/app'));
    await expectActive('org/acme/app', 'libs-release-local/org/acme/app');
    await actions().getByRole('button', { name: ACTION_LABELS.names.deleteversions }).click();
    const dialog = page.getByRole('dialog');
    const table = dialog.getByRole('table', { name: ACTION_LABELS.names.deleteversions });
    await table.getByRole('cell', { name: '2.0', exact: true }).waitFor();
    await table.getByRole('cell', { name: '1.0', exact: true }).waitFor();
    await dialog.getByRole('checkbox', { name: 'org.acme 2.0' }).check();
    await dialog.getByRole('button', { name: ACTION_LABELS.deleteVersionsConfirm(1) }).click();
    await page.getByText('Deleted 1 version (1 folder)').waitFor();
    expect(await statusOf(`/artifactory/${next}`)).toBe(404);
    expect(await statusOf(`/artifactory/${APP}.pom`)).toBe(200);
  });

  it('sets a property recursively on a folder, and deletes it', async () => {
    await page.goto(depot.ui('/repos/tree/Properties/docs-local/guides'));
    await expectActiveOnTab('guides/intro', 'Properties', 'docs-local/guides/intro');
    const form = page.getByRole('form', { name: TAB_LABELS.properties.add });
    await page.getByLabel(TAB_LABELS.properties.recursive).check();
    await form.getByLabel(TAB_LABELS.properties.name, { exact: true }).fill('release');
    await form.getByLabel(TAB_LABELS.properties.values).fill('stable\nlts');
    await form.getByRole('button', { name: TAB_LABELS.properties.add }).click();
    await page.getByRole('cell', { name: 'lts, stable' }).waitFor();
    const below = await fetch(
      `${depot.baseUrl}/artifactory/api/storage/docs-local/guides/intro/start.md?properties`,
      { headers: { authorization } },
    );
    expect((await below.json()).properties.release.sort()).toEqual(['lts', 'stable']);
    await page.getByRole('button', { name: `${TAB_LABELS.properties.delete} release` }).click();
    await page.getByText(TAB_LABELS.properties.none).waitFor();
  });

  it("keeps a repository's own property on its root, for the root alone", async () => {
    await page.goto(depot.ui('/repos/tree/Properties/docs-local'));
    await expectActiveOnTab('docs-local', 'Properties', 'docs-local');
    const form = page.getByRole('form', { name: TAB_LABELS.properties.add });
    await form.getByLabel(TAB_LABELS.properties.name, { exact: true }).fill('owner');
    await form.getByLabel(TAB_LABELS.properties.values).fill('docs-team');
    await form.getByRole('button', { name: TAB_LABELS.properties.add }).click();
    await page.getByRole('cell', { name: 'docs-team' }).waitFor();
    const propertiesOf = async (path: string) =>
      (
        await (
          await fetch(`${depot.baseUrl}/artifactory/api/storage/${path}?properties`, {
            headers: { authorization },
          })
        ).json()
      ).properties;
    expect(await propertiesOf('docs-local')).toEqual({ owner: ['docs-team'] });
    expect(await propertiesOf('docs-local/readme.txt')).not.toHaveProperty('owner');
  });

  it('creates a property set on its admin screen and adds its property from the Properties tab', async () => {
    await page.goto(depot.ui('/admin/artifactory/configuration/property_sets/new'));
    await page.getByLabel(/^Property Set Name/).fill('release');
    await page.getByRole('button', { name: 'Add Property' }).click();
    const property = page.getByRole('group', { name: 'Property 1' });
    await property.getByLabel(/^Property Name/).fill('stage');
    await chooseOption(property, 'Value Type', 'Single Select');
    await page.getByRole('button', { name: 'Save' }).click();
    await property.getByText(PROPERTY_SET_MESSAGES.valuesRequired).waitFor();
    for (const [index, value] of ['dev', 'prod'].entries()) {
      await property.getByRole('button', { name: 'Add Predefined Value' }).click();
      const item = property.getByRole('group', { name: `Predefined Value ${index + 1}` });
      await item.getByLabel(/^Value/).fill(value);
      if (value === 'dev') await item.getByLabel(/^Default/).check();
    }
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/configuration\/property_sets$/);
    await page.getByRole('link', { name: 'release' }).waitFor();

    await page.goto(depot.ui('/repos/tree/Properties/docs-local/readme.txt'));
    const form = page.getByRole('form', { name: TAB_LABELS.properties.fromSet });
    await chooseOption(form, TAB_LABELS.properties.setProperty, 'release.stage');
    // the default value comes chosen
    expect(await chosenOption(form, TAB_LABELS.properties.value)).toBe('dev');
    await chooseOption(form, TAB_LABELS.properties.value, 'prod');
    await form.getByRole('button', { name: TAB_LABELS.properties.add }).click();
    await page.getByRole('cell', { name: 'release.stage', exact: true }).waitFor();
    const stored = await fetch(
      `${depot.baseUrl}/artifactory/api/storage/docs-local/readme.txt?properties`,
      { headers: { authorization } },
    );
    expect((await stored.json()).properties['release.stage']).toEqual(['prod']);
  });

  it('watches a repository and lists its watchers on a file below', async () => {
    await page.goto(depot.ui('/repos/tree/Watch/docs-local'));
    await expectActiveOnTab('docs-local', 'Watch', 'docs-local');
    await actions().getByRole('button', { name: ACTION_LABELS.names.watch }).click();
    await actions().getByRole('button', { name: ACTION_LABELS.names.unwatch }).waitFor();
    const watchers = page.getByRole('table', { name: TAB_LABELS.watch.watchers });
    await watchers.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    await page.goto(depot.ui('/repos/tree/Watch/docs-local/readme.txt'));
    await expectActiveOnTab('readme.txt', 'Watch', 'docs-local/readme.txt');
    // the repository's watcher watches everything below it
    await watchers.getByRole('cell', { name: 'docs-local/', exact: true }).waitFor();
    expect(await watchers.getByRole('row').count()).toBe(2); // header and one watcher
  });

  it('deploys three files, one cancelled while it waits, and shows where they went', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local/guides/intro'));
    await expectActive('guides/intro', 'docs-local/guides/intro');
    await page.getByRole('button', { name: DEPLOY_LABELS.deploy }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByLabel(DEPLOY_LABELS.targetFolder).inputValue()).toBe('guides/intro');
    await dialog.getByLabel(DEPLOY_LABELS.targetFolder).fill('uploads');
    // Files on disk, not buffers: Chromium takes a buffer through the page at about a second
    // a MiB, a file by its path at once. The page reads them as it uploads: kept to the end.
    const files = mkdtempSync(join(tmpdir(), 'depot-e2e-deploy-'));
    try {
      writeFileSync(join(files, 'one.bin'), Buffer.alloc(24 * 1024 * 1024, 7)); // keeps the queue busy
      writeFileSync(join(files, 'two.txt'), 'two');
      writeFileSync(join(files, 'three.txt'), 'three');
      await dialog
        .getByLabel(DEPLOY_LABELS.files)
        .setInputFiles(['one.bin', 'two.txt', 'three.txt'].map((name) => join(files, name)));
      await dialog.getByLabel(DEPLOY_LABELS.properties).fill('team=blue');
      await dialog.getByRole('button', { name: DEPLOY_LABELS.deploy }).click();
      const panel = page.getByRole('complementary', { name: DEPLOY_LABELS.panel });
      await panel.getByRole('button', { name: DEPLOY_LABELS.cancelFile('two.txt') }).click();
      // Each row's bar, status and cancel button sit side by side, none over another.
      const overlaps = await panel.locator('li').evaluateAll((rows) =>
        rows.flatMap((row) => {
          const boxes = [...row.children]
            .filter((child) => !child.classList.contains('error-text'))
            .map((child) => child.getBoundingClientRect());
          return boxes.slice(1).filter((box, i) => box.left < boxes[i]!.right - 0.5).length;
        }),
      );
      expect(overlaps.every((count) => count === 0)).toBe(true);
      await page.getByText(DEPLOY_LABELS.deployed(2)).waitFor({ timeout: 60_000 });
      await expect.poll(() => panel.count()).toBe(0);
      await expectActive('uploads', 'docs-local/uploads');
      expect(await statusOf('/artifactory/docs-local/uploads/one.bin')).toBe(200);
      expect(await statusOf('/artifactory/docs-local/uploads/two.txt')).toBe(404);
      const three = await fetch(
        `${depot.baseUrl}/artifactory/api/storage/docs-local/uploads/three.txt?properties`,
        { headers: { authorization } },
      );
      expect((await three.json()).properties).toEqual({ team: ['blue'] });
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  });

  it('deploys a zip as a bundle, extracted into the folder', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local'));
    await expectActive('docs-local', 'docs-local');
    await page.getByRole('button', { name: DEPLOY_LABELS.deploy }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(DEPLOY_LABELS.targetFolder).fill('site');
    const bundle = craftZip([
      { name: 'index.html', data: Buffer.from('<h1>hi</h1>') },
      { name: 'css/site.css', data: Buffer.from('h1 {}') },
    ]);
    await dialog
      .getByLabel(DEPLOY_LABELS.files)
      .setInputFiles({ name: 'site.zip', mimeType: 'application/zip', buffer: bundle });
    await dialog.getByLabel(DEPLOY_LABELS.explode).check();
    await dialog.getByRole('button', { name: DEPLOY_LABELS.deploy }).click();
    await expectActive('site', 'docs-local/site');
    expect(await statusOf('/artifactory/docs-local/site/css/site.css')).toBe(200);
    expect(await statusOf('/artifactory/docs-local/site/site.zip')).toBe(404);
  });

  it('resizes the panes by keyboard and by dragging, within 15 to 90 percent, and remembers it', async () => {
    await page.goto(depot.ui('/repos/tree/General/docs-local'));
    await expectActive('docs-local', 'docs-local');
    const splitter = page.getByRole('separator', { name: TREE_LABELS.resizePanes });
    const share = async () => Number(await splitter.getAttribute('aria-valuenow'));
    await expect.poll(share).toBe(30);
    await splitter.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(share).toBeGreaterThan(30);
    // Dragged far to the left, the tree keeps its 15 percent.
    const box = (await splitter.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(5, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(share).toBe(15);
    const treeWidth = (await mainTree().boundingBox())!.width;
    expect(treeWidth).toBeLessThan(1280 * 0.2);
    // The split is saved a moment after the drag ends: wait until the saved layout is it.
    await expect
      .poll(() =>
        page.evaluate(() =>
          Object.entries(localStorage)
            .filter(([key]) => key.includes('depot.tree.panes'))
            .map(([, value]) => value)
            .join(''),
        ),
      )
      .toMatch(/"layout":\[15[,.]/);
    await page.reload();
    await expectActive('docs-local', 'docs-local');
    await expect.poll(share).toBe(15);
    // Back to the default split for the tests after this one.
    await page.evaluate(() => localStorage.clear());
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
