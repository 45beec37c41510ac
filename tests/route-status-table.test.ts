import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../server/http/identity.ts';
import { engineRoutes } from '../server/modules/entities/descriptors.ts';
import { engineRequest, populateEngineDocuments } from './helpers/engine-requests.ts';
import { MATRIX_BUCKET_PUBLIC_KEY } from './helpers/matrix-buckets.ts';
import { populateMatrix } from './helpers/route-table-fixture.ts';
import {
  CALLERS,
  FIXED_URLS,
  PASSWORDS,
  REQUESTS,
  type Caller,
  type ShapedRequest,
} from './helpers/route-table-requests.ts';
import { startSmtpServer } from './helpers/smtp.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * The exact status of every route of the server, for each kind of caller (issue 5: "every
 * route of the server, generated from the route table, called as anonymous, a user without
 * grants, a user with read only, a project admin and an admin, asserting the exact expected
 * status"). The routes come from the server itself; the expected statuses are the table in
 * `route-status-table.json`, reviewed like code. A route missing from the table, or one the
 * table names that is gone, fails the test. `UPDATE_ROUTE_TABLE=1` rewrites the table from
 * what the server answers: read its diff before committing it.
 *
 * Every parameter names a real thing that belongs to someone else: another user, a
 * repository the plain user may not read, the admin's token, a project the plain user is
 * not in. So the non-admin columns are also the IDOR check of every route that takes an id.
 * And whatever a caller is refused must leave the database as it was, and a refusal must not
 * tell a file that is there from one that is not.
 *
 * The schema engine's routes are not in the table: they are learned from the descriptors,
 * called as their descriptor says (engine-requests.ts) and held to what it declares
 * (`engineRow`), so that a screen added as two JSON files needs no line here.
 */
const TABLE_FILE = new URL('./route-status-table.json', import.meta.url);

const headersOf = (caller: Caller): Record<string, string> =>
  caller === 'anonymous'
    ? {}
    : caller === 'admin'
      ? adminAuth()
      : { authorization: basic(...PASSWORDS[caller]) };

let depot: TestDepot;
/** The schema engine's single documents as they stood, saved back by their update calls. */
let singleDocuments: Map<string, object>;
/** The admin's own token: the one id other callers try to revoke. */
let adminTokenId: string;
/** The stand-in console's folder. */
let uiDir: string;
/** What the remote URL test reaches. */
let upstream: Server;
/** Where the mail flows' mails go. */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  // A console of its own, so that /ui answers alike whether or not the real one was built.
  uiDir = mkdtempSync(join(tmpdir(), 'depot-matrix-ui-'));
  writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Depot</title>');
  depot = await startTestDepot({
    DEPOT_UI_DIR: uiDir,
    DEPOT_LICENSE_PUBLIC_KEY: MATRIX_BUCKET_PUBLIC_KEY,
  });
  smtp = await startSmtpServer();
  upstream = createServer((_request, response) => response.end('upstream'));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  adminTokenId = await populateMatrix(depot, smtp, `http://127.0.0.1:${port}/`);
  singleDocuments = await populateEngineDocuments(depot);
});
afterAll(async () => {
  await depot.close();
  await smtp.close();
  await new Promise((resolve) => upstream.close(resolve));
  rmSync(uiDir, { recursive: true, force: true });
});

/**
 * A route's URL with each parameter naming a real thing of someone else's: what every
 * caller but the admin must not reach. Deletes name things of their own ("victim") so
 * that the routes after them still find theirs.
 */
