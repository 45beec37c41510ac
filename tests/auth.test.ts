import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, CREDENTIALS_EXPIRED } from '../server/modules/auth/messages.ts';
import {
  CONSOLE_USER_HEADER,
  SESSION_ENDED_MESSAGE,
  SESSION_ENDED_STATUS,
  USER_CHANGED_MESSAGE,
  USER_CHANGED_STATUS,
} from '../server/http/console-user.ts';
import {
  adminAuth,
  basic,
  consoleSession,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

describe('first start with the default admin password', () => {
  let depot: TestDepot;
  beforeAll(async () => {
    depot = await startTestDepot({ DEPOT_ADMIN_PASSWORD: '' });
  });
  afterAll(() => depot.close());

  const login = (password: string) =>
    depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login',
      payload: { user: 'admin', password, type: 'login' },
    });

  it('refuses admin/password as expired credentials, with the code the console follows', async () => {
    const response = await login('password');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      code: CREDENTIALS_EXPIRED,
      errors: [{ message: AUTH_MESSAGES.credentialsExpired, code: CREDENTIALS_EXPIRED }],
    });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['www-authenticate']).toBeUndefined();
  });

  it('changes the password without a session, then signs in with the new one', async () => {
    const mismatch = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/changePassword',
      payload: {
        userName: 'admin',
        oldPassword: 'password',
        newPassword1: 'new-pass-1',
        newPassword2: 'other-pass',
      },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors[0].message).toBe('Password fields must be equal');

    const changed = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/changePassword',
      payload: {
        userName: 'admin',
        oldPassword: 'password',
        newPassword1: 'new-pass-1',
        newPassword2: 'new-pass-1',
      },
    });
    expect(changed.statusCode).toBe(200);
    expect((await login('password')).statusCode).toBe(401);
    const ok = await login('new-pass-1');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'admin', admin: true, anonymous: false });
  });
});

