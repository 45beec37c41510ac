import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * Credentials and repositories are cached in process for speed. Whatever an admin changes
 * must be seen by the very next request: these go through the API, as an admin would.
 */
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
  await depot.services.groups.create({ name: 'ops', adminPrivileges: true });
  await depot.services.users.create({
    name: 'kim',
    email: 'kim@example.com',
    password: 'first-pass-1',
    groups: ['ops'],
  });
  for (const key of ['cached-local', 'cached-files']) {
    await depot.services.repositories.create({ key, rclass: 'local', packageType: 'generic' });
  }
});
afterAll(() => depot.close());

const asKim = (password: string) => ({ authorization: basic('kim', password) });
const usersUrl = '/artifactory/api/security/users';

describe('read caches', () => {
  it('refuses an old password right after an admin changes it', async () => {
    expect(
      (await depot.app.inject({ url: usersUrl, headers: asKim('first-pass-1') })).statusCode,
    ).toBe(200);
    await depot.services.users.update('kim', { password: 'second-pass-2' }, { name: 'admin' });
    expect(
      (await depot.app.inject({ url: usersUrl, headers: asKim('first-pass-1') })).statusCode,
    ).toBe(401);
    expect(
      (await depot.app.inject({ url: usersUrl, headers: asKim('second-pass-2') })).statusCode,
    ).toBe(200);
  });

  it('drops admin rights the moment a group loses them', async () => {
    await depot.services.groups.update('ops', { adminPrivileges: false });
    expect(
      (await depot.app.inject({ url: usersUrl, headers: asKim('second-pass-2') })).statusCode,
    ).toBe(403);
  });

  it('sees a repository change and a deleted repository at once', async () => {
    const put = (path: string) =>
      depot.app.inject({
        method: 'PUT',
        url: `/artifactory/cached-local/${path}`,
        headers: adminAuth(),
        payload: 'content',
      });
    expect((await put('a/one.txt')).statusCode).toBe(201);
    const update = await depot.app.inject({
      method: 'POST',
      url: '/artifactory/api/repositories/cached-local',
      headers: adminAuth(),
      payload: { includesPattern: 'b/**' },
    });
    expect(update.statusCode).toBe(200);
    expect((await put('a/two.txt')).statusCode).toBe(403);
    const removed = await depot.app.inject({
      method: 'DELETE',
      url: '/artifactory/api/repositories/cached-local',
      headers: adminAuth(),
    });
    expect(removed.statusCode).toBe(200);
    const read = await depot.app.inject({
      url: '/artifactory/cached-local/a/one.txt',
      headers: adminAuth(),
    });
    expect(read.statusCode).toBe(404);
  });

  it("serves a file's new content right after it is overwritten, and nothing once deleted", async () => {
    const url = '/artifactory/cached-files/metadata.xml';
    const headers = adminAuth();
    const put = (payload: string) => depot.app.inject({ method: 'PUT', url, headers, payload });
    const get = () => depot.app.inject({ url, headers });
    expect((await put('<first/>')).statusCode).toBe(201);
    expect((await get()).body).toBe('<first/>');
    expect((await put('<second/>')).statusCode).toBe(201);
    const read = await get();
    expect(read.body).toBe('<second/>');
    expect(read.headers['content-length']).toBe(String('<second/>'.length));
    expect((await depot.app.inject({ method: 'DELETE', url, headers })).statusCode).toBe(204);
    expect((await get()).statusCode).toBe(404);
  });
});