function concreteUrl(route: RouteEntry): string {
  const { method, url } = route;
  const fixed =
    DOOMED[routeName(route)] ?? shapeOf(FIXED_URLS, route)?.() ?? engineRequestOf(route)?.url;
  if (fixed) return fixed;
  const deleting = method === 'DELETE';
  const repo = deleting ? 'victim-local' : 'matrix-local';
  const userName = 'victim';
  const named = (name: string) => {
    // a custom role the project admin makes in the POST phase, so that changing and
    // deleting it say what they may do rather than that a predefined role is fixed
    if (/roles\/:name$/.test(url) && ['PUT', 'DELETE'].includes(method)) return 'matrix-role';
    if (/\/groups\/:name/.test(url) || url.endsWith('groups/:name')) return 'victim-group';
    if (/permissions\/:name$/.test(url)) return 'matrix-target';
    if (/roles\/:name$/.test(url)) return 'Viewer';
    return name;
  };
  return (
    url
      .replace(/\/ui\/crontime$/, '/ui/crontime?cron=0%200%202%20%2A%20%2A%20%3F')
      .replace(/\/ui\/artifactpermissions$/, `/ui/artifactpermissions?repoKey=${repo}`)
      .replace('/api/npm/:repoKey', '/api/npm/matrix-npm')
      .replace('/api/pypi/:repoKey', '/api/pypi/matrix-pypi')
      .replace(':type/:key', `local/${repo}`)
      .replace('/native/versions/:type/:document', '/native/versions/npm/readme')
      .replace(':packageType', 'npm')
      .replace('/projects/:key', '/projects/mtx')
      // attaching and sharing: a repository nobody reads, so the others' columns stay put
      .replace(/\/repositories\/:repo\/:key$/, '/repositories/victim-local/mtx')
      .replace(':repo/:target', 'victim-local/othr')
      .replace('repositories/:repo', 'repositories/victim-local')
      .replace(':repoKey', repo)
      .replace(':repo', repo)
      .replace(':key', repo)
      .replace(':name', named(userName))
      .replace(':user', userName)
      .replace(':couchUser', userName)
      .replace(':project', 'matrix-project')
      .replace(':token', 'no-such-token')
      // npm's web logins: ids of the right shape that no login has
      .replace(':loginId', 'no-such-login-0123456789')
      .replace(':doneId', 'no-such-login-0123456789')
      .replace('tokens/:id', `tokens/${adminTokenId}`)
      .replace('screens/:id', 'screens/users')
      .replace('entities/:id', 'entities/user')
      .replace('*', 'org/file.txt')
  );
}

/** A GET's request for its HEAD too, where the server answers HEAD for it. */
function shapeOf<T>(table: Record<string, T>, route: RouteEntry): T | undefined {
  return table[routeName(route)] ?? table[routeName({ ...route, method: 'GET' })];
}
const requestOf = (route: RouteEntry): ShapedRequest =>
  shapeOf(REQUESTS, route) ?? { body: engineRequestOf(route)?.body };

/** A route of the schema engine's, called as its descriptor says (engine-requests.ts). */
function engineRequestOf(route: RouteEntry) {
  if (!route.entity) return undefined;
  const method = route.method === 'HEAD' ? 'GET' : route.method;
  const engine = engineRoutes(depot.services.schemas).find(
    (r) => r.method === method && r.url === route.url,
  );
  return engine && engineRequest(depot.services.schemas, engine, singleDocuments);
}

/** The deletes of whole things name things of their own, kept for them alone. */
const DOOMED: Record<string, string> = {
  'DELETE /artifactory/api/security/users/:name': '/artifactory/api/security/users/doomed',
  'DELETE /artifactory/api/security/groups/:name': '/artifactory/api/security/groups/doomed-group',
  'DELETE /artifactory/api/v2/security/permissions/:name':
    '/artifactory/api/v2/security/permissions/doomed-target',
  'DELETE /access/api/v1/projects/:key': '/access/api/v1/projects/doomed',
  'DELETE /artifactory/api/repositories/:key': '/artifactory/api/repositories/doomed-local',
  'DELETE /ui/api/v1/ui/admin/repositories/:type/:key':
    '/ui/api/v1/ui/admin/repositories/local/doomed-local2',
};

/** Reads first, then writes, deletes last: each phase finds what the one before left. */
const PHASES = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const inPhaseOrder = (routes: RouteEntry[]) =>
  routes
    .map((route, index) => ({ route, index }))
    .sort(
      (a, b) =>
        PHASES.indexOf(a.route.method) - PHASES.indexOf(b.route.method) || a.index - b.index,
    )
    .map(({ route }) => route);

const routeName = (route: RouteEntry) => `${route.method} ${route.url}`;

/** A route the schema engine registered for a stored descriptor. */
const isEngineRoute = (route: RouteEntry) => route.entity !== undefined;

