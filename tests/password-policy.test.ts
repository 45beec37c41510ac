import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { AUTH_MESSAGES, CREDENTIALS_EXPIRED } from '../server/modules/auth/messages.ts';
import { DEFAULT_SECURITY_CONFIG } from '../server/modules/security-config/service.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/** The password policy and expiry, through the calls the console and clients make. */
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
});
afterAll(() => depot.close());
afterEach(async () => {
  await depot.services.securityConfig.update({
    passwordPolicy: DEFAULT_SECURITY_CONFIG.passwordPolicy,
  });
});

const setPolicy = (passwordPolicy: object) =>
  depot.app.inject({
    method: 'PUT',
    url: '/ui/api/v1/ui/securityconfig',
    headers: adminAuth(),
    payload: { passwordPolicy },
  });

const changePassword = (userName: string, oldPassword: string, newPassword: string) =>
  depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/auth/changePassword',
    payload: { userName, oldPassword, newPassword1: newPassword, newPassword2: newPassword },
  });

const login = (user: string, password: string) =>
  depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/auth/login',
    payload: { user, password, type: 'login' },
  });

const firstError = (response: { json: () => { errors: Array<{ message: string }> } }) =>
  response.json().errors[0]!.message;

async function createUser(name: string, password: string) {
  await depot.services.users.create({ name, email: `${name}@example.com`, password });
}

/** Moves the user's last password change back in time, as if the days had passed. */
async function agePassword(name: string, days: number) {
  await depot.services.db
    .updateTable('users')
    .set({ password_changed_at: sql`now() - make_interval(days => ${days})` })
    .where('name', '=', name)
    .execute();
}

describe('password policy', () => {
  it('refuses a new password without the classes and length it asks for, with the spec message', async () => {
    expect(
      (await setPolicy({ minLength: 10, uppercase: true, digit: true, specialChar: true }))
        .statusCode,
    ).toBe(200);
    await createUser('classy', 'Old-password-1');
    for (const weak of ['short-A1', 'no-uppercase-1', 'No-digits-here', 'NoSpecial123']) {
      const response = await changePassword('classy', 'Old-password-1', weak);
      expect(response.statusCode, weak).toBe(400);
      expect(firstError(response)).toBe(AUTH_MESSAGES.passwordPolicy);
    }
    expect((await login('classy', 'Old-password-1')).statusCode).toBe(200);
    expect((await changePassword('classy', 'Old-password-1', 'New-password-2')).statusCode).toBe(
      200,
    );
    expect((await login('classy', 'New-password-2')).statusCode).toBe(200);
  });

  it('applies to passwords an admin sets', async () => {
    await setPolicy({ digit: true });
    const response = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/users',
      headers: adminAuth(),
      payload: { name: 'weakling', email: 'w@example.com', password: 'no-digits-at-all' },
    });
    expect(response.statusCode).toBe(400);
    expect(firstError(response)).toBe(AUTH_MESSAGES.passwordPolicy);
    expect(await depot.services.users.exists('weakling')).toBe(false);
  });

  it('refuses the last passwords the history keeps', async () => {
    await setPolicy({ historySize: 2 });
    await createUser('historian', 'first-password');
    expect(
      (await changePassword('historian', 'first-password', 'second-password')).statusCode,
    ).toBe(200);
    const back = await changePassword('historian', 'second-password', 'first-password');
    expect(back.statusCode).toBe(400);
    expect(firstError(back)).toBe(AUTH_MESSAGES.passwordPolicy);
    expect(
      (await changePassword('historian', 'second-password', 'third-password')).statusCode,
    ).toBe(200);
    expect(
      (await changePassword('historian', 'third-password', 'fourth-password')).statusCode,
    ).toBe(200);
    // first-password is now three changes back, beyond a history of two.
    expect(
      (await changePassword('historian', 'fourth-password', 'first-password')).statusCode,
    ).toBe(200);
  });

  it('shows the console the rules it enforces', async () => {
    await setPolicy({ minLength: 12, uppercase: true });
    const response = await depot.app.inject({ url: '/ui/api/v1/ui/auth/passwordPolicy' });
    expect(response.json()).toEqual({ rules: ['at least 12 characters', 'an uppercase letter'] });
  });

  it('refuses a policy shorter than the floor of 8 characters', async () => {
    const response = await setPolicy({ minLength: 4 });
    expect(response.statusCode).toBe(400);
    expect((await depot.services.securityConfig.get()).passwordPolicy.minLength).toBe(8);
  });
});

describe('password expiry', () => {
  it('sends a password older than the expiry days to change password, for the console and for clients', async () => {
    await createUser('aging', 'aging-password-1');
    await setPolicy({ expiryDays: 30 });
    await agePassword('aging', 29);
    expect((await login('aging', 'aging-password-1')).statusCode).toBe(200);
    await agePassword('aging', 31);
    const expired = await login('aging', 'aging-password-1');
    expect(expired.statusCode).toBe(401);
    expect(expired.json().errors[0]).toMatchObject({ code: CREDENTIALS_EXPIRED });
    const client = await depot.app.inject({
      url: '/artifactory/api/repositories',
      headers: { authorization: basic('aging', 'aging-password-1') },
    });
    expect(client.statusCode).toBe(401);
    expect((await changePassword('aging', 'aging-password-1', 'aging-password-2')).statusCode).toBe(
      200,
    );
    expect((await login('aging', 'aging-password-2')).statusCode).toBe(200);
  });

  it('lets an admin expire a password and unexpire it, which restarts the clock', async () => {
    await createUser('expirable', 'expirable-pass-1');
    await setPolicy({ expiryDays: 30 });
    await agePassword('expirable', 40);
    expect((await login('expirable', 'expirable-pass-1')).statusCode).toBe(401);
    const unexpire = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/users/expirable/unexpirePassword',
      headers: adminAuth(),
    });
    expect(unexpire.statusCode).toBe(200);
    expect((await login('expirable', 'expirable-pass-1')).statusCode).toBe(200);
    await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/users/expirable/expirePassword',
      headers: adminAuth(),
    });
    expect((await login('expirable', 'expirable-pass-1')).json().errors[0].code).toBe(
      CREDENTIALS_EXPIRED,
    );
  });
});
