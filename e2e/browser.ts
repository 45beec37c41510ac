import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { LABELS } from '../src/shell/messages.ts';
import { auditEveryPage } from './accessibility.ts';

/**
 * Debian's chromium, never a downloaded browser. The flags keep it from reaching out to the
 * network (this machine has none) and let it run as root in CI; each launch gets a fresh
 * profile, removed when the browser closes.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return auditEveryPage(browser);
}

/** Fails a test on any uncaught page error, so a broken screen cannot pass quietly. */
export function watchPageErrors(page: Page): Error[] {
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  return errors;
}

/** Fills in the sign-in form the page shows and submits it. */
export async function signIn(page: Page, user: string, password: string): Promise<void> {
  await page.getByLabel(LABELS.username).fill(user);
  await page.getByLabel(LABELS.password).fill(password);
  await page.getByRole('button', { name: LABELS.logIn }).click();
}

/**
 * A new page in a fresh context (no cookies, no storage), closing the previous page's
 * context; the page's uncaught errors are collected in `pageErrors`.
 */
export async function openFreshPage(
  browser: Browser,
  previous?: Page,
): Promise<{ page: Page; pageErrors: Error[] }> {
  await previous?.context().close();
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  return { page, pageErrors: watchPageErrors(page) };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The trigger of the component library's Select labelled `label`: a button whose name is
 * the chosen value followed by the label.
 */
export function selectTrigger(scope: Page | Locator, label: string): Locator {
  const name = new RegExp(`(^|\\s)${escapeRegExp(label)}$`);
  return scope.getByRole('button', { name }).and(scope.locator('[aria-haspopup="listbox"]'));
}

/** Opens the Select labelled `label` and picks the option named `option`, as a person does. */
export async function chooseOption(
  scope: Page | Locator,
  label: string,
  option: string,
): Promise<void> {
  const page = 'page' in scope ? scope.page() : scope;
  await selectTrigger(scope, label).click();
  await openListbox(page).getByRole('option', { name: option, exact: true }).click();
}

/** The value the Select labelled `label` shows. */
export async function chosenOption(scope: Page | Locator, label: string): Promise<string> {
  return (await selectTrigger(scope, label).locator('.select-value').textContent()) ?? '';
}

/** The listbox an open Select or combobox of the component library shows. */
export function openListbox(page: Page): Locator {
  return page.locator('.select-popover').getByRole('listbox');
}
