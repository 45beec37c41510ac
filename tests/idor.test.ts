import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuth,
  basic,
  consoleSession,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Another user's identifiers put into every call that takes one (IDOR), and fields that would
 * grant something added to bodies (mass assignment): each refused with 400, 403 or 404, and
 * nothing changed, checked afterwards from the victim's side.
 */
let depot: TestDepot;
const ALICE = { authorization: basic('alice', 'alice-pass-1') };
const BOB = { authorization: basic('bob', 'bob-pass-1') };
let bobTokenId: string;
let bobToken: string;

const inject = (method: string, url: string, headers: object, payload?: object) =>
  depot.app.inject({ method: method as 'GET', url, headers: { ...headers }, payload });

beforeAll(async () => {
  depot = await startTestDepot();
  for (const name of ['alice', 'bob'])
    await depot.services.users.create({
      name,
      email: `${name}@example.com`,
      password: `${name}-pass-1`,
    });
  await createRepository(depot, 'shared-local', 'local');
  await deployFile(depot, 'shared-local', 'docs/readme.txt');
  const token = await inject('POST', '/access/api/v1/tokens', BOB, {
    scope: 'applied-permissions/user',
  });
  ({ token_id: bobTokenId, access_token: bobToken } = token.json());
  await inject('POST', '/ui/api/v1/ui/userApiKey', BOB);
  const watched = await inject('POST', '/ui/api/v1/ui/artifactwatches', BOB, {
    repoKey: 'shared-local',
    path: 'docs/readme.txt',
  });
  expect(watched.statusCode).toBe(200);
});
afterAll(() => depot.close());

const bobStillWorks = async () => {
  const viaToken = await inject('GET', '/ui/api/v1/auth/mfa/status', {
    authorization: `Bearer ${bobToken}`,
  });
  expect(viaToken.statusCode).toBe(200);
  const key = await inject('GET', '/ui/api/v1/ui/userApiKey', BOB);
  expect(key.json().apiKey).toMatch(/^AKCp/);
  expect((await inject('GET', '/ui/api/v1/ui/auth/current', BOB)).json()).toMatchObject({
    name: 'bob',
    admin: false,
    email: 'bob@example.com',
  });
};

describe('another user’s identifiers', () => {
  it('cannot revoke, list or mint another user’s tokens', async () => {
    const revoke = await inject('DELETE', `/access/api/v1/tokens/${bobTokenId}`, ALICE);
    expect(revoke.statusCode).toBe(404);
    const listed = await inject('GET', '/access/api/v1/tokens', ALICE);
    expect(JSON.stringify(listed.json())).not.toContain(bobTokenId);
    const minted = await inject('POST', '/access/api/v1/tokens', ALICE, {
      username: 'bob',
      scope: 'applied-permissions/user',
    });
    expect(minted.statusCode).toBe(403);
    const admin = await inject('POST', '/access/api/v1/tokens', ALICE, {
      scope: 'applied-permissions/admin',
    });
    expect(admin.statusCode).toBe(403);
    await bobStillWorks();
  });

  it('cannot read or revoke another user’s API key, nor reset their MFA', async () => {
    for (const [method, url] of [
      ['HEAD', '/ui/api/v1/ui/userApiKey/bob'],
      ['DELETE', '/ui/api/v1/ui/userApiKey/bob'],
      ['DELETE', '/ui/api/v1/ui/deleteApiKeyForUser/bob'],
      ['POST', '/ui/api/v1/auth/mfa/resetMfaStatus/bob'],
      ['POST', '/ui/api/v1/ui/users/bob/expirePassword'],
      ['PUT', '/ui/api/v1/ui/users/bob'],
    ] as const) {
      const response = await inject(
        method,
        url,
        ALICE,
        method === 'PUT' ? { admin: true } : undefined,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    await bobStillWorks();
    expect((await depot.services.users.get('bob')).passwordExpired).toBe(false);
  });

  it('cannot change another user’s password or profile', async () => {
    const change = await inject('POST', '/ui/api/v1/ui/auth/changePassword', ALICE, {
      userName: 'bob',
      oldPassword: 'alice-pass-1',
      newPassword1: 'stolen-pass-9',
      newPassword2: 'stolen-pass-9',
    });
    expect(change.statusCode).toBe(401);
    const profile = await inject('PUT', '/ui/api/v1/ui/userProfile', ALICE, {
      name: 'bob',
      email: 'alice@evil.example',
      password: 'alice-pass-1',
    });
    expect(profile.statusCode).toBe(400);
    await bobStillWorks();
  });

  it('cannot remove another user’s watch', async () => {
    const removal = await inject('POST', '/ui/api/v1/ui/artifactwatches/remove', ALICE, {
      repoKey: 'shared-local',
      path: 'docs/readme.txt',
      name: 'bob',
    });
    expect(removal.statusCode).toBe(403);
    const status = await inject(
      'GET',
      '/ui/api/v1/ui/artifactwatches?repoKey=shared-local&path=docs/readme.txt',
      BOB,
    );
    expect(JSON.stringify(status.json())).toContain('bob');
  });
});

describe('fields that would grant something', () => {
  it('are refused on every body a plain user can send, changing nothing', async () => {
    const session = await consoleSession(depot, 'alice', 'alice-pass-1');
    const attempts: Array<[string, string, object]> = [
      [
        'PUT',
        '/ui/api/v1/ui/userProfile',
        { email: 'a@example.com', password: 'alice-pass-1', admin: true },
      ],
      [
        'PUT',
        '/ui/api/v1/ui/userProfile',
        { email: 'a@example.com', password: 'alice-pass-1', groups: ['readers'] },
      ],
      ['POST', '/access/api/v1/tokens', { scope: 'applied-permissions/groups:readers' }],
      [
        'POST',
        '/ui/api/v1/ui/auth/changePassword',
        {
          userName: 'alice',
          oldPassword: 'alice-pass-1',
          newPassword1: 'x-pass-12345',
          newPassword2: 'x-pass-12345',
          admin: true,
        },
      ],
      ['POST', '/ui/api/v1/auth/mfa/remove', { otp: '123456', userName: 'bob' }],
    ];
    for (const [method, url, body] of attempts) {
      const response = await inject(method, url, session.headers, body);
      expect([400, 403], `${method} ${url} ${JSON.stringify(body)}`).toContain(response.statusCode);
    }
    const alice = await depot.services.users.get('alice');
    expect(alice).toMatchObject({ admin: false, email: 'alice@example.com' });
    expect(alice.groups).not.toContain('admins');
    expect((await inject('GET', '/ui/api/v1/ui/users', session.headers)).statusCode).toBe(403);
    // The password did not change either.
    expect((await inject('GET', '/ui/api/v1/ui/auth/current', ALICE)).json()).toMatchObject({
      name: 'alice',
      admin: false,
    });
  });

  it('are refused to an admin’s scripts where the field is never settable', async () => {
    const response = await inject('PUT', '/ui/api/v1/ui/securityconfig', adminAuth(), {
      admin: true,
    });
    expect(response.statusCode).toBe(400);
  });
});