describe('sessions, CSRF, lockout and anonymous access', () => {
  let depot: TestDepot;
  beforeAll(async () => {
    depot = await startTestDepot();
    await depot.services.users.create({
      name: 'dev',
      email: 'Dev@Example.com',
      password: 'dev-pass-1',
      groups: [],
    });
    await depot.services.users.create({
      name: 'robot',
      email: 'robot@example.com',
      password: 'robot-pass-1',
      disableUIAccess: true,
      groups: [],
    });
  });
  afterAll(() => depot.close());

  it('sets an HttpOnly SameSite=Strict session cookie and a readable CSRF cookie', async () => {
    const response = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login?rememberMe=true',
      payload: { user: 'dev', password: 'dev-pass-1', type: 'login' },
    });
    expect(response.statusCode).toBe(200);
    const session = response.cookies.find((c) => c.name === 'depot_session')!;
    const csrf = response.cookies.find((c) => c.name === 'depot_csrf')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(session.expires).toBeInstanceOf(Date);
    expect(csrf.httpOnly).toBeFalsy();
    expect(response.json()).toMatchObject({ name: 'dev', email: 'dev@example.com', admin: false });
  });

  it('answers current with the signed-in user, and anonymous without a session', async () => {
    const { headers } = await consoleSession(depot, 'dev', 'dev-pass-1');
    const current = await depot.app.inject({
      url: '/ui/api/v1/ui/auth/current',
      headers: { cookie: headers.cookie },
    });
    expect(current.json()).toMatchObject({ name: 'dev', anonymous: false });
    const anonymous = await depot.app.inject({ url: '/ui/api/v1/ui/auth/current' });
    expect(anonymous.json()).toMatchObject({
      name: 'anonymous',
      anonymous: true,
      anonAccessEnabled: false,
    });
  });

  it('refuses a mutating cookie call without the CSRF header, accepts it with the header', async () => {
    const admin = await consoleSession(depot, 'admin', 'admin-secret-1');
    const body = { name: 'csrf-check', email: 'c@example.com', password: 'csrf-pass-1' };
    const without = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/users',
      headers: { cookie: admin.headers.cookie },
      payload: body,
    });
    expect(without.statusCode).toBe(403);
    expect(without.json().errors[0].message).toBe(AUTH_MESSAGES.csrf);
    expect(await depot.services.users.exists('csrf-check')).toBe(false);
    const withHeader = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/users',
      headers: admin.headers,
      payload: body,
    });
    expect(withHeader.statusCode).toBe(201);
  });

  it('ends the session at logout', async () => {
    const { headers } = await consoleSession(depot, 'dev', 'dev-pass-1');
    const out = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/logout',
      headers,
    });
    expect(out.statusCode).toBe(200);
    const after = await depot.app.inject({
      url: '/ui/api/v1/ui/auth/current',
      headers: { cookie: headers.cookie },
    });
    expect(after.json().anonymous).toBe(true);
  });

  it('answers 420 to a console call whose session ended elsewhere, 333 when it is now another user', async () => {
    const dev = await consoleSession(depot, 'dev', 'dev-pass-1');
    const mfaStatus = (cookie: string | undefined, consoleUser?: string) =>
      depot.app.inject({
        url: '/ui/api/v1/auth/mfa/status',
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(consoleUser ? { [CONSOLE_USER_HEADER]: consoleUser } : {}),
        },
      });
    expect((await mfaStatus(dev.headers.cookie, 'dev')).statusCode).toBe(200);

    // Another tab signed in as admin: the browser's one cookie is now admin's.
    const admin = await consoleSession(depot, 'admin', 'admin-secret-1');
    const changed = await mfaStatus(admin.headers.cookie, 'dev');
    expect(changed.statusCode).toBe(USER_CHANGED_STATUS);
    expect(changed.json().errors[0].message).toBe(USER_CHANGED_MESSAGE);

    // Another tab signed out: the cookie is gone, or names a session that no longer exists.
    await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/logout',
      headers: dev.headers,
    });
    for (const cookie of [undefined, dev.headers.cookie]) {
      const ended = await mfaStatus(cookie, 'dev');
      expect(ended.statusCode).toBe(SESSION_ENDED_STATUS);
      expect(ended.json().errors[0].message).toBe(SESSION_ENDED_MESSAGE);
    }
    // A script without the console's header keeps its plain 401, and sign-in is never refused.
    expect((await mfaStatus(dev.headers.cookie)).statusCode).toBe(401);
    const again = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login',
      headers: { [CONSOLE_USER_HEADER]: 'dev' },
      payload: { user: 'dev', password: 'dev-pass-1', type: 'login' },
    });
    expect(again.statusCode).toBe(200);
  });

  it('refuses console sign-in to a user with disableUIAccess, who can still use basic auth', async () => {
    const response = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login',
      payload: { user: 'robot', password: 'robot-pass-1' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().errors[0].message).toBe(AUTH_MESSAGES.uiAccessDisabled);
    const api = await depot.app.inject({
      url: '/artifactory/api/system/version',
      headers: { authorization: basic('robot', 'robot-pass-1') },
    });
    expect(api.statusCode).toBe(200);
  });

  it('locks an account after the configured number of failures until an admin unlocks it', async () => {
    await depot.services.users.create({
      name: 'victim',
      email: 'v@example.com',
      password: 'victim-pass-1',
      groups: [],
    });
    await depot.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/securityconfig',
      headers: adminAuth(),
      payload: { userLockPolicy: { enabled: true, loginAttempts: 3 } },
    });
    const attempt = (password: string) =>
      depot.app.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/auth/login',
        payload: { user: 'victim', password },
      });
    expect((await attempt('wrong-1')).json().errors[0].message).toBe(AUTH_MESSAGES.badCredentials);
    expect((await attempt('wrong-2')).json().errors[0].message).toBe(AUTH_MESSAGES.badCredentials);
    expect((await attempt('wrong-3')).json().errors[0].message).toBe(AUTH_MESSAGES.locked);
    const right = await attempt('victim-pass-1');
    expect(right.statusCode).toBe(401);
    expect(right.json().errors[0].message).toBe(AUTH_MESSAGES.locked);
    expect((await depot.services.users.get('victim')).locked).toBe(true);

    const unlock = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/securityconfig/unlockUsers',
      headers: adminAuth(),
      payload: ['victim'],
    });
    expect(unlock.statusCode).toBe(200);
    expect((await attempt('victim-pass-1')).statusCode).toBe(200);

    // locked again, then unlocked through the access entities' call
    for (const guess of ['wrong-4', 'wrong-5', 'wrong-6']) await attempt(guess);
    expect((await depot.services.users.get('victim')).locked).toBe(true);
    const byEntities = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/access/entities/users/unlockUsers',
      headers: adminAuth(),
      payload: ['victim'],
    });
    expect(byEntities.statusCode).toBe(200);
    expect((await attempt('victim-pass-1')).statusCode).toBe(200);
  });

  it('answers reader routes anonymously only when anonymous access is on', async () => {
    expect((await depot.app.inject({ url: '/artifactory/api/system/version' })).statusCode).toBe(
      401,
    );
    await depot.services.securityConfig.update({ anonAccessEnabled: true });
    try {
      expect((await depot.app.inject({ url: '/artifactory/api/system/version' })).statusCode).toBe(
        200,
      );
      expect((await depot.app.inject({ url: '/ui/api/v1/ui/users' })).statusCode).toBe(401);
    } finally {
      await depot.services.securityConfig.update({ anonAccessEnabled: false });
    }
  });

  it('answers wrong basic credentials with 401 and a challenge for scripts', async () => {
    const response = await depot.app.inject({
      url: '/artifactory/api/security/users',
      headers: { authorization: basic('admin', 'nope') },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Basic realm="Depot"');
  });

  it('serves the footer and the login data to anyone', async () => {
    const footer = await depot.app.inject({ url: '/ui/api/v1/ui/auth/screen/footer' });
    expect(footer.json()).toMatchObject({ serverName: 'Depot', licenseType: 'ENTERPRISE_PLUS' });
    expect(footer.json().versionID).toMatch(/^\d+\.\d+\.\d+/);
    const data = await depot.app.inject({ url: '/ui/api/v1/ui/auth/loginRelatedData' });
    expect(data.json()).toMatchObject({ rememberMeEnabled: true, oauthProviders: [] });
  });

  it('never stores a password in clear text', async () => {
    const row = await depot.db
      .selectFrom('users')
      .select('password_hash')
      .where('name', '=', 'dev')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('dev-pass-1');
  });
});

describe('basic auth on every request', () => {
  let depot: TestDepot;
  beforeAll(async () => {
    depot = await startTestDepot();
    await depot.services.users.create({
      name: 'ci',
      email: 'ci@example.com',
      password: 'ci-pass-one',
      groups: [],
    });
  });
  afterAll(() => depot.close());

  const version = (password: string) =>
    depot.app.inject({
      url: '/artifactory/api/system/version',
      headers: { authorization: basic('ci', password) },
    });

  it('refuses the old password at once after a change, though it was verified before', async () => {
    expect((await version('ci-pass-one')).statusCode).toBe(200);
    expect((await version('ci-pass-one')).statusCode).toBe(200);
    await depot.services.auth.changePassword(
      'ci',
      'ci-pass-one',
      'ci-pass-two',
      'ci-pass-two',
      '127.0.0.1',
    );
    expect((await version('ci-pass-one')).statusCode).toBe(401);
    expect((await version('ci-pass-two')).statusCode).toBe(200);
    expect((await version('wrong-pass')).statusCode).toBe(401);
  });
});
