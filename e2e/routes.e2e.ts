import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentUser } from '../src/api/auth.ts';
import type { ScreenSummary } from '../src/api/descriptor.ts';
import { buildMenu, buildProjectMenu, buildUserMenuLinks } from '../src/shell/layout/menu.ts';
import { buildQuickActions } from '../src/shell/layout/quickActions.ts';
import {
  ADMIN_MENU_PATH,
  HOME_PAGE_PATH,
  LABELS,
  LOGIN_PATH,
  LOGOUT_PATH,
  NOT_FOUND_TEXT,
  SERVICE_UNAVAILABLE_TEXTS,
} from '../src/shell/messages.ts';
import { availableScopes, DEPOT_SCOPE_CONDITIONS } from '../src/custom/search/scopes.ts';
import { toolbarSearchTarget } from '../src/custom/search/toolbarTargets.ts';
import { buildInfo } from '../tests/helpers/build-info.ts';
import { loadSchemaRegistry, type CollectionDescriptor } from '../server/schemas/registry.ts';
import { buildWheel } from '../tests/helpers/python-dists.ts';
import { launchBrowser, openFreshPage, signIn } from './browser.ts';
import { scriptedCall, startDepot, type E2eDepot } from './server.ts';
import { specRoutes, type RouteOutcome, type SeededKeys } from './spec-routes.ts';

/**
 * A browser pass over the spec's route table (./spec-routes.ts) and over every route the
 * console's own menus lead to (sidebar, admin menu page, Project Settings, quick actions,
 * user menu, toolbar search scopes), as an admin in Chromium: one browser, one sign-in.
 * Each path is classified where it ends: a real page, the deliberate page naming a service
 * Depot does not run, or the 404 page. The spec's routes must answer as the table says;
 * no menu route may end on a 404 (or on a missing service: a menu offers only what exists).
 */
const ADMIN = { user: 'admin', password: 'routes-admin-pass-1' };
const PROJECT_KEY = 'routes';
/** Where the toolbar's project selector keeps its choice (src/shell/project/model.ts). */
const PROJECT_KEY_STORAGE = 'depot.projectKey';

let depot: E2eDepot;
let browser: Browser;
let page: Page;
let pageErrors: Error[] = [];
let keys: SeededKeys;

async function asAdmin(method: string, path: string, body?: unknown) {
  const response = await scriptedCall(depot, ADMIN, method, path, body);
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return response.headers.get('content-type')?.includes('json')
    ? (JSON.parse(text) as unknown)
    : text;
}

const registry = loadSchemaRegistry();

/**
 * The key of an engine screen's first row, or of one made from its entity's first example
 * when the list is empty (as screens-smoke.e2e.ts does).
 */
async function someKey(screenId: string): Promise<string> {
  const screen = registry.screens.get(screenId) as CollectionDescriptor | undefined;
  expect(screen, screenId).toBeDefined();
  const { api, key, entity } = screen as CollectionDescriptor;
  const rows = ((await asAdmin('GET', `/ui/api/v1${api.list.path}`)) ?? []) as Record<
    string,
    unknown
  >[];
  if (rows.length > 0) return String(rows[0][key]);
  const example = (registry.entities.get(entity)?.examples as Record<string, unknown>[])[0];
  await asAdmin(api.create.method, `/ui/api/v1${api.create.path}`, example);
  return String(example[key]);
}

