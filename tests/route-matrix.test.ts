import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityPlugin } from '../server/http/identity.ts';
import { loadSchemaRegistry } from '../server/schemas/registry.ts';
import { buildInfo } from './helpers/build-info.ts';
import { addMatrixBuckets, MATRIX_BUCKET_PUBLIC_KEY } from './helpers/matrix-buckets.ts';
import {
  adminAuth,
  basic,
  consoleSession,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Every route the server has, tried as anonymous, as a plain user, a read-only user, a
 * project admin and an admin: each
 * must refuse whoever its declared permission excludes. A new route is covered the day it
 * is added, because the list comes from the server itself.
 */
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot({ DEPOT_LICENSE_PUBLIC_KEY: MATRIX_BUCKET_PUBLIC_KEY });
  // The license bucket the admin reads: `:id` is 'users' below.
  await addMatrixBuckets(depot, ['users']);
  await depot.services.users.create({
    name: 'plain',
    email: 'p@example.com',
    password: 'plain-pass-1',
    groups: [],
  });
  // A read-only user: the default readers group, whose target reads everything.
  await depot.services.users.create({
    name: 'reader',
    email: 'r@example.com',
    password: 'reader-pass-1',
    groups: ['readers'],
  });
  // A project admin of 'mtx' (and of nothing else), and a project 'othr' they are not in.
  await depot.services.users.create({
    name: 'padmin',
    email: 'pa@example.com',
    password: 'padmin-pass-1',
    groups: [],
  });
  for (const key of ['mtx', 'othr'])
    await depot.services.projects.create({ project_key: key, display_name: key });
  await depot.services.projects.putMember('mtx', 'user', 'padmin', ['Project Admin']);
  await depot.services.repositories.create({
    key: 'matrix-local',
    rclass: 'local',
    packageType: 'generic',
  });
  await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/matrix-local/org/file.txt',
    headers: adminAuth(),
    payload: 'content',
  });
  // The webhook subscription the admin reads: `:key` of the webhook routes is 'matrix-hook'.
  await depot.services.entities.collection('webhook').create(
    {
      key: 'matrix-hook',
      url: 'https://hooks.example.com/depot',
      domain: 'artifact',
      eventTypes: ['deployed'],
      repoKeys: ['matrix-local'],
    },
    'admin',
  );
  // The backup whose status the admin reads: `:key` of the backup routes is 'matrix-backup'.
  await depot.services.entities
    .collection('backup')
    .create({ key: 'matrix-backup', cronExp: '0 0 2 * * ?' }, 'admin');
  // The outbound proxy the admin reads: `:key` of the proxy routes is 'matrix-proxy'.
  await depot.services.entities
    .collection('proxy')
    .create({ key: 'matrix-proxy', host: 'proxy.example.com', port: 3128 }, 'admin');
  // The build whose effective permissions the admin reads.
  const built = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/build',
    headers: adminAuth(),
    payload: buildInfo({
      name: 'matrix-build',
      number: '1',
      started: MATRIX_BUILD_STARTED,
      modules: [],
    }),
  });
  expect(built.statusCode, built.body).toBe(204);
  // The support bundle the admin downloads: made in the background, waited for.
  const generated = await depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/userSupport/generateBundle',
    headers: adminAuth(),
    payload: { name: 'matrix-bundle' },
  });
  expect(generated.statusCode, generated.body).toBe(202);
  matrixBundleId = generated.json().id;
  await bundleFinished(matrixBundleId);
  // The retention policy the admin reads: `:key` of the policy routes is 'matrix-policy'.
  await depot.services.entities
    .collection('retention-policy')
    .create(
      { key: 'matrix-policy', cronExp: '0 0 3 ? * SUN', repositories: ['matrix-local'] },
      'admin',
    );
});
afterAll(() => depot.close());

/** A real instance for each parameter: a group's :name is a group, anything else's a user. */
const MATRIX_BUILD_STARTED = new Date('2026-05-01T10:00:00.000Z');
let matrixBundleId = '';

