import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../server/http/identity.ts';
import { packTarball, publishDocument } from './helpers/npm-cli.ts';
import {
  adminAuth,
  basic,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

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
 */
const CALLERS = ['anonymous', 'plain', 'reader', 'projectAdmin', 'admin'] as const;
type Caller = (typeof CALLERS)[number];
const TABLE_FILE = new URL('./route-status-table.json', import.meta.url);

const PASSWORDS: Record<Exclude<Caller, 'anonymous' | 'admin'>, [string, string]> = {
  plain: ['plain', 'plain-pass-1'],
  reader: ['reader', 'reader-pass-1'],
  projectAdmin: ['padmin', 'padmin-pass-1'],
};
const headersOf = (caller: Caller): Record<string, string> =>
  caller === 'anonymous'
    ? {}
    : caller === 'admin'
      ? adminAuth()
      : { authorization: basic(...PASSWORDS[caller]) };

let depot: TestDepot;
/** The admin's own token: the one id other callers try to revoke. */
let adminTokenId: string;
/** The stand-in console's folder. */
let uiDir: string;

beforeAll(async () => {
  // A console of its own, so that /ui answers alike whether or not the real one was built.
  uiDir = mkdtempSync(join(tmpdir(), 'depot-matrix-ui-'));
  writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Depot</title>');
  depot = await startTestDepot({ DEPOT_UI_DIR: uiDir });
  const { users, groups, projects, repositories } = depot.services;
  await users.create({
    name: 'plain',
    email: 'p@example.com',
    password: 'plain-pass-1',
    groups: [],
  });
  await users.create({
    name: 'reader',
    email: 'r@example.com',
    password: 'reader-pass-1',
    groups: ['readers'],
  });
  await users.create({
    name: 'padmin',
    email: 'pa@example.com',
    password: 'padmin-pass-1',
    groups: [],
  });
  await users.create({
    name: 'victim',
    email: 'v@example.com',
    password: 'victim-pass-1',
    groups: [],
  });
  await groups.create({ name: 'victim-group', usersInGroup: ['victim'] });
  for (const key of ['mtx', 'othr']) await projects.create({ project_key: key, display_name: key });
  await projects.putMember('mtx', 'user', 'padmin', ['Project Admin']);
  await projects.putMember('mtx', 'user', 'victim', ['Viewer']);
  await projects.putMember('mtx', 'group', 'victim-group', ['Viewer']);
  await createRepository(depot, 'matrix-local', 'local');
  await createRepository(depot, 'victim-local', 'local');
  for (const key of ['doomed-local', 'doomed-local2']) await createRepository(depot, key, 'local');
  await users.create({ name: 'doomed', email: 'd@example.com', password: 'doomed-pass-1' });
  await groups.create({ name: 'doomed-group' });
  await projects.create({ project_key: 'doomed', display_name: 'doomed' });
  await createRepository(depot, 'matrix-npm', 'local', { packageType: 'npm' });
  await createRepository(depot, 'matrix-pypi', 'local', { packageType: 'pypi' });
  await createRepository(depot, 'matrix-maven', 'local', { packageType: 'maven' });
  const tarball = (version: string) =>
    packTarball({ 'package.json': JSON.stringify({ name: 'matrix-pkg', version }) });
  const published = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/npm/matrix-npm/matrix-pkg',
    headers: adminAuth(),
    payload: publishDocument('matrix-pkg', '1.0.0', await tarball('1.0.0')),
  });
  expect(published.statusCode).toBe(201);
  npmPublish.body = publishDocument('matrix-pkg', '1.0.1', await tarball('1.0.1'));
  await deployFile(depot, 'matrix-maven', 'org/acme/lib/1.0/lib-1.0.jar', 'jar');
  await deployFile(depot, 'matrix-local', 'org/file.txt', 'content');
  await deployFile(depot, 'matrix-local', 'org/doomed.txt', 'content');
  await deployFile(depot, 'victim-local', 'org/file.txt', 'content');
  expect((await repositories.get('matrix-local')).key).toBe('matrix-local');
  // Two targets granting read on victim-local: one to a user, one (to delete) to a group.
  const readVictimLocal = (name: string, actions: { users: object; groups: object }) =>
    depot.services.access.create({
      name,
      repo: {
        'include-patterns': ['**'],
        'exclude-patterns': [],
        repositories: ['victim-local'],
        actions: actions as never,
      },
    });
  await readVictimLocal('matrix-target', { users: { victim: ['read'] }, groups: {} });
  await readVictimLocal('doomed-target', { users: {}, groups: { 'doomed-group': ['read'] } });
  await depot.services.propertySets.create({ name: 'matrix-set', properties: [] } as never);
  const token = await depot.app.inject({
    method: 'POST',
    url: '/access/api/v1/tokens',
    headers: adminAuth(),
    payload: { description: 'the admin token' },
  });
  adminTokenId = token.json().token_id;
});
afterAll(async () => {
  await depot.close();
  rmSync(uiDir, { recursive: true, force: true });
});

