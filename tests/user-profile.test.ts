import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_MESSAGES } from '../server/modules/users/profile-routes.ts';
import { adminAuth, consoleSession, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/** A user's own profile: the email, behind the current password, and nothing more. */
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
  await depot.services.users.create({
    name: 'pia',
    email: 'pia@example.com',
    password: 'pia-pass-123',
  });
});
afterAll(() => depot.close());

const updateProfile = (headers: Record<string, string>, payload: object) =>
  depot.app.inject({ method: 'PUT', url: '/ui/api/v1/ui/userProfile', headers, payload });

describe('user profile', () => {
  it('changes the email with the current password, and refuses a wrong one', async () => {
    const { headers } = await consoleSession(depot, 'pia', 'pia-pass-123');
    const wrong = await updateProfile(headers, { email: 'x@example.com', password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0]).toMatchObject({
      message: PROFILE_MESSAGES.wrongPassword,
      field: 'password',
    });
    expect((await depot.services.users.get('pia')).email).toBe('pia@example.com');
    const right = await updateProfile(headers, {
      email: 'Pia.New@Example.com',
      password: 'pia-pass-123',
    });
    expect(right.statusCode).toBe(200);
    expect((await depot.services.users.get('pia')).email).toBe('pia.new@example.com');
  });

  it('refuses fields that would grant anything (mass assignment), changing nothing', async () => {
    const { headers } = await consoleSession(depot, 'pia', 'pia-pass-123');
    for (const extra of [{ admin: true }, { groups: ['readers'] }, { name: 'admin' }]) {
      const response = await updateProfile(headers, {
        email: 'evil@example.com',
        password: 'pia-pass-123',
        ...extra,
      });
      expect(response.statusCode, JSON.stringify(extra)).toBe(400);
    }
    const pia = await depot.services.users.get('pia');
    expect(pia).toMatchObject({ admin: false, email: 'pia.new@example.com' });
  });

  it('is closed to users whose profile an admin made read-only, and to tokens', async () => {
    const { headers } = await consoleSession(depot, 'pia', 'pia-pass-123');
    const token = await depot.app.inject({
      method: 'POST',
      url: '/access/api/v1/tokens',
      headers,
      payload: { scope: 'applied-permissions/user' },
    });
    const bearer = { authorization: `Bearer ${token.json().access_token}` };
    const viaToken = await updateProfile(bearer, {
      email: 't@example.com',
      password: 'pia-pass-123',
    });
    expect(viaToken.statusCode).toBe(403);

    await depot.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/users/pia',
      headers: adminAuth(),
      payload: { profileUpdatable: false },
    });
    const locked = await updateProfile(headers, {
      email: 'l@example.com',
      password: 'pia-pass-123',
    });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().errors[0].message).toBe(PROFILE_MESSAGES.notUpdatable);
    expect((await depot.services.users.get('pia')).email).toBe('pia.new@example.com');
  });

  it('is refused to anonymous callers', async () => {
    const response = await updateProfile({}, { email: 'a@example.com', password: 'x' });
    expect(response.statusCode).toBe(401);
  });
});