/** One of each entity the routes' parameters name, made as a script would. */
async function seed(): Promise<SeededKeys> {
  const repo = 'routes-local';
  const file = 'docs/hello.txt';
  await asAdmin('PUT', `/artifactory/api/repositories/${repo}`, {
    rclass: 'local',
    packageType: 'generic',
  });
  await asAdmin('PUT', `/artifactory/${repo}/${file}`, 'hello from the route pass');
  await asAdmin('PUT', '/artifactory/api/repositories/routes-pypi', {
    rclass: 'local',
    packageType: 'pypi',
  });
  const wheel = await buildWheel({ name: 'routes-py', version: '1.0.0' });
  const form = new FormData();
  form.set(':action', 'file_upload');
  form.set('name', 'routes-py');
  form.set('version', '1.0.0');
  form.set('content', new Blob([new Uint8Array(wheel.content)]), wheel.filename);
  await asAdmin('POST', '/artifactory/api/pypi/routes-pypi', form);
  const started = new Date(Date.UTC(2026, 2, 3, 10));
  await asAdmin(
    'PUT',
    '/artifactory/api/build',
    buildInfo({ name: 'routes-app', number: '7', started, modules: [{ id: 'app' }] }),
  );
  const group = await someKey('groups');
  await asAdmin('POST', '/artifactory/api/v2/security/permissions/routes-perm', {
    name: 'routes-perm',
    repo: {
      'include-patterns': ['**'],
      repositories: [repo],
      actions: { groups: { [group]: ['read'] } },
    },
  });
  await asAdmin('POST', '/access/api/v1/projects', {
    project_key: PROJECT_KEY,
    display_name: 'Routes',
  });
  return {
    repo,
    file,
    packageId: 'pypi://routes-py',
    packageVersion: '1.0.0',
    buildName: 'routes-app',
    buildNumber: '7',
    buildStarted: String(started.getTime()),
    user: 'admin',
    group,
    permission: 'routes-perm',
    propertySet: await someKey('property-sets'),
    backup: await someKey('backups'),
    webhook: await someKey('webhooks'),
    proxy: await someKey('proxies'),
    layout: await someKey('repo-layouts'),
    retentionPolicy: await someKey('retention-policies'),
  };
}

/**
 * Opens `path` as a link inside the console does (the router follows the history), so the
 * pass costs no reload per route; the router sees it as entered directly, as a typed URL.
 */