/** Waits, with a deadline, until the support bundle `id` is no longer in progress. */
async function bundleFinished(id: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = await depot.app.inject({
      url: '/ui/api/v1/ui/userSupport/listBundles',
      headers: adminAuth(),
    });
    const bundle = list.json().find((item: { id: string }) => item.id === id);
    if (bundle.status !== 'in progress') return expect(bundle.status).toBe('success');
    if (Date.now() > deadline) throw new Error(`bundle ${id} still in progress`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const concrete = (url: string) =>
  url
    // crontime answers 200 only for a cron to read: "0 0 2 * * ?", encoded.
    .replace(/\/ui\/crontime$/, '/ui/crontime?cron=0%200%202%20%2A%20%2A%20%3F')
    // effective permissions are of a node: the repository's root
    .replace(/\/ui\/artifactpermissions$/, '/ui/artifactpermissions?repoKey=matrix-local')
    .replace('repositories/:type/:key', 'repositories/local/matrix-local')
    .replace(/groups\/:name/g, 'groups/readers')
    // the permission target every install starts with
    .replace(/permissions\/:name$/, 'permissions/Anything')
    .replace(/(webhooks|subscriptions)\/:key/, '$1/matrix-hook')
    .replace('backup/:key', 'backup/matrix-backup')
    .replace('proxies/:key', 'proxies/matrix-proxy')
    .replace('downloadBundle/:id', `downloadBundle/${matrixBundleId}`)
    .replace(':name/:number/:startTime', `matrix-build/1/${MATRIX_BUILD_STARTED.getTime()}`)
    .replace('policies/:key', 'policies/matrix-policy')
    // the log viewer's service: Depot's own
    .replace('logs/config/:service', 'logs/config/artifactory')
    .replace(/logs\/data\/:service$/, 'logs/data/artifactory?id=depot-request.log')
    .replace(/:name/g, 'admin')
    .replace(/:id/g, 'users')
    .replace('*', 'x');

describe('route permission matrix', () => {
  it('refuses to register a route that declares no permission, or one it does not know', async () => {
    const app = Fastify();
    await app.register(fastifyCookie);
    await app.register(identityPlugin, {} as never);
    const add = (config?: object) => () =>
      app.get(`/x${Math.random()}`, config ? { config } : {}, async () => 'ok');
    expect(add()).toThrow(/declares no permission/);
    expect(add({ permission: 'everyone' })).toThrow(/declares no permission/);
    expect(add({ permission: 'reader' })).not.toThrow();
    await app.close();
  });

  it("serves each package format's clients under its own path (docs/formats.md)", () => {
    for (const { format, routes } of depot.services.formats) {
      const under = depot.app.routeCatalog.filter((r) =>
        r.url.startsWith(`/artifactory/api/${format.name}/`),
      );
      // An 'api' format has its routes there; Maven's clients use the repository path.
      expect(under.length > 0, format.name).toBe(format.clientPath === 'api');
      expect(routes !== undefined, format.name).toBe(format.clientPath === 'api');
    }
  });

  it('has routes of every kind to check', () => {
    const permissions = new Set(depot.app.routeCatalog.map((r) => r.permission));
    expect([...permissions].sort()).toEqual(['admin', 'public', 'reader', 'user']);
    expect(depot.app.routeCatalog.length).toBeGreaterThan(30);
  });

  it('refuses anonymous callers on every non-public route', async () => {
    for (const route of depot.app.routeCatalog.filter((r) => r.permission !== 'public')) {
      const response = await depot.app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('refuses a plain user (basic auth and session) on every admin route', async () => {
    const session = await consoleSession(depot, 'plain', 'plain-pass-1');
    for (const route of depot.app.routeCatalog.filter((r) => r.permission === 'admin')) {
      for (const headers of [{ authorization: basic('plain', 'plain-pass-1') }, session.headers]) {
        const response = await depot.app.inject({
          method: route.method as 'GET',
          url: concrete(route.url),
          headers,
        });
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      }
    }
  });

  it('lets a plain user through reader and user routes and an admin through admin reads', async () => {
    for (const route of depot.app.routeCatalog.filter(
      (r) => (r.permission === 'reader' || r.permission === 'user') && r.method === 'GET',
    )) {
      const response = await depot.app.inject({
        url: concrete(route.url),
        headers: { authorization: basic('plain', 'plain-pass-1') },
      });
      // Signed in is enough to pass the route's check; the resource may still be refused.
      expect(response.statusCode, route.url).not.toBe(401);
    }
    for (const route of depot.app.routeCatalog.filter(
      (r) => r.permission === 'admin' && r.method === 'GET',
    )) {
      const response = await depot.app.inject({ url: concrete(route.url), headers: adminAuth() });
      expect(response.statusCode, route.url).toBe(200);
    }
  });

  it('refuses a read-only user every admin route, and every write to an artifact', async () => {
    const reader = { authorization: basic('reader', 'reader-pass-1') };
    for (const route of depot.app.routeCatalog.filter((r) => r.permission === 'admin')) {
      const response = await depot.app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        headers: reader,
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
    const writes: Array<[string, string, unknown?]> = [
      ['PUT', '/artifactory/matrix-local/org/new.txt', 'x'],
      ['PUT', '/artifactory/matrix-local/org/file.txt', 'overwrite'],
      ['DELETE', '/artifactory/matrix-local/org/file.txt'],
      ['PUT', '/artifactory/api/storage/matrix-local/org/file.txt?properties=a=1'],
      ['POST', '/artifactory/api/copy/matrix-local/org/file.txt?to=/matrix-local/copy.txt'],
      ['POST', '/artifactory/api/move/matrix-local/org/file.txt?to=/matrix-local/moved.txt'],
    ];
    for (const [method, url, payload] of writes) {
      const response = await depot.app.inject({
        method: method as 'PUT',
        url,
        headers: reader,
        payload: payload as string,
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    const read = await depot.app.inject({
      url: '/artifactory/matrix-local/org/file.txt',
      headers: reader,
    });
    expect(read.statusCode).toBe(200);
    expect(read.body).toBe('content');
  });

  it('confines a project admin to their project, and refuses them every admin route', async () => {
    const projectAdmin = { authorization: basic('padmin', 'padmin-pass-1') };
    const plain = { authorization: basic('plain', 'plain-pass-1') };
    for (const route of depot.app.routeCatalog.filter((r) => r.permission === 'admin')) {
      const response = await depot.app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        headers: projectAdmin,
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
    const projectReads = depot.app.routeCatalog.filter(
      (r) => r.method === 'GET' && r.url.includes('/projects/:key'),
    );
    expect(projectReads.length).toBeGreaterThanOrEqual(5);
    for (const route of projectReads) {
      const url = (key: string) => concrete(route.url.replace(':key', key));
      const own = await depot.app.inject({ url: url('mtx'), headers: projectAdmin });
      expect(own.statusCode, `own ${route.url}`).toBe(200);
      const other = await depot.app.inject({ url: url('othr'), headers: projectAdmin });
      expect(other.statusCode, `other ${route.url}`).toBe(403);
      const stranger = await depot.app.inject({ url: url('mtx'), headers: plain });
      expect(stranger.statusCode, `plain ${route.url}`).toBe(403);
    }
  });

  it('hides admin screen descriptors from plain users', async () => {
    const plain = { authorization: basic('plain', 'plain-pass-1') };
    const screens = await depot.app.inject({ url: '/ui/api/v1/schemas/screens', headers: plain });
    // Bespoke screens for everyone (the artifact browser, the profile) are listed; no admin one.
    const listed = screens.json() as { id: string; permission: string }[];
    expect(listed.filter((screen) => screen.permission === 'admin')).toEqual([]);
    const notForAdminsOnly = [...loadSchemaRegistry().screens.values()]
      .filter((screen) => screen.permission !== 'admin')
      .map((screen) => screen.id);
    expect(listed.map((screen) => screen.id).sort()).toEqual(notForAdminsOnly.sort());
    expect(notForAdminsOnly).not.toContain('users');
    const users = await depot.app.inject({
      url: '/ui/api/v1/schemas/screens/users',
      headers: plain,
    });
    expect(users.statusCode).toBe(403);
    const asAdmin = await depot.app.inject({
      url: '/ui/api/v1/schemas/screens/users',
      headers: adminAuth(),
    });
    expect(asAdmin.json()).toMatchObject({ id: 'users', entitySchema: { $id: 'user' } });
  });
});
