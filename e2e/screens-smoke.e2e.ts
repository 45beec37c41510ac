import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  isSingleDocument,
  loadSchemaRegistry,
  type CollectionDescriptor,
  type ScreenDescriptor,
  type SingleDocumentDescriptor,
} from '../server/schemas/registry.ts';
import { NOT_FOUND_TEXT } from '../src/shell/messages.ts';
import { fillTemplate } from '../src/engine/template.ts';
import { editPath } from '../src/engine/screenPaths.ts';
import { emptyStateDefault, NEW_LABEL_DEFAULT } from '../src/engine/messages.ts';
import { depotGridLocaleText } from '../src/design/agGridTheme.ts';
import { badValuePasses, fieldMessagesFor, knownFieldMessages } from './bad-values.ts';
import { consoleCatalogue } from './console-words.ts';
import { launchBrowser, openFreshPage, signIn } from './browser.ts';
import { basicAuth, startDepot, type E2eDepot } from './server.ts';

/**
 * Every screen descriptor in schemas/screens, in a real browser against a real server,
 * generated from the files: a new descriptor is covered with no test written for it. One
 * browser, one server, one sign-in; each page is loaded once (an engine list's list, new and
 * edit pages; a settings document's form; a bespoke screen's route and its pages without a
 * parameter) and must render with no page error and no validator's own wording where the
 * spec's messages belong. On the new form, Save with nothing filled in shows the required
 * messages, which must be the spec's too; on every engine form, bad values (too long, of the
 * wrong type, against the pattern) show only words of a known list (e2e/bad-values.ts).
 */
const ADMIN_PASSWORD = 'smoke-admin-pass-1';
const auth = { authorization: basicAuth('admin', ADMIN_PASSWORD) };

/** What Ajv, @cfworker/json-schema and rjsf say when no schema words a message. */
const RAW_VALIDATOR_TEXT = [
  /\bmust (match|have|be|NOT)\b/,
  /\bInstance (type|does|has)\b/,
  /\bdoes not match\b/,
  /\bString is (too|shorter|longer)\b/,
  /\bshould (match|have|be)\b/,
  /\bis a required property\b/,
];

const registry = loadSchemaRegistry();
const screens = [...registry.screens.values()].sort((a, b) => a.id.localeCompare(b.id));
const isKnownFieldMessage = knownFieldMessages(registry);
const isCatalogueWord = consoleCatalogue();

let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[] = [];

beforeAll(async () => {
  depot = await startDepot(ADMIN_PASSWORD);
  browser = await launchBrowser();
  ({ page, pageErrors } = await openFreshPage(browser));
  await page.goto(depot.ui('/login'));
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.waitForURL((url) => !url.pathname.startsWith('/ui/login'));
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});
// Each screen answers for its own page errors only.
beforeEach(() => {
  pageErrors.length = 0;
});