/**
 * What an engine route answers each caller, from its descriptor's permission: a caller it
 * refuses hears 401 when not signed in and 403 otherwise; one it lets through succeeds,
 * with 201 for a create.
 */
function engineRow(route: RouteEntry): number[] {
  const method = route.method === 'HEAD' ? 'GET' : route.method;
  const operation = engineRoutes(depot.services.schemas).find(
    (engine) => engine.method === method && engine.url === route.url,
  )?.operation;
  const ok = operation === 'create' ? 201 : 200;
  return CALLERS.map((caller) => {
    if (caller === 'admin' || route.permission === 'public') return ok;
    if (caller === 'anonymous') return 401;
    return route.permission === 'admin' ? 403 : ok;
  });
}

/**
 * What a refusal must not change: every table but the bookkeeping of sign-ins, sessions,
 * jobs and download counts.
 */
/**
 * Support bundles a call started are written in the background, into the supportBundles
 * repository's rows: waited for, so that they are never taken for what a later, refused
 * request changed.
 */
async function supportBundlesSettled(): Promise<void> {
  for (;;) {
    const busy = await depot.db
      .selectFrom('support_bundles')
      .select('id')
      .where('status', '=', 'in progress')
      .executeTakeFirst();
    if (!busy) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function databaseFingerprint(): Promise<string> {
  const tables = [
    'groups',
    'user_groups',
    'settings',
    'repositories',
    'nodes',
    'node_properties',
    'repository_properties',
    'watches',
    'entity_documents',
    'entity_audit',
    'permission_targets',
    'permission_target_principals',
    'access_tokens',
    'api_keys',
    'password_history',
    'user_tokens',
    'projects',
    'project_roles',
    'project_members',
    'packages',
    'package_versions',
  ];
  const parts = tables.map(
    (table) =>
      sql<string>`(select coalesce(md5(string_agg(t::text, ',' order by t::text)), '') from ${sql.table(table)} t)`,
  );
  const users = sql<string>`(select md5(string_agg(concat_ws('|', name, email, password_hash, admin, profile_updatable, disable_ui_access, password_expired, mfa_secret), ',' order by name)) from users)`;
  const { rows } = await sql<{ fingerprint: string }>`select concat_ws(':', ${sql.join([
    ...parts,
    users,
  ])}) as fingerprint`.execute(depot.services.db);
  return rows[0]!.fingerprint;
}

/** The table as prettier would write it: one line a route, so that a diff is one line a change. */
function tableText(routes: Record<string, number[]>): string {
  const line = (value: unknown) => JSON.stringify(value).replaceAll(',', ', ');
  const rows = Object.entries(routes).map(
    ([name, statuses]) => `    ${JSON.stringify(name)}: ${line(statuses)}`,
  );
  return `{\n  "callers": ${line(CALLERS)},\n  "routes": {\n${rows.join(',\n')}\n  }\n}\n`;
}

/**
 * The request the table sends `caller`; `rewrite` may change its URL, query and JSON body
 * alike.
 */
function requestFor(route: RouteEntry, caller: Caller, rewrite = (text: string) => text) {
  const { query, body, raw } = requestOf(route);
  const url = rewrite(concreteUrl(route));
  const mutating = !['GET', 'HEAD'].includes(route.method);
  const json = typeof body === 'function' ? body(caller) : (body ?? {});
  const sent = raw?.();
  return {
    method: route.method as 'GET',
    url: query ? `${url}${url.includes('?') ? '&' : '?'}${rewrite(query)}` : url,
    headers: { ...headersOf(caller), ...(sent ? { 'content-type': sent.contentType } : {}) },
    ...(mutating
      ? { payload: sent?.payload ?? (JSON.parse(rewrite(JSON.stringify(json))) as object) }
      : {}),
  };
}

async function call(route: RouteEntry, caller: Caller, rewrite?: (text: string) => string) {
  const response = await depot.app.inject(requestFor(route, caller, rewrite));
  return response.statusCode;
}

describe('the status table of every route', () => {
  it(
    'answers every route, for every kind of caller, exactly as the table says',
    { timeout: 300_000 },
    async () => {
      const answered: Record<string, number[]> = {};
      const changedByRefusal: string[] = [];
      for (const route of inPhaseOrder(depot.app.routeCatalog)) {
        const statuses: number[] = [];
        for (const caller of CALLERS) {
          const mutating = !['GET', 'HEAD'].includes(route.method);
          if (mutating) await supportBundlesSettled();
          const before = mutating ? await databaseFingerprint() : '';
          const status = await call(route, caller);
          statuses.push(status);
          if (mutating && status >= 400 && (await databaseFingerprint()) !== before)
            changedByRefusal.push(`${routeName(route)} as ${caller} (${status})`);
        }
        answered[routeName(route)] = statuses;
      }

      const engine = depot.app.routeCatalog.filter(isEngineRoute);
      const tabled = Object.fromEntries(
        Object.entries(answered).filter(([name]) => !engine.some((r) => routeName(r) === name)),
      );
      if (process.env.UPDATE_ROUTE_TABLE === '1') writeFileSync(TABLE_FILE, tableText(tabled));
      const table = JSON.parse(readFileSync(TABLE_FILE, 'utf8')) as {
        callers: Caller[];
        routes: Record<string, number[]>;
      };
      expect(table.callers).toEqual(CALLERS);
      expect(Object.keys(tabled).sort()).toEqual(Object.keys(table.routes).sort());
      for (const [name, expected] of Object.entries(table.routes))
        expect(answered[name], name).toEqual(expected);
      expect(engine.length).toBeGreaterThan(0);
      for (const route of engine)
        expect(answered[routeName(route)], routeName(route)).toEqual(engineRow(route));
      expect(changedByRefusal).toEqual([]);
      // No caller meets a server error on any route, whatever it sends.
      const serverErrors = Object.entries(answered).filter(([, statuses]) =>
        statuses.some((status) => status >= 500),
      );
      expect(serverErrors).toEqual([]);
    },
  );

  it('tells a user nothing of what a repository they may not read holds', async () => {
    // matrix-local holds org/file.txt (and org/file.zip), which the plain user may not read. Every route whose
    // request names it must answer them as it answers for a file or folder that is not there.
    // (Repository names are not secret, as in Artifactory: a missing repository may say so.)
    const rewrites = {
      file: (text: string) => text.replaceAll('org/file.', 'org/no-such-file.'),
      folder: (text: string) =>
        text
          .replaceAll('org/file.', 'gone/file.')
          .replace(/path=org(&|$)/, 'path=gone$1')
          .replaceAll('"path":"org"', '"path":"gone"'),
    };
    const told: string[] = [];
    for (const route of inPhaseOrder(depot.app.routeCatalog)) {
      if (route.permission === 'admin') continue;
      const { url, payload } = requestFor(route, 'plain');
      if (!`${url} ${JSON.stringify(payload ?? '')}`.includes('matrix-local')) continue;
      const existing = await call(route, 'plain');
      for (const [kind, rewrite] of Object.entries(rewrites)) {
        const absent = await call(route, 'plain', rewrite);
        if (existing !== absent)
          told.push(`${routeName(route)}, missing ${kind}: ${existing} against ${absent}`);
      }
    }
    expect(told).toEqual([]);
  });

  it('names a real route in each request it shapes', () => {
    const names = new Set(depot.app.routeCatalog.map(routeName));
    const shaped = [...Object.keys(REQUESTS), ...Object.keys(DOOMED), ...Object.keys(FIXED_URLS)];
    expect(shaped.filter((name) => !names.has(name))).toEqual([]);
  });

  it('agrees with what each route declares', () => {
    const table = JSON.parse(readFileSync(TABLE_FILE, 'utf8')) as {
      routes: Record<string, number[]>;
    };
    for (const route of depot.app.routeCatalog) {
      const [anonymous, plain, reader, projectAdmin] = isEngineRoute(route)
        ? engineRow(route)
        : table.routes[routeName(route)]!;
      if (route.permission !== 'public') expect(anonymous, routeName(route)).toBe(401);
      if (route.permission === 'admin')
        for (const status of [plain, reader, projectAdmin])
          expect(status, routeName(route)).toBe(403);
      // Signed in is enough for the route's own check; what it then finds may still refuse.
      if (route.permission === 'user' || route.permission === 'reader')
        for (const status of [plain, reader, projectAdmin])
          expect(status, routeName(route)).not.toBe(401);
    }
  });
});
