import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuth,
  basic,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * The item walker's rules beyond "refused whole" (tests/excluded-child.test.ts): what a
 * refusal says and to whom, a copy that replaces files, and the repository's own properties
 * (docs/access-control.md, "Operations on many items").
 */
let depot: TestDepot;
const PERMISSIONS = '/artifactory/api/v2/security/permissions';
const as = (user: string) => ({ authorization: basic(user, `${user}-pass-1`) });

const call = (method: string, url: string, headers: object = {}) =>
  depot.app.inject({ method: method as 'GET', url, headers: { ...headers } });

async function grant(name: string, repo: object) {
  const response = await depot.app.inject({
    method: 'PUT',
    url: `${PERMISSIONS}/${name}`,
    headers: adminAuth(),
    payload: { repo },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

const message = (response: { body: string }) =>
  (JSON.parse(response.body) as { errors: { message: string }[] }).errors[0]!.message;

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'pub-local', 'local');
  for (const path of ['pub2/a.txt', 'pub2/secret/s2.txt', 'pub/p.txt', 'other/o.txt'])
    await deployFile(depot, 'pub-local', path);
  for (const name of ['dev', 'writer', 'annotator'])
    await depot.services.users.create({
      name,
      email: `${name}@example.com`,
      password: `${name}-pass-1`,
    });
  for (const target of ['Anything', 'Any Remote'])
    await call('DELETE', `${PERMISSIONS}/${encodeURIComponent(target)}`, adminAuth());
  const everythingBut = { 'include-patterns': ['**'], 'exclude-patterns': ['pub2/secret/**'] };
  await grant('dev-all-but-secret', {
    ...everythingBut,
    repositories: ['pub-local'],
    actions: { users: { dev: ['delete'], anonymous: ['delete'] }, groups: {} },
  });
  // Deploy without Delete/Overwrite: new files only.
  await grant('writer-deploys', {
    repositories: ['pub-local'],
    actions: { users: { writer: ['write'] }, groups: {} },
  });
  await grant('annotator-pub', {
    'include-patterns': ['pub/**'],
    repositories: ['pub-local'],
    actions: { users: { annotator: ['annotate'] }, groups: {} },
  });
});
afterAll(() => depot?.close());

describe('a refusal because of an item the caller may not read', () => {
  it('names the folder the request named, never the hidden item', async () => {
    const refused = await call('DELETE', '/artifactory/pub-local/pub2', as('dev'));
    expect(refused.statusCode).toBe(403);
    expect(message(refused)).toBe(
      "User 'dev' is not permitted to delete everything in 'pub-local/pub2'; nothing was changed.",
    );
  });

  it('is a 401 with the challenge for an anonymous caller', async () => {
    await depot.services.securityConfig.update({ anonAccessEnabled: true });
    const refused = await call('DELETE', '/artifactory/pub-local/pub2');
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toMatch(/^Basic/);
    expect(message(refused)).toBe(
      "User 'anonymous' is not permitted to delete everything in 'pub-local/pub2'; nothing was changed.",
    );
    expect((await call('GET', '/artifactory/pub-local/pub2/secret/s2.txt', adminAuth())).body).toBe(
      'pub2/secret/s2.txt',
    );
  });
});

describe('copy onto files that exist', () => {
  it('needs Delete/Overwrite where it replaces a file, as a deploy over one does', async () => {
    const copy = (to: string) =>
      call('POST', `/artifactory/api/copy/pub-local/other/o.txt?to=/pub-local/${to}`, as('writer'));
    const replacing = await copy('pub/p.txt');
    expect(replacing.statusCode).toBe(403);
    expect(message(replacing)).toBe(
      "User 'writer' is not permitted to overwrite 'pub-local/pub/p.txt'.",
    );
    expect((await call('GET', '/artifactory/pub-local/pub/p.txt', adminAuth())).body).toBe(
      'pub/p.txt',
    );
    expect((await copy('pub/new.txt')).statusCode).toBe(200);
  });
});

describe("a repository's own properties", () => {
  it('need Annotate on all of the repository, not on a folder inside it', async () => {
    const root = (query: string) =>
      call('PUT', `/artifactory/api/storage/pub-local?properties=team=a&${query}`, as('annotator'));
    expect((await root('recursive=0')).statusCode).toBe(403);
    expect((await root('recursive=1')).statusCode).toBe(403);
    const own = await call('GET', '/artifactory/api/storage/pub-local?properties', adminAuth());
    expect(JSON.parse(own.body).properties).toEqual({});
    const inside = await call(
      'PUT',
      '/artifactory/api/storage/pub-local/pub?properties=team=a',
      as('annotator'),
    );
    expect(inside.statusCode).toBe(204);
  });
});
