import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAB_LABELS } from '../src/custom/tree-browser/messages.ts';
import { BUILD_LABELS as B, BUILD_TITLES } from '../src/custom/builds/messages.ts';
import { NOT_FOUND_TEXT } from '../src/shell/messages.ts';
import { SEARCH_LABELS } from '../src/custom/search/messages.ts';
import { buildInfo } from '../tests/helpers/build-info.ts';
import buildsScreen from '../schemas/screens/builds.screen.json';
import { chooseOption, launchBrowser, signIn, watchPageErrors } from './browser.ts';
import { startDepot, type E2eDepot } from './server.ts';

/**
 * The tree's Builds tab against a real server (docs/builds.md, "Linking"): a jar deployed
 * over REST, a build that produced it and one that used it uploaded as CI does, and the tab
 * listing both in Chromium. Then the builds pages (spec 02 §2 "Builds"): two builds of a
 * name holding a slash, listed, opened, their tabs, the diff, a promotion and a delete.
 */
const ADMIN_PASSWORD = 'builds-admin-pass-1';
const JAR = 'org/acme/app/1.0/app-1.0.jar';
const T = TAB_LABELS.builds;
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

const authorization = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
async function asScript(method: string, path: string, body?: string | object) {
  const json = typeof body === 'object';
  const response = await fetch(`${depot.baseUrl}${path}`, {
    method,
    headers: { authorization, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(body) : body,
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return response;
}
const PIPELINE = 'acme/pipeline';
const zip = (n: string) => ({ name: `pipeline-${n}.zip`, content: `pipeline zip ${n}` });
const started = (n: number) => new Date(Date.UTC(2026, 2, n, 10));

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD);
  await asScript('PUT', '/artifactory/api/repositories/libs-local', {
    rclass: 'local',
    packageType: 'generic',
  });
  await asScript('PUT', `/artifactory/libs-local/${JAR}`, 'app jar');
  const jar = { name: 'app-1.0.jar', content: 'app jar' };
  await asScript(
    'PUT',
    '/artifactory/api/build',
    buildInfo({
      name: 'acme-app',
      number: '12',
      modules: [{ id: 'org.acme:app:1.0', artifacts: [jar] }],
    }),
  );
  await asScript(
    'PUT',
    '/artifactory/api/build',
    buildInfo({
      name: 'acme-service',
      number: '4',
      modules: [
        {
          id: 'service',
          dependencies: [{ ...jar, name: 'org.acme:app:1.0', scopes: ['compile'] }],
        },
      ],
    }),
  );
  await asScript('PUT', '/artifactory/api/repositories/libs-release', {
    rclass: 'local',
    packageType: 'generic',
  });
  for (const n of ['1', '2']) {
    await asScript('PUT', `/artifactory/libs-local/pipeline/pipeline-${n}.zip`, zip(n).content);
    await asScript(
      'PUT',
      '/artifactory/api/build',
      buildInfo({
        name: PIPELINE,
        number: n,
        started: started(Number(n)),
        properties: { 'buildInfo.env.PIPELINE_STAGE': `stage-${n}` },
        modules: [{ id: 'pipeline', artifacts: [zip(n)] }],
      }),
    );
  }
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(10000);
  pageErrors = watchPageErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

describe("a jar's Builds tab", () => {
  it('lists the build that produced it and the build that used it', async () => {
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/ui\/admin\//);
    await page.goto(depot.ui(`/repos/tree/General/libs-local/${JAR}`));
    await page.getByRole('tab', { name: 'Builds' }).click();
    await page.waitForURL((url) => url.pathname === `/ui/repos/tree/Builds/libs-local/${JAR}`);
    const produced = page.getByRole('table', { name: T.producedBy });
    await expect.poll(() => produced.getByRole('row').count()).toBe(2);
    expect(await produced.getByRole('row').nth(1).textContent()).toContain(
      'acme-app12org.acme:app:1.0',
    );
    const used = page.getByRole('table', { name: T.usedBy });
    await expect.poll(() => used.getByRole('row').count()).toBe(2);
    expect(await used.getByRole('row').nth(1).textContent()).toContain('acme-service4service');
    // The build's number links to its details page.
    await produced.getByRole('link', { name: '12', exact: true }).click();
    await page.waitForURL((url) => /^\/ui\/builds\/acme-app\/12\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Builds Details: acme-app #12' }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});

describe('the builds pages', () => {
  const tab = (name: string) => page.getByRole('tab', { name, exact: true });
  // The list and the versions are the engine's grids (the descriptor's `lists`).
  const grid = (name: string) => page.getByRole('region', { name, exact: true });
  const rows = (name: string) => grid(name).locator('.ag-row');
  const VERSIONS = buildsScreen.lists.versions;
  // The grid loads with its page (AG Grid is a chunk of its own): as long as a locator waits.
  const soon = { timeout: 10_000 };

  it('lists builds, searches by name, and opens a build with a slash in its name', async () => {
    await page.goto(depot.ui('/builds'));
    const list = rows(BUILD_TITLES.list);
    await expect.poll(() => list.count(), soon).toBe(3);
    // Newest first: the pipeline's builds started in March, before the others.
    expect(await grid(BUILD_TITLES.list).locator('.ag-row[row-index="2"]').textContent()).toContain(
      PIPELINE,
    );
    await page.getByLabel(B.search).fill('pipe');
    await page.getByRole('button', { name: B.searchButton, exact: true }).click();
    await expect.poll(() => list.count(), soon).toBe(1);
    await grid(BUILD_TITLES.list).getByRole('link', { name: PIPELINE }).click();
    const versions = grid(BUILD_TITLES.versions);
    await expect.poll(() => versions.locator('.ag-row').count(), soon).toBe(2);
    expect(await versions.locator('.ag-row[row-index="0"]').textContent()).toContain('2');
    await versions.getByRole('link', { name: '2', exact: true }).click();
    await page.waitForURL(
      (url) => url.pathname === `/ui/builds/acme%2Fpipeline/2/${started(2).getTime()}`,
    );
    await expect.poll(() => page.locator('.builds-general').textContent()).toContain(PIPELINE);
  });

  it('shows modules with their artifacts linked to the tree, the environment, the JSON', async () => {
    await tab('Published Modules').click();
    await page.getByRole('button', { name: 'pipeline', exact: true }).click();
    const artifacts = page.getByRole('table', { name: `${B.artifacts} pipeline` });
    await expect
      .poll(() => artifacts.getByRole('link').first().textContent())
      .toBe('libs-local/pipeline/pipeline-2.zip');
    await tab('Environment').click();
    const env = page.getByRole('table', { name: B.envVariables });
    await expect.poll(() => env.textContent()).toContain('PIPELINE_STAGEstage-2');
    await tab('Build Info JSON').click();
    await expect.poll(() => page.locator('.builds-json').textContent()).toContain('"number": "2"');
  });

  it('diffs against the build before: the new artifact, the removed one, the changed property', async () => {
    await tab('Diff').click();
    const artifacts = page.getByRole('table', { name: `${B.artifacts} diff` });
    await expect.poll(() => artifacts.getByRole('row').count()).toBe(3);
    const text = await artifacts.textContent();
    expect(text).toContain(`${B.diffNew}pipeline-2.zip`);
    expect(text).toContain(`${B.diffRemoved}pipeline-1.zip`);
    const properties = page.getByRole('table', { name: `${B.properties} diff` });
    expect(await properties.textContent()).toContain(
      `${B.diffUpdated}buildInfo.env.PIPELINE_STAGE`,
    );
  });

  it('promotes: a dry run changes nothing, then a copy lands with its status in the history', async () => {
    const promoteOnce = async (dryRun: boolean) => {
      await page.getByRole('button', { name: B.promote, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: B.promoteTitle });
      await dialog.getByLabel(B.targetRepo).fill('libs-release');
      await dialog.getByLabel(B.promoteStatus).fill('Released');
      if (dryRun) await dialog.getByLabel(B.dryRun).check();
      await dialog.getByRole('button', { name: B.promote, exact: true }).click();
      await expect
        .poll(() => dialog.getByRole('status').textContent())
        .toContain('libs-local:pipeline/pipeline-2.zip to libs-release:pipeline/pipeline-2.zip');
      await dialog.getByRole('button', { name: B.cancel }).click();
    };
    const released = () =>
      fetch(`${depot.baseUrl}/artifactory/libs-release/pipeline/pipeline-2.zip`, {
        headers: { authorization },
      }).then((r) => r.status);
    await promoteOnce(true);
    expect(await released()).toBe(404);
    await promoteOnce(false);
    expect(await released()).toBe(200);
    await tab('Release History').click();
    const history = page.getByRole('table', { name: 'Release History' });
    await expect.poll(() => history.textContent()).toContain('Releasedlibs-release');
  });

  it('resolves a build number without its start, and deletes one version', async () => {
    await page.goto(depot.ui('/builds/acme%2Fpipeline/1'));
    await page.waitForURL(
      (url) => url.pathname === `/ui/builds/acme%2Fpipeline/1/${started(1).getTime()}`,
    );
    await page.getByRole('link', { name: PIPELINE, exact: true }).click();
    const versions = grid(BUILD_TITLES.versions);
    await expect.poll(() => versions.locator('.ag-row').count(), soon).toBe(2);
    const one = versions.locator('.ag-row', {
      has: page.getByRole('link', { name: '1', exact: true }),
    });
    await one.locator('input[type=checkbox]').first().check();
    await versions.getByRole('button', { name: VERSIONS.deleteLabel }).click();
    const confirm = page.getByRole('alertdialog', { name: VERSIONS.deleteConfirm.title });
    expect(await confirm.textContent()).toContain(
      VERSIONS.deleteConfirm.text.replace('{count}', '1'),
    );
    await confirm.getByRole('button', { name: B.confirmDelete }).click();
    await expect.poll(() => versions.locator('.ag-row').count(), soon).toBe(1);
    const numbers = await asScript('GET', `/artifactory/api/build/${encodeURIComponent(PIPELINE)}`);
    expect((await numbers.json()).buildsNumbers).toEqual([
      { uri: '/2', started: started(2).toISOString().replace('Z', '+0000') },
    ]);
  });

  it("finds builds from the toolbar's Builds scope", async () => {
    await chooseOption(page, SEARCH_LABELS.toolbarScope, SEARCH_LABELS.scopes.builds);
    await page.getByRole('searchbox', { name: SEARCH_LABELS.toolbarSearch }).fill('acme-s');
    await page.getByRole('searchbox', { name: SEARCH_LABELS.toolbarSearch }).press('Enter');
    await page.waitForURL((url) => url.pathname === '/ui/builds' && url.search === '?name=acme-s');
    const list = rows(BUILD_TITLES.list);
    // The page before's rows can still be there for a moment: wait for the list's own row.
    await expect.poll(() => list.first().textContent(), soon).toContain('acme-service');
    expect(await list.count()).toBe(1);
  });

  it('sends a build the caller cannot fetch to the 404 page', async () => {
    await page.goto(depot.ui('/builds/no-such-build'));
    await page.getByText(NOT_FOUND_TEXT).waitFor();
    expect(await page.getByText(NOT_FOUND_TEXT).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