async function openInConsole(path: string) {
  await page.evaluate((url) => {
    window.history.pushState(null, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/ui${path}`);
}

/**
 * Until the page has settled: a first-level heading shows, nothing says it is loading, and
 * the path and heading stayed the same for a moment (redirects are done).
 */
async function settle() {
  let last = '';
  for (let stable = 0; stable < 3;) {
    await page.waitForTimeout(120);
    const now = await page.evaluate(() => {
      const heading = document.querySelector('h1');
      const busy =
        document.querySelector('[aria-busy="true"]') !== null ||
        /Loading…/.test(document.body.innerText);
      return heading && !busy ? `${location.pathname}|${heading.textContent}` : '';
    });
    stable = now !== '' && now === last ? stable + 1 : 0;
    last = now;
  }
}

/** Where a path ends and what it shows there. */
async function classify(path: string): Promise<{ outcome: RouteOutcome; landed: string }> {
  await openInConsole(path);
  await settle();
  const landed = new URL(page.url()).pathname.replace(/^\/ui/, '');
  const text = await page.locator('body').innerText();
  if (landed === '/404' || text.includes(NOT_FOUND_TEXT)) return { outcome: '404', landed };
  const title = (await page.locator('h1').first().innerText()).trim();
  const unavailable =
    title.endsWith(SERVICE_UNAVAILABLE_TEXTS.title('')) && /service, which this Depot/.test(text);
  return { outcome: unavailable ? 'unavailable' : 'page', landed };
}

/**
 * Every route the console's menus offer this admin, as the menus build them: the sidebar
 * (with its fixed Home and Administration links), the admin menu page (the sidebar's
 * Administration section), the user menu, the quick actions and the toolbar's search
 * scopes; Project Settings apart, as it shows only while a project is selected.
 */
function menuRoutes(screens: ScreenSummary[], user: CurrentUser) {
  const sidebar = buildMenu(screens, user, false).flatMap((section) =>
    section.groups.flatMap((group) => group.items.map((item) => item.route)),
  );
  const userMenu = buildUserMenuLinks(screens, user, false).map((link) => link.route);
  const quickActions = buildQuickActions(screens, user, false).flatMap((a) =>
    a.route && a.route !== LOGOUT_PATH ? [a.route] : [],
  );
  const scopes = availableScopes({ ...DEPOT_SCOPE_CONDITIONS, admin: true }).flatMap((scope) => {
    const target = toolbarSearchTarget(scope, 'routes', true);
    return target ? [target.to] : [];
  });
  const all = [
    HOME_PAGE_PATH,
    ADMIN_MENU_PATH,
    ...sidebar,
    ...userMenu,
    ...quickActions,
    ...scopes,
  ];
  const projectSettings = buildProjectMenu(screens).flatMap((g) => g.items.map((i) => i.route));
  return { all: [...new Set(all)], projectSettings };
}

/** The routes of `paths` that end elsewhere than on a real page. */
async function notRealPages(paths: string[]) {
  const failing: { path: string; outcome: RouteOutcome; landed: string }[] = [];
  for (const path of paths) {
    const result = await classify(path);
    if (result.outcome !== 'page') failing.push({ path, ...result });
  }
  return failing;
}

beforeAll(async () => {
  depot = await startDepot(ADMIN.password);
  keys = await seed();
  browser = await launchBrowser();
  ({ page, pageErrors } = await openFreshPage(browser));
  await page.goto(depot.ui(LOGIN_PATH));
  await signIn(page, ADMIN.user, ADMIN.password);
  await page.waitForURL((url) => !url.pathname.startsWith('/ui/login'));
});
afterAll(async () => {
  await browser?.close();
  await depot?.stop();
});

describe('the route pass in Chromium, as an admin', () => {
  it("answers every route of the spec's route table as the table says", async () => {
    const routes = specRoutes(keys);
    const found: { path: string; outcome: RouteOutcome; landed: string }[] = [];
    for (const route of routes) {
      const result = await classify(route.path);
      found.push({ path: route.path, ...result });
    }
    const count = (outcome: RouteOutcome) => found.filter((f) => f.outcome === outcome).length;
    console.info(
      `spec routes: ${routes.length}; real page ${count('page')}, ` +
        `not available ${count('unavailable')}, 404 ${count('404')}\n` +
        found.map((f) => `${f.outcome.padEnd(11)} ${f.path} -> ${f.landed}`).join('\n'),
    );
    const differing = found.filter((f, i) => f.outcome !== routes[i].expected);
    expect(differing, 'routes answering otherwise than ./spec-routes.ts says').toEqual([]);
    expect(pageErrors.map(String)).toEqual([]);
  }, 300_000);

  it('ends no route of a menu on a 404 or on a missing service', async () => {
    const [screens, user] = await Promise.all([
      asAdmin('GET', '/ui/api/v1/schemas/screens') as Promise<ScreenSummary[]>,
      asAdmin('GET', '/ui/api/v1/ui/auth/current') as Promise<CurrentUser>,
    ]);
    const routes = menuRoutes(screens, user);
    expect(routes.all.length).toBeGreaterThan(20);
    expect(routes.projectSettings.length).toBeGreaterThan(0);
    const failing = await notRealPages(routes.all);
    // Project Settings shows while one project is selected: select it as the toolbar does.
    await page.evaluate(
      ([name, key]) => localStorage.setItem(name, key),
      [PROJECT_KEY_STORAGE, PROJECT_KEY],
    );
    await page.reload();
    await page.getByRole('heading', { level: 2, name: LABELS.projectSettings }).waitFor();
    failing.push(...(await notRealPages(routes.projectSettings)));
    await page.evaluate((key) => localStorage.removeItem(key), PROJECT_KEY_STORAGE);
    console.info(
      `menu routes: ${routes.all.length + routes.projectSettings.length}; not a real page: ${failing.length}`,
    );
    expect(failing).toEqual([]);
    expect(pageErrors.map(String)).toEqual([]);
  }, 180_000);

  it('names the missing service on its page', async () => {
    await page.goto(depot.ui('/bundles/source'));
    await page
      .getByRole('heading', { level: 1, name: SERVICE_UNAVAILABLE_TEXTS.title('Release Bundles') })
      .waitFor();
    await page
      .getByText(SERVICE_UNAVAILABLE_TEXTS.text('Release Bundles', 'Distribution'))
      .waitFor();
  });

  it('logs out at /logout, to the login page with the logout flag', async () => {
    await page.goto(depot.ui('/logout'));
    await page.waitForURL((url) => url.pathname === `/ui${LOGIN_PATH}`);
    expect(new URL(page.url()).searchParams.get('logout')).toBe('true');
    await page.getByRole('button', { name: 'Log In' }).waitFor();
  });
});