/**
 * A route's URL with each parameter naming a real thing of someone else's: what every
 * caller but the admin must not reach. Deletes name things of their own ("victim") so
 * that the routes after them still find theirs.
 */
function concreteUrl(route: RouteEntry): string {
  const { method, url } = route;
  const fixed = DOOMED[routeName(route)] ?? NPM_PACKAGE_URLS[routeName(route)];
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
    if (/layouts\/:name$/.test(url)) return 'maven-2-default';
    if (/propertysets\/:name$/.test(url)) return 'matrix-set';
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

/**
 * Requests of the right shape for routes whose body or query Fastify checks before the
 * handler decides who may: with `{}` their columns would say only that the body is bad.
 */
/** A publish of matrix-pkg 1.0.1, as npm sends it (made in beforeAll: packing is async). */
const npmPublish: { body?: object } = {};
const MATRIX_ROLE = {
  name: 'matrix-role',
  type: 'CUSTOM',
  environments: ['DEV'],
  actions: ['READ_REPOSITORY'],
};
const WELL_FORMED: Record<string, { query?: string; body?: object }> = {
  'PUT /access/api/v1/projects/:key/users/:name': { body: { roles: ['Viewer'] } },
  'PUT /access/api/v1/projects/:key/groups/:name': { body: { roles: ['Viewer'] } },
  'POST /access/api/v1/projects/:key/roles': { body: MATRIX_ROLE },
  'PUT /access/api/v1/projects/:key/roles/:name': { body: MATRIX_ROLE },
  'PUT /artifactory/api/repositories/:key': { body: { rclass: 'local', packageType: 'generic' } },
  'POST /ui/api/v1/ui/admin/repositories': {
    body: {
      type: 'local',
      general: { repoKey: 'matrix-new' },
      typeSpecific: { repoType: 'generic' },
    },
  },
  'PUT /ui/api/v1/ui/admin/repositories': {
    body: {
      type: 'local',
      general: { repoKey: 'matrix-local' },
      typeSpecific: { repoType: 'generic' },
    },
  },
  'PUT /artifactory/api/storage/:repoKey': { query: 'properties=matrix=1' },
  'DELETE /artifactory/api/storage/:repoKey': { query: 'properties=matrix' },
  'POST /artifactory/api/copy/:repoKey': { query: 'to=/victim-local/copied-root&dry=1' },
  'POST /artifactory/api/move/:repoKey': { query: 'to=/victim-local/moved-root&dry=1' },
  'GET /ui/api/v1/ui/artifactactions/deleteversions': { query: 'repoKey=matrix-maven&path=org' },
  'POST /ui/api/v1/ui/artifactactions/deleteversions': {
    body: {
      repoKey: 'matrix-maven',
      path: 'org',
      versions: [{ groupId: 'org.acme', version: '1.0' }],
    },
  },
  'PUT /artifactory/api/npm/:repoKey/*': npmPublish,
  'POST /ui/api/v1/ui/artifactactions/downloadfolder': {
    body: { repoKey: 'matrix-local', path: 'org', archiveType: 'zip' },
  },
};

/**
 * For the routes that name a node in their query or body: a request naming
 * matrix-local/org/file.txt, which the reader may read and the plain user may not, so that
 * their columns say what each may do with it rather than that `{}` is a bad request. The
 * delete and the changes name files of their own, so that the file stays for the rest.
 */
const NODE = { repoKey: 'matrix-local', path: 'org/file.txt' };
const NODE_QUERY = 'repoKey=matrix-local&path=org%2Ffile.txt';
const REQUESTS: Record<string, { query?: string; body?: object }> = {
  'GET /artifactory/api/search/artifact': { query: 'name=file.txt&repos=matrix-local' },
  'GET /artifactory/api/search/gavc': { query: 'g=org&repos=matrix-local' },
  'GET /ui/api/v1/ui/artifactactions/downloadfolder': {
    query: 'repoKey=matrix-local&path=org&archiveType=zip',
  },
  'GET /ui/api/v1/ui/artifactactions/downloadfolderinfo': {
    query: 'repoKey=matrix-local&path=org',
  },
  'GET /ui/api/v1/ui/repopropertyset': { query: 'repoKey=matrix-local' },
  'GET /ui/api/v1/ui/dependencydeclaration': { query: `${NODE_QUERY}&buildtool=maven` },
  'GET /ui/api/v1/ui/artifactproperties': { query: NODE_QUERY },
  'GET /ui/api/v1/ui/artifactwatches': { query: NODE_QUERY },
  'POST /artifactory/api/copy/:repoKey/*': { query: 'to=/matrix-local/copied/file.txt&dry=1' },
  'POST /artifactory/api/move/:repoKey/*': { query: 'to=/matrix-local/moved/file.txt&dry=1' },
  'POST /ui/api/v1/ui/artifactactions/copy': {
    body: { ...NODE, targetRepoKey: 'matrix-local', targetPath: 'copied/', dryRun: true },
  },
  'POST /ui/api/v1/ui/artifactactions/move': {
    body: { ...NODE, targetRepoKey: 'matrix-local', targetPath: 'moved/', dryRun: true },
  },
  'POST /ui/api/v1/ui/artifactactions/delete': {
    body: { repoKey: 'matrix-local', path: 'org/doomed.txt', permDelete: false },
  },
  'POST /ui/api/v1/ui/treebrowser': {
    body: { type: 'junction', repoKey: 'matrix-local', path: 'org' },
  },
  'POST /ui/api/v1/ui/treebrowser/tabsAndActions': {
    body: { type: 'file', ...NODE, repoType: 'local', repoPkgType: 'Generic' },
  },
  'POST /ui/api/v1/ui/artifactgeneral': { body: { type: 'file', ...NODE } },
  'POST /ui/api/v1/ui/artifactgeneral/artifactsCount': {
    body: { repoKey: 'matrix-local', path: 'org' },
  },
  'POST /ui/api/v1/ui/checksums/fix': { body: NODE },
  'POST /ui/api/v1/ui/artifactproperties': {
    query: `${NODE_QUERY}&recursive=false`,
    body: { name: 'matrix', value: ['1'] },
  },
  'POST /ui/api/v1/ui/deleteproperties': {
    query: `${NODE_QUERY}&recursive=false`,
    body: { properties: ['matrix'] },
  },
  'POST /ui/api/v1/ui/artifactwatches': { body: NODE },
  'POST /ui/api/v1/ui/artifactwatches/remove': { body: NODE },
  'POST /ui/api/v1/ui/archiveViewSource': {
    body: { repoKey: 'matrix-local', archivePath: 'org/file.txt' },
  },
  'POST /ui/api/v1/ui/views': { body: { ...NODE, view: 'pom' } },
  'PUT /artifactory/api/storage/:repoKey/*': { query: 'properties=matrix=1' },
  'DELETE /artifactory/api/storage/:repoKey/*': { query: 'properties=matrix' },
  ...WELL_FORMED,
};
/** A GET's request for its HEAD too, where the server answers HEAD for it. */
const requestOf = (route: RouteEntry) =>
  REQUESTS[routeName(route)] ?? REQUESTS[routeName({ ...route, method: 'GET' })] ?? {};

/** npm's publish and unpublish name a package: one of the admin's, in a repository only they may write. */
const NPM_PACKAGE_URLS: Record<string, string> = {
  'PUT /artifactory/api/npm/:repoKey/*': '/artifactory/api/npm/matrix-npm/matrix-pkg',
  'DELETE /artifactory/api/npm/:repoKey/*': '/artifactory/api/npm/matrix-npm/matrix-pkg/-rev/1',
};

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

/**
 * What a refusal must not change: every table but the bookkeeping of sign-ins, sessions,
 * jobs and download counts.
 */
async function databaseFingerprint(): Promise<string> {
  const tables = [
    'groups',
    'user_groups',
    'settings',
    'repositories',
    'nodes',
    'node_properties',
    'repository_properties',
    'repo_layouts',
    'watches',
    'property_sets',
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

/** The request the table sends; `rewrite` may change its URL, query and body alike. */
function requestFor(route: RouteEntry, rewrite = (text: string) => text) {
  const { query, body } = requestOf(route);
  const url = rewrite(concreteUrl(route));
  const mutating = !['GET', 'HEAD'].includes(route.method);
  return {
    method: route.method as 'GET',
    url: query ? `${url}${url.includes('?') ? '&' : '?'}${rewrite(query)}` : url,
    ...(mutating ? { payload: JSON.parse(rewrite(JSON.stringify(body ?? {}))) as object } : {}),
  };
}

async function call(route: RouteEntry, caller: Caller, rewrite?: (text: string) => string) {
  const response = await depot.app.inject({
    ...requestFor(route, rewrite),
    headers: headersOf(caller),
  });
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
          const before = mutating ? await databaseFingerprint() : '';
          const status = await call(route, caller);
          statuses.push(status);
          if (mutating && status >= 400 && (await databaseFingerprint()) !== before)
            changedByRefusal.push(`${routeName(route)} as ${caller} (${status})`);
        }
        answered[routeName(route)] = statuses;
      }

      if (process.env.UPDATE_ROUTE_TABLE === '1') writeFileSync(TABLE_FILE, tableText(answered));
      const table = JSON.parse(readFileSync(TABLE_FILE, 'utf8')) as {
        callers: Caller[];
        routes: Record<string, number[]>;
      };
      expect(table.callers).toEqual(CALLERS);
      expect(Object.keys(answered).sort()).toEqual(Object.keys(table.routes).sort());
      for (const [name, expected] of Object.entries(table.routes))
        expect(answered[name], name).toEqual(expected);
      expect(changedByRefusal).toEqual([]);
      // No caller meets a server error on any route, whatever it sends.
      const serverErrors = Object.entries(answered).filter(([, statuses]) =>
        statuses.some((status) => status >= 500),
      );
      expect(serverErrors).toEqual([]);
    },
  );

  it('tells a user nothing of what a repository they may not read holds', async () => {
    // matrix-local holds org/file.txt, which the plain user may not read. Every route whose
    // request names it must answer them as it answers for a file or folder that is not there.
    // (Repository names are not secret, as in Artifactory: a missing repository may say so.)
    const rewrites = {
      file: (text: string) => text.replaceAll('org/file.txt', 'org/no-such-file.txt'),
      folder: (text: string) =>
        text
          .replaceAll('org/file.txt', 'gone/file.txt')
          .replace(/path=org(&|$)/, 'path=gone$1')
          .replaceAll('"path":"org"', '"path":"gone"'),
    };
    const told: string[] = [];
    for (const route of inPhaseOrder(depot.app.routeCatalog)) {
      if (route.permission === 'admin') continue;
      const { url, payload } = requestFor(route);
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
    const shaped = [
      ...Object.keys(REQUESTS),
      ...Object.keys(DOOMED),
      ...Object.keys(NPM_PACKAGE_URLS),
    ];
    expect(shaped.filter((name) => !names.has(name))).toEqual([]);
  });

  it('agrees with what each route declares', () => {
    const table = JSON.parse(readFileSync(TABLE_FILE, 'utf8')) as {
      routes: Record<string, number[]>;
    };
    for (const route of depot.app.routeCatalog) {
      const [anonymous, plain, reader, projectAdmin] = table.routes[routeName(route)]!;
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
