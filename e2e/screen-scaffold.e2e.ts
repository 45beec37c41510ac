import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../server/paths.ts';
import { copySchemas } from '../tests/helpers/schemas-copy.ts';
import { launchBrowser, signIn, watchPageErrors } from './browser.ts';
import { basicAuth, startDepot, type E2eDepot } from './server.ts';

/**
 * A product owner's path in a real browser: `npm run screen:new` into a copy of schemas/
 * (DEPOT_SCHEMAS_DIR), a field added to the two JSON files, one server start, then list,
 * create, validate, edit and delete through the console, with no file touched outside that
 * copy. The API side of the same path is tests/screen-scaffold.test.ts.
 */
const ADMIN_PASSWORD = 'scaffold-admin-1';
const ROUTE = '/admin/configuration/release-notes';
const RAW_VALIDATOR_TEXT =
  /\bmust (match|have|be|NOT)\b|\bInstance (type|does|has)\b|does not match/;
const schemas = copySchemas();

/**
 * The project's files as git sees them, ignored ones included (dist/, data folders), but
 * node_modules/, where the test runner keeps its own caches while it runs.
 */
const projectFiles = () =>
  spawnSync(
    'git',
    ['status', '--porcelain', '--untracked-files=all', '--ignored', '--', '.', ':!node_modules'],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    },
  ).stdout;
const schemaFiles = () =>
  ['entities', 'screens'].flatMap((folder) =>
    readdirSync(join(schemas.dir, folder)).map((name) => `${folder}/${name}`),
  );
/** The two files as a product owner edits them: by hand, as JSON. */
type Editable = {
  properties: Record<string, object>;
  form: { fields: string[] };
  list: { columns: object[] };
};
const editJson = (path: string, change: (value: Editable) => void) => {
  const file = join(schemas.dir, path);
  const value = JSON.parse(readFileSync(file, 'utf8'));
  change(value);
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
};

const projectBefore = projectFiles();
const schemasBefore = schemaFiles();
let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[];

beforeAll(async () => {
  const made = spawnSync(
    'npm',
    ['run', '--silent', 'screen:new', '--', 'release-notes', '--entity', 'release-note'],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, DEPOT_SCHEMAS_DIR: schemas.dir },
      timeout: 120_000,
    },
  );
  expect(made.status, made.stderr).toBe(0);
  editJson('entities/release-note.schema.json', (entity) => {
    entity.properties.summary = {
      type: 'string',
      title: 'Summary',
      maxLength: 200,
      errorMessage: { maxLength: 'Value may not exceed 200 symbols' },
    };
  });
  editJson('screens/release-notes.screen.json', (screen) => {
    screen.form.fields.push('summary');
    screen.list.columns.push({ field: 'summary', header: 'Summary' });
  });
  depot = await startDepot(ADMIN_PASSWORD, { DEPOT_SCHEMAS_DIR: schemas.dir });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(15000);
  pageErrors = watchPageErrors(page);
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
  schemas.remove();
});

const row = (text: string) => page.locator('.ag-row', { hasText: text });
const form = () => page.locator('form');

describe('a screen from screen:new, in the browser', () => {
  it('lists, refuses a bad name in plain words, creates, edits and deletes', async () => {
    await page.goto(depot.ui('/login'));
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((url) => !url.pathname.startsWith('/ui/login'));
    await page.goto(depot.ui(ROUTE));
    await page.getByRole('heading', { level: 1, name: 'Release Notes' }).waitFor();
    // Nothing yet: the list's empty state, not an empty grid.
    await page.getByRole('heading', { level: 2, name: 'No Release Notes Yet' }).waitFor();

    await page.getByRole('link', { name: 'New Release Note' }).click();
    await page.getByRole('heading', { level: 1, name: 'New Release Note' }).waitFor();
    await form().getByLabel(/^Name/).fill('v 2');
    await page.getByRole('button', { name: 'Save' }).click();
    await form().getByText('Name contains illegal characters').waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(RAW_VALIDATOR_TEXT);
    expect(new URL(page.url()).pathname).toBe(`/ui${ROUTE}/new`);

    await form().getByLabel(/^Name/).fill('v1.0');
    await form()
      .getByLabel(/^Summary/)
      .fill('First');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.pathname === `/ui${ROUTE}`);
    await page.getByRole('columnheader', { name: 'Summary' }).waitFor();
    await expect.poll(() => row('v1.0').textContent()).toContain('First');

    await page.getByRole('link', { name: 'v1.0', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Release Note v1.0' }).waitFor();
    await form()
      .getByLabel(/^Summary/)
      .fill('First release');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.pathname === `/ui${ROUTE}`);
    await expect.poll(() => row('v1.0').textContent()).toContain('First release');

    await row('v1.0').locator('input[type=checkbox]').first().check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Are you sure you want to delete 1 item(s)?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await row('v1.0').waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 2, name: 'No Release Notes Yet' }).waitFor();
    expect(pageErrors.map(String)).toEqual([]);
  });

  it('kept what the browser did on the server, and touched no file outside its schemas copy', async () => {
    const listed = await fetch(`${depot.baseUrl}/ui/api/v1/ui/entities/release-notes`, {
      headers: { authorization: basicAuth('admin', ADMIN_PASSWORD) },
    });
    expect(await listed.json()).toEqual([]);
    expect(projectFiles()).toBe(projectBefore);
    expect(readdirSync(dirname(schemas.dir))).toEqual(['schemas']);
    expect(
      schemaFiles()
        .filter((file) => !schemasBefore.includes(file))
        .sort(),
    ).toEqual(['entities/release-note.schema.json', 'screens/release-notes.screen.json']);
  });
});
