import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuth,
  basic,
  consoleSession,
  createRepository,
  deployFile,
  devWithOnlyGrant,
  startTestDepot,
  TEST_ADMIN_PASSWORD,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * What scripts and the seeded admin met (issue 24, items 1, 8 and 23): Artifactory's REST
 * semantics of `?lastModified`, `?properties=a,b` and property escapes, an unknown API path,
 * and an email on a single-label host.
 */
let depot: TestDepot;
const dev = { authorization: basic('dev', 'dev-pass-1') };

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'libs', 'local');
  for (const path of ['org/a.txt', 'org/sub/b.txt', 'org/sub/secret.txt', 'other/c.txt'])
    await deployFile(depot, 'libs', path);
  // Times of our choosing, so that "newest" does not depend on the clock's resolution.
  const times: Record<string, string> = {
    'org/a.txt': '2024-01-01T00:00:00.000Z',
    'org/sub/b.txt': '2024-03-01T00:00:00.000Z',
    'org/sub/secret.txt': '2024-05-01T00:00:00.000Z',
    'other/c.txt': '2024-02-01T00:00:00.000Z',
  };
  for (const [path, time] of Object.entries(times))
    await depot.services.db
      .updateTable('nodes')
      .set({ modified_at: new Date(time) })
      .where('path', '=', path)
      .execute();
  await devWithOnlyGrant(depot, {
    repositories: ['libs'],
    include: ['**'],
    exclude: ['**/secret.txt'],
    actions: ['read', 'annotate'],
  });
});
afterAll(() => depot?.close());

const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, headers = adminAuth()) =>
  depot.app.inject({ method, url, headers });
const storage = (path: string, headers = adminAuth()) =>
  call('GET', `/artifactory/api/storage/${path}`, headers);

describe('the seeded admin and single-label email hosts', () => {
  it('saves the admin record with its seeded admin@localhost', async () => {
    const admin = await call('GET', '/ui/api/v1/ui/users/admin');
    expect(admin.json().email).toBe('admin@localhost');
    const saved = await depot.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/users/admin',
      headers: adminAuth(),
      payload: { email: 'admin@localhost', admin: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().email).toBe('admin@localhost');
  });

  it('saves a profile on a single-label host, and still refuses what is no address', async () => {
    const { headers } = await consoleSession(depot, 'admin', TEST_ADMIN_PASSWORD);
    const profile = (email: string) =>
      depot.app.inject({
        method: 'PUT',
        url: '/ui/api/v1/ui/userProfile',
        headers,
        payload: { email, password: TEST_ADMIN_PASSWORD },
      });
    expect((await profile('root@buildbox')).statusCode).toBe(200);
    expect((await depot.services.users.get('admin')).email).toBe('root@buildbox');
    for (const bad of ['admin@', 'admin@-host', 'admin@@localhost', 'admin localhost']) {
      const refused = await profile(bad);
      expect(refused.statusCode, bad).toBe(400);
    }
    expect((await depot.services.users.get('admin')).email).toBe('root@buildbox');
    expect((await profile('admin@localhost')).statusCode).toBe(200);
  });
});

describe('an unknown /artifactory/api/ path', () => {
  it('answers "No such API" for every method, not an unknown repository named api', async () => {
    for (const method of ['GET', 'PUT', 'POST', 'DELETE'] as const) {
      const response = await call(method, '/artifactory/api/no-such-thing/x?y=1');
      expect(response.statusCode, method).toBe(404);
      expect(response.json().errors[0].message).toBe(
        `No such API: ${method} /artifactory/api/no-such-thing/x`,
      );
    }
    const bare = await call('GET', '/artifactory/api');
    expect(bare.json().errors[0].message).toBe('No such API: GET /artifactory/api');
  });

  it('leaves real API paths and unknown repositories as they were', async () => {
    expect((await storage('libs/org/a.txt')).statusCode).toBe(200);
    const missing = await call('GET', '/artifactory/no-such-repo/a.txt');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].message).toBe("Repository 'no-such-repo' could not be found.");
  });
});

