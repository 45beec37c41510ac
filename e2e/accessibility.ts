import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * An axe-core audit of the console pages e2e tests visit: at the end of each test, every
 * open page of the browser is audited where it stands, each distinct path once per test
 * file. Serious and critical violations fail that test (`e2e/setup.ts`); minor and moderate
 * ones are left to review. Audits run between tests, never during one: axe holds the page's
 * main thread for seconds on a loaded machine, which made a test's own polls time out.
 */
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const SETTLE_DEADLINE_MS = 5000;

interface Finding {
  path: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

const auditedPaths = new Set<string>();
const watchedPages = new Set<Page>();
const findings: Finding[] = [];

/** Makes every page the browser opens, in any context, audited as it navigates. */
export function auditEveryPage(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => watchContext(await newContext(options));
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => watchPage(await newPage(options));
  return browser;
}

/** Audits every open page where it stands, then fails with each serious or critical finding. */
export async function assertNoSeriousViolations(): Promise<void> {
  for (const page of [...watchedPages]) {
    if (page.isClosed()) {
      watchedPages.delete(page);
      continue;
    }
    const path = consolePath(page.url());
    if (path && !auditedPaths.has(path)) await auditPage(page, path);
  }
  const found = findings.splice(0);
  if (found.length === 0) return;
  const lines = found.map(
    (f) => `${f.path}: ${f.impact} ${f.rule} (${f.help}) at ${f.targets.join(' | ')}`,
  );
  throw new Error(`Accessibility violations (axe-core):\n${lines.join('\n')}`);
}

function watchContext(context: BrowserContext): BrowserContext {
  context.on('page', watchPage);
  context.pages().forEach(watchPage);
  return context;
}

function watchPage(page: Page): Page {
  watchedPages.add(page);
  return page;
}

/** The console page a URL shows, or null for downloads, API answers and raw files. */
function consolePath(url: string): string | null {
  if (!url.startsWith('http')) return null;
  const { pathname } = new URL(url);
  if (!pathname.startsWith('/ui/') || pathname.startsWith('/ui/api/')) return null;
  return pathname;
}

async function auditPage(page: Page, path: string): Promise<void> {
  try {
    await settle(page);
    if (consolePath(page.url()) !== path) return; // moved on before it settled
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
    const found = await page.evaluate(runAxe, WCAG_TAGS);
    auditedPaths.add(path);
    findings.push(...found.map((f) => ({ ...f, path })));
  } catch (error) {
    // a page closed or navigated away mid-audit is audited at its next visit
    if (!isGoneError(error)) throw error;
  }
}

/** Until the page has loaded and nothing on it says it is busy, within a deadline. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  const deadline = Date.now() + SETTLE_DEADLINE_MS;
  while (Date.now() < deadline) {
    const busy = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() =>
              resolve(document.querySelector('[aria-busy="true"]') !== null),
            ),
          ),
        ),
    );
    if (!busy) return;
  }
}

async function runAxe(tags: string[]) {
  const axe = (window as unknown as { axe: AxeRunner }).axe;
  const result = await axe.run(document, {
    runOnly: { type: 'tag', values: tags },
    resultTypes: ['violations'],
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      // where, and the element as written (cut short), to find it without a browser
      targets: v.nodes
        .slice(0, 5)
        .map((node) => `${node.target.join(' ')} ${node.html.slice(0, 300)}`),
    }));
}

interface AxeRunner {
  run: (
    context: Document,
    options: object,
  ) => Promise<{
    violations: {
      id: string;
      impact?: string | null;
      help: string;
      nodes: { target: string[]; html: string }[];
    }[];
  }>;
}

function isGoneError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Target (page, context or browser )?(has been )?closed|Execution context was destroyed|navigat/i.test(
    message,
  );
}