/** A call to the console's API as a script makes it, as admin. */
async function consoleCall(method: string, path: string, body?: unknown) {
  const response = await fetch(`${depot.baseUrl}/ui/api/v1${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

/**
 * The key of an entity to open the edit page on: the list's first row, or one created from
 * the entity schema's first example when the list is empty.
 */
async function someKey(screen: CollectionDescriptor): Promise<string> {
  const rows = ((await consoleCall('GET', screen.api.list.path)) ?? []) as Record<
    string,
    unknown
  >[];
  if (rows.length > 0) return String(rows[0][screen.key]);
  const example = (registry.entities.get(screen.entity)?.examples as unknown[] | undefined)?.[0];
  expect(
    example,
    `${screen.id}: no row to edit, and entity '${screen.entity}' has no examples`,
  ).toBeDefined();
  await consoleCall(screen.api.create.method, screen.api.create.path, example);
  return String((example as Record<string, unknown>)[screen.key]);
}

/** The page shows what it should: not the 404 page, no page error, no raw validator text. */
async function expectRendered(current: Page, what: string) {
  await current.waitForLoadState('networkidle');
  expect(new URL(current.url()).pathname, what).not.toBe('/ui/404');
  const text = await current.locator('body').innerText();
  expect(text, what).not.toContain(NOT_FOUND_TEXT);
  for (const raw of RAW_VALIDATOR_TEXT) expect(text, `${what}: ${raw}`).not.toMatch(raw);
  expect(pageErrors.map(String), what).toEqual([]);
}

/**
 * A list with no rows shows its empty state, never the grid's "No Rows To Show"; one with rows
 * that a search empties says the spec's empty-search words, with no "Page 0 of 0".
 */
async function expectDesignedEmptiness(current: Page, screen: CollectionDescriptor) {
  const rows = ((await consoleCall('GET', screen.api.list.path)) ?? []) as unknown[];
  const what = `${screen.id} list`;
  if (rows.length === 0) {
    const newLabel = screen.list.newLabel ?? NEW_LABEL_DEFAULT;
    const empty = screen.list.emptyState ?? emptyStateDefault(screen.title, newLabel);
    await current.getByRole('heading', { level: 2, name: empty.title }).waitFor();
    await current.getByText(empty.text).waitFor();
  } else if (screen.list.quickSearch !== false) {
    const search = current.locator('.schema-table').getByRole('searchbox', { name: 'Search' });
    await search.fill('no-such-row-anywhere-zz');
    await current.locator('.ag-overlay').getByText(depotGridLocaleText.noMatchingRows).waitFor();
    await current.locator('.ag-paging-panel').waitFor({ state: 'hidden' });
    await search.fill('');
    await current.locator('.ag-paging-panel').waitFor();
  }
  const text = await current.locator('body').innerText();
  expect(text, what).not.toContain('No Rows To Show');
  expect(text, what).not.toContain('No Matching Rows');
  // The paging panel shown, not AG Grid's screen-reader announcements of its last state.
  for (const panel of await current.locator('.ag-paging-panel:visible').allInnerTexts())
    expect(panel, what).not.toMatch(/Page\s+0\s+of\s+0/);
}

async function listScreen(current: Page, screen: CollectionDescriptor) {
  await current.goto(depot.ui(screen.route));
  await current.getByRole('heading', { level: 1, name: screen.title }).waitFor();
  await expectRendered(current, `${screen.id} list`);
  await expectDesignedEmptiness(current, screen);

  await current.goto(depot.ui(`${screen.route}/new`));
  const newTitle = screen.form.newTitle ?? screen.title;
  await current.getByRole('heading', { level: 1, name: newTitle }).waitFor();
  const entity = registry.entities.get(screen.entity);
  const required = [...(entity?.required ?? []), ...(screen.form.requiredOnCreate ?? [])];
  if (required.some((field) => screen.form.fields.includes(field))) {
    // Nothing filled in: the form refuses to save and says why, in the spec's words.
    await current.getByRole('button', { name: 'Save' }).click();
    await current.locator('.field-error').first().waitFor();
    expect(new URL(current.url()).pathname).toBe(`/ui${screen.route}/new`);
  }
  await expectRendered(current, `${screen.id} new`);
  await expectOnlyKnownWords(current, screen.entity, screen.form.fields, `${screen.id} new`);

  const key = await someKey(screen);
  // The descriptor's edit route (webhooks: the spec's `edit/{webhookName}`), else `{key}/edit`.
  await current.goto(depot.ui(editPath(screen, key)));
  const editTitle = fillTemplate(screen.form.editTitle ?? screen.title, { [screen.key]: key });
  await current.getByRole('heading', { level: 1, name: editTitle }).waitFor();
  await current.getByRole('button', { name: 'Save' }).waitFor();
  await expectRendered(current, `${screen.id} edit ${key}`);
}

/**
 * Each pass of bad values (too long or of the wrong type; against the pattern or format),
 * saved on a freshly loaded form: every message under a field is one of the known words.
 * The form refuses them itself, so nothing reaches the server.
 */
async function expectOnlyKnownWords(current: Page, entity: string, fields: string[], what: string) {
  const url = current.url();
  for (const values of badValuePasses(registry.entities.get(entity), fields)) {
    await current.goto(url);
    await current.getByRole('button', { name: 'Save' }).waitFor();
    const messages = await fieldMessagesFor(current, values);
    const unknown = messages.filter((text) => !isKnownFieldMessage(text));
    expect(unknown, `${what} with ${JSON.stringify([...values])}`).toEqual([]);
    expect(current.url(), `${what}: the bad values were not saved`).toBe(url);
    await expectRendered(current, `${what} with bad values`);
  }
}

/** A settings document's one page: its form, with Save. */
async function settingsScreen(current: Page, screen: SingleDocumentDescriptor) {
  await current.goto(depot.ui(screen.route));
  await current.getByRole('heading', { level: 1 }).first().waitFor();
  await current.getByRole('button', { name: 'Save' }).waitFor();
  await expectRendered(current, `${screen.id} form`);
  await expectOnlyKnownWords(current, screen.entity, screen.form.fields, `${screen.id} form`);
}

/**
 * A bespoke screen's route and its pages whose path has no parameter; a parameter in the
 * route itself (npm-login's login id) gets a made-up value.
 */
async function bespokeScreen(current: Page, screen: ScreenDescriptor) {
  const pages = (screen.pages ?? []).map((p) => p.path).filter((path) => !path.includes(':'));
  for (const path of [screen.route.replace(/:[^/]+/g, 'smoke-test'), ...pages]) {
    await current.goto(depot.ui(path));
    // A bespoke page over a settings document (mail) shows the document's form.
    if (path === screen.route && isSingleDocument(screen))
      await current.getByRole('button', { name: 'Save' }).waitFor();
    await expectRendered(current, `${screen.id} at ${path}`);
    await expectBespokeFormsWorded(current, `${screen.id} at ${path}`);
  }
}

/**
 * Bad values for a bespoke form's text boxes, by the kind of box: far too long, then
 * against any name pattern, address or number rule. What a person may break them with.
 */
const BESPOKE_PASSES: Record<string, string>[] = [
  { text: 'x'.repeat(3000), email: 'x'.repeat(3000), url: 'x'.repeat(3000), number: '1.5' },
  { text: 'Bad value /*?<>|', email: 'not-an-email', url: 'not a url', number: '-1' },
];
/** What a bespoke form says about values: under a field, in an alert, in a toast (its text, not its × button: the toast's text is its own alert or status). */
const SAID = '.field-error, [role=alert], .error-text, .notification p';

/** Forms that are not about a value to save: the toolbar's search, a page's filter. */
const NOT_A_VALUE_FORM = ':not([role=search])';

/**
 * Each form a bespoke page shows (text boxes and a submit button), walked with each pass of
 * bad values on a freshly loaded page: every text it then shows about them is one of the known
 * validation words or the console's and server's own catalogue (e2e/console-words.ts), never a
 * validator's or a parser's text.
 */
async function expectBespokeFormsWorded(current: Page, what: string) {
  const url = current.url();
  const forms = await current.locator(`main form${NOT_A_VALUE_FORM}`).count();
  for (let index = 0; index < forms; index += 1) {
    for (const values of BESPOKE_PASSES) {
      await current.goto(url);
      await current.waitForLoadState('networkidle');
      const form = current.locator(`main form${NOT_A_VALUE_FORM}`).nth(index);
      if (!(await form.isVisible())) continue;
      const submit = form.locator('button[type=submit]:visible:enabled').first();
      if ((await submit.count()) === 0) continue;
      if ((await fillBadValues(form, values)) === 0) continue;
      // a submit that is refused on the spot or by the server; it may also open a confirmation
      if (!(await submit.isEnabled())) continue;
      await submit.click();
      await current.waitForLoadState('networkidle');
      await current.waitForTimeout(300);
      const said = (await current.locator(SAID).allInnerTexts())
        .flatMap((text) => text.split('\n'))
        .map((text) => text.trim())
        .filter(Boolean);
      const unknown = said.filter((text) => !isKnownFieldMessage(text) && !isCatalogueWord(text));
      expect(unknown, `${what}, form ${index + 1} with ${JSON.stringify(values)}`).toEqual([]);
      await expectRendered(current, `${what}, form ${index + 1} with bad values`);
    }
  }
  if (forms > 0) await current.goto(url);
}

/** Fills each visible, editable text box of the form with its kind's bad value. */
async function fillBadValues(form: Locator, values: Record<string, string>): Promise<number> {
  const boxes = form.locator(
    'input:is([type=text], [type=email], [type=url], [type=number], :not([type])):visible, textarea:visible',
  );
  let filled = 0;
  for (const box of await boxes.all()) {
    if (!(await box.isEditable())) continue;
    if ((await box.getAttribute('role')) === 'combobox') continue; // a picker, not a value
    const type = (await box.getAttribute('type')) ?? 'text';
    await box.fill(values[type] ?? values.text);
    filled += 1;
  }
  return filled;
}

const kindOf = (screen: ScreenDescriptor) => {
  if (screen.component !== undefined) return 'bespoke';
  return isSingleDocument(screen) ? 'settings' : 'list';
};
const WHAT = {
  bespoke: 'its route and pages',
  settings: 'its form',
  list: 'list, new and edit',
};

describe('every screen descriptor renders in Chromium', () => {
  it('has descriptors of every kind to cover', () => {
    const kinds = new Set(screens.map(kindOf));
    expect([...kinds].sort()).toEqual(['bespoke', 'list', 'settings']);
  });

  for (const screen of screens) {
    const kind = kindOf(screen);
    it(`${screen.id}: ${WHAT[kind]} without a page error or raw validator text`, async () => {
      if (kind === 'bespoke') await bespokeScreen(page, screen);
      else if (isSingleDocument(screen)) await settingsScreen(page, screen);
      else await listScreen(page, screen as CollectionDescriptor);
    });
  }
});