describe('?lastModified', () => {
  const uri = (path: string) => `http://localhost:80/artifactory/api/storage/libs/${path}`;

  it('answers the newest file anywhere below a folder, or the repository', async () => {
    expect((await storage('libs/org?lastModified')).json()).toEqual({
      uri: uri('org/sub/secret.txt'),
      lastModified: '2024-05-01T00:00:00.000Z',
    });
    expect((await storage('libs/other?lastModified')).json()).toEqual({
      uri: uri('other/c.txt'),
      lastModified: '2024-02-01T00:00:00.000Z',
    });
    expect((await storage('libs?lastModified')).json().uri).toBe(uri('org/sub/secret.txt'));
  });

  it('answers a file with itself', async () => {
    expect((await storage('libs/org/a.txt?lastModified')).json()).toEqual({
      uri: uri('org/a.txt'),
      lastModified: '2024-01-01T00:00:00.000Z',
    });
  });

  it('names only a file the caller may read', async () => {
    const answer = await storage('libs/org?lastModified', dev);
    expect(answer.json()).toEqual({
      uri: uri('org/sub/b.txt'),
      lastModified: '2024-03-01T00:00:00.000Z',
    });
  });
});

describe('?properties and Artifactory escapes', () => {
  const setProperties = async (path: string, list: string) => {
    const response = await call(
      'PUT',
      `/artifactory/api/storage/libs/${path}?properties=${encodeURIComponent(list)}`,
    );
    expect(response.statusCode, response.body).toBe(204);
  };
  const properties = async (path: string, query = 'properties') =>
    (await storage(`libs/${path}?${query}`)).json().properties;

  it('reads only the properties named in ?properties=a,b', async () => {
    await setProperties('org/a.txt', 'a=1;b=2,3;c=4');
    expect(await properties('org/a.txt')).toEqual({ a: ['1'], b: ['2', '3'], c: ['4'] });
    expect(await properties('org/a.txt', 'properties=a,b')).toEqual({ a: ['1'], b: ['2', '3'] });
    expect(await properties('org/a.txt', 'properties=c,missing')).toEqual({ c: ['4'] });
  });

  it('stores \\, \\= \\\\ and \\; of ?properties= as the characters they escape', async () => {
    await setProperties('other/c.txt', 'list=x\\,y,z;eq\\=key=1\\=1;path=C:\\\\dir|piped=yes');
    expect(await properties('other/c.txt')).toEqual({
      'eq=key': ['1=1'],
      list: ['x,y', 'z'],
      path: ['C:\\dir'],
      piped: ['yes'],
    });
    // The same escapes name a property to read or delete.
    expect(await properties('other/c.txt', `properties=${encodeURIComponent('eq\\=key')}`)).toEqual(
      { 'eq=key': ['1=1'] },
    );
    const removed = await call(
      'DELETE',
      `/artifactory/api/storage/libs/other/c.txt?properties=${encodeURIComponent('eq\\=key,list')}`,
    );
    expect(removed.statusCode).toBe(204);
    expect(await properties('other/c.txt')).toEqual({ path: ['C:\\dir'], piped: ['yes'] });
  });

  it('unescapes matrix parameters of a deploy the same way', async () => {
    const matrix = ['build=1\\,2', 'note=a\\=b', 'dir=C:\\\\tmp', 'multi=p,q']
      .map((param) => `;${encodeURIComponent(param).replace(/%3D/, '=')}`)
      .join('');
    const deployed = await depot.app.inject({
      method: 'PUT',
      url: `/artifactory/libs/escaped/d.txt${matrix}`,
      headers: adminAuth(),
      payload: 'd',
    });
    expect(deployed.statusCode, deployed.body).toBe(201);
    expect(await properties('escaped/d.txt')).toEqual({
      build: ['1,2'],
      dir: ['C:\\tmp'],
      multi: ['p', 'q'],
      note: ['a=b'],
    });
  });
});
