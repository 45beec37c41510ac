import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuth,
  basic,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/** The Security Configuration's settings, each proven by what it changes for a caller. */
let depot: TestDepot;
const READER = { authorization: basic('reader', 'reader-pass-1') };
const OUTSIDER = { authorization: basic('outsider', 'outsider-pass-1') };

const configure = (payload: object) =>
  depot.app.inject({
    method: 'PUT',
    url: '/ui/api/v1/ui/securityconfig',
    headers: adminAuth(),
    payload,
  });

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'team-local', 'local');
  await deployFile(depot, 'team-local', 'org/app.txt');
  for (const name of ['reader', 'outsider'])
    await depot.services.users.create({
      name,
      email: `${name}@example.com`,
      password: `${name}-pass-1`,
      groups: [],
    });
  // Only "reader" may read team-local; the default read-everything target goes.
  await depot.app.inject({
    method: 'DELETE',
    url: '/artifactory/api/v2/security/permissions/Anything',
    headers: adminAuth(),
  });
  const grant = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/v2/security/permissions/team-read',
    headers: adminAuth(),
    payload: {
      repo: {
        repositories: ['team-local'],
        actions: { users: { reader: ['read'] } },
      },
    },
  });
  expect(grant.statusCode).toBeLessThan(300);
});
afterAll(() => depot.close());

describe('hide existence of unauthorized resources', () => {
  const get = (url: string, headers: Record<string, string>) => depot.app.inject({ url, headers });

  it('answers 403 by default, and with the setting on, 404 exactly like a missing file', async () => {
    const url = '/artifactory/team-local/org/app.txt';
    expect((await get(url, OUTSIDER)).statusCode).toBe(403);
    await configure({ hideUnauthorizedResources: true });
    try {
      const hidden = await get(url, OUTSIDER);
      const missing = await get('/artifactory/team-local/org/none.txt', READER);
      expect(hidden.statusCode).toBe(404);
      expect(missing.statusCode).toBe(404);
      // The same words with the path swapped: nothing tells an existing file from a missing one.
      expect(hidden.json().errors[0].message).toBe(
        missing.json().errors[0].message.replace('none.txt', 'app.txt'),
      );
      // The same on the console's calls for a node.
      const tab = await depot.app.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/artifactgeneral',
        headers: OUTSIDER,
        payload: { type: 'file', repoKey: 'team-local', path: 'org/app.txt' },
      });
      expect(tab.statusCode).toBe(404);
      expect((await get(url, READER)).statusCode).toBe(200);
    } finally {
      await configure({ hideUnauthorizedResources: false });
    }
  });

  it('still says 403 to a user who may read but not write, and 401 to anonymous', async () => {
    await configure({ hideUnauthorizedResources: true });
    try {
      const deploy = await depot.app.inject({
        method: 'PUT',
        url: '/artifactory/team-local/org/new.txt',
        headers: READER,
        payload: 'x',
      });
      expect(deploy.statusCode).toBe(403);
      const anonymous = await get('/artifactory/team-local/org/app.txt', {});
      expect(anonymous.statusCode).toBe(401);
    } finally {
      await configure({ hideUnauthorizedResources: false });
    }
  });
});

describe('remember me', () => {
  const login = (rememberMe: boolean) =>
    depot.app.inject({
      method: 'POST',
      url: `/ui/api/v1/ui/auth/login${rememberMe ? '?rememberMe=true' : ''}`,
      payload: { user: 'reader', password: 'reader-pass-1', type: 'login' },
    });
  const sessionCookie = (response: Awaited<ReturnType<typeof login>>) =>
    response.cookies.find((c) => c.name === 'depot_session')!;

  it('keeps a remembered session across browser restarts only while the setting is on', async () => {
    expect(sessionCookie(await login(true)).expires).toBeInstanceOf(Date);
    expect(sessionCookie(await login(false)).expires).toBeUndefined();
    await configure({ rememberMeEnabled: false });
    try {
      const data = await depot.app.inject({ url: '/ui/api/v1/ui/auth/loginRelatedData' });
      expect(data.json()).toMatchObject({ rememberMeEnabled: false });
      expect(sessionCookie(await login(true)).expires).toBeUndefined();
    } finally {
      await configure({ rememberMeEnabled: true });
    }
  });
});

describe('the settings call', () => {
  it('answers every setting, and refuses unknown fields and out-of-range values, changing nothing', async () => {
    const before = (
      await depot.app.inject({ url: '/ui/api/v1/ui/securityconfig', headers: adminAuth() })
    ).json();
    expect(Object.keys(before).sort()).toEqual([
      'anonAccessEnabled',
      'hideUnauthorizedResources',
      'mfa',
      'passwordPolicy',
      'rememberMeEnabled',
      'remoteAllowList',
      'userLockPolicy',
    ]);
    for (const bad of [
      { admin: true },
      { userLockPolicy: { loginAttempts: 0 } },
      { passwordPolicy: { expiryDays: -1 } },
      { mfa: { enforced: 'yes' } },
    ]) {
      expect((await configure(bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    const after = (
      await depot.app.inject({ url: '/ui/api/v1/ui/securityconfig', headers: adminAuth() })
    ).json();
    expect(after).toEqual(before);
  });
});
