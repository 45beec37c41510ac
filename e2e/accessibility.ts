import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';

/**
 * An axe-core audit of every console page an e2e test visits: each distinct path once per
 * test file, when the page has settled. Serious and critical violations fail the test that
 * was running (`e2e/setup.ts`); minor and moderate ones are left to review.
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
const watchedPages = new WeakSet<Page>();
const pendingAudits = new Set<Promise<void>>();
const findings: Finding[] = [];

/** Makes every page the browser opens, in any context, audited as it navigates. */
export function auditEveryPage(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => watchContext(await newContext(options));
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => watchPage(await newPage(options));
  return browser;
}

/** Waits for the audits under way, then fails with every serious or critical finding. */
export async function assertNoSeriousViolations(): Promise<void> {
  while (pendingAudits.size > 0) await Promise.all([...pendingAudits]);
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
  if (watchedPages.has(page)) return page;
  watchedPages.add(page);
  let queue = Promise.resolve();
  page.on('framenavigated', (frame: Frame) => {
    if (frame !== page.mainFrame()) return;
    const path = consolePath(frame.url());
    if (!path || auditedPaths.has(path)) return;
    // one audit at a time per page: axe refuses to run twice at once
    const audit = (queue = queue.then(() => auditPage(page, path)));
    pendingAudits.add(audit);
    void audit.finally(() => pendingAudits.delete(audit));
  });
  return page;
}

/** The console page a URL shows, or null for downloads, API answers and raw files. */
function consolePath(url: string): string | null {
  const { pathname } = new URL(url);
  if (!pathname.startsWith('/ui/') || pathname.startsWith('/ui/api/')) return null;
  return pathname;
}

async function auditPage(page: Page, path: string): Promise<void> {
  if (auditedPaths.has(path) || page.isClosed()) return;
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
      targets: v.nodes.slice(0, 5).map((node) => node.target.join(' ')),
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
      nodes: { target: string[] }[];
    }[];
  }>;
}

function isGoneError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Target (page, context or browser )?(has been )?closed|Execution context was destroyed|navigat/i.test(
    message,
  );
}
