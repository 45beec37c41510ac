import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { AUTH_MESSAGES } from '../server/modules/auth/messages.ts';
import { MFA_MESSAGES } from '../server/modules/mfa/messages.ts';
import { MFA_PENDING_COOKIE } from '../server/modules/mfa/pending-sign-in.ts';
import { adminAuth, consoleSession, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/** MFA with real TOTP codes, computed here from the secret the enroll call hands out. */
let depot: TestDepot;
const PASSWORD = 'mfa-pass-123';

beforeAll(async () => {
  depot = await startTestDepot();
});
afterAll(() => depot.close());

const codeAt = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

async function createUser(name: string) {
  await depot.services.users.create({ name, email: `${name}@example.com`, password: PASSWORD });
}

function login(user: string, password = PASSWORD) {
  return depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/auth/login',
    payload: { user, password, type: 'login' },
  });
}

function call(
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) {
  return depot.app.inject({ method, url: `/ui/api/v1${url}`, headers, payload });
}

const cookieOf = (response: Awaited<ReturnType<typeof login>>, name: string) =>
  response.cookies.find((c) => c.name === name);

/** Enrolls a user from a console session; returns the secret. */
async function enroll(name: string): Promise<string> {
  const { headers } = await consoleSession(depot, name, PASSWORD);
  const offer = await call('GET', '/auth/mfa/enroll', headers);
  expect(offer.statusCode).toBe(200);
  const { secret } = offer.json();
  const confirmed = await call('POST', '/auth/mfa/enroll', headers, { otp: await codeAt(secret) });
  expect(confirmed.json()).toEqual({ mfaEnrolled: true });
  return secret;
}

/** Logs in with the password and answers the pending sign-in's cookie header. */
async function passwordStep(name: string) {
  const response = await login(name);
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ mfaStatus: 'VERIFY', mfaAuthenticator: 'GOOGLE' });
  const pending = cookieOf(response, MFA_PENDING_COOKIE)!;
  return { cookie: `${MFA_PENDING_COOKIE}=${pending.value}` };
}

/** The headers of the console session an answer opened: its cookie and the CSRF header. */
function sessionHeaders(response: Awaited<ReturnType<typeof login>>) {
  const session = cookieOf(response, 'depot_session')!.value;
  const csrf = cookieOf(response, 'depot_csrf')!.value;
  return { cookie: `depot_session=${session}; depot_csrf=${csrf}`, 'x-csrf-token': csrf };
}

describe('MFA enrollment', () => {
  it('offers a secret with its otpauth URI and QR code, and keeps it only after a right code', async () => {
    await createUser('enroller');
    const { headers } = await consoleSession(depot, 'enroller', PASSWORD);
    const offer = (await call('GET', '/auth/mfa/enroll', headers)).json();
    expect(offer.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(offer.otpauthUri).toBe(
      `otpauth://totp/Depot:enroller?secret=${offer.secret}&issuer=Depot`,
    );
    expect(offer.qrCode).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const wrong = await call('POST', '/auth/mfa/enroll', headers, { otp: '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().errors[0].message).toBe(MFA_MESSAGES.invalidCode);
    expect((await call('GET', '/auth/mfa/status', headers)).json()).toMatchObject({
      enrolled: false,
    });

    const right = await call('POST', '/auth/mfa/enroll', headers, {
      otp: await codeAt(offer.secret),
    });
    expect(right.statusCode).toBe(200);
    expect((await call('GET', '/auth/mfa/status', headers)).json()).toEqual({
      enabled: true,
      enforced: false,
      enrolled: true,
    });
    expect((await depot.services.users.get('enroller')).mfaEnrolled).toBe(true);
    // Enrolling again would swap the secret behind the user's back: remove it first.
    expect((await call('GET', '/auth/mfa/enroll', headers)).statusCode).toBe(409);
  });

  it('keeps the secret sealed in the database', async () => {
    const row = await depot.services.db
      .selectFrom('users')
      .select('mfa_secret')
      .where('name', '=', 'enroller')
      .executeTakeFirstOrThrow();
    expect(row.mfa_secret).toMatch(/^enc:/);
  });
});

describe('sign-in with MFA', () => {
  it('opens no session for the password alone, then signs in with the code', async () => {
    await createUser('verifier');
    const secret = await enroll('verifier');
    const response = await login('verifier');
    expect(cookieOf(response, 'depot_session')).toBeUndefined();
    const pending = cookieOf(response, MFA_PENDING_COOKIE)!;
    expect(pending.httpOnly).toBe(true);
    expect(pending.sameSite).toBe('Strict');
    const headers = { cookie: `${MFA_PENDING_COOKIE}=${pending.value}` };

    const wrong = await call('POST', '/auth/mfa/verify', headers, { otp: '123456' });
    expect(wrong.statusCode).toBe(401);
    // The enrollment used this step's code; the next step's is still within the window.
    const code = await codeAt(secret, 30);
    const verified = await call('POST', '/auth/mfa/verify', headers, { otp: code });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ name: 'verifier', anonymous: false });
    const session = cookieOf(verified, 'depot_session')!;
    expect(session.httpOnly).toBe(true);
    const current = await call('GET', '/ui/auth/current', {
      cookie: `depot_session=${session.value}`,
    });
    expect(current.json()).toMatchObject({ name: 'verifier', mfaEnrolled: true });

    // A code signs in once: the same one on a new sign-in is refused.
    const again = await passwordStep('verifier');
    const replay = await call('POST', '/auth/mfa/verify', again, { otp: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().errors[0].message).toBe(MFA_MESSAGES.invalidCode);
  });

  it('refuses a code without a pending sign-in, with a forged one, and any enrollment from one', async () => {
    await createUser('forger');
    const secret = await enroll('forger');
    const code = await codeAt(secret, 30);
    const none = await call('POST', '/auth/mfa/verify', {}, { otp: code });
    expect(none.statusCode).toBe(403);
    expect(none.json().errors[0].message).toBe(MFA_MESSAGES.signInExpired);
    const { cookie } = await passwordStep('forger');
    const [header, payload] = cookie.split('=')[1]!.split('.');
    const forged = `${MFA_PENDING_COOKIE}=${header}.${payload}.${'A'.repeat(43)}`;
    expect(
      (await call('POST', '/auth/mfa/verify', { cookie: forged }, { otp: code })).statusCode,
    ).toBe(403);
    // The password alone may not start a new enrollment and so skip the code.
    expect((await call('GET', '/auth/mfa/enroll', { cookie })).statusCode).toBe(403);
    expect((await call('POST', '/auth/mfa/enroll', { cookie }, { otp: code })).statusCode).toBe(
      403,
    );
  });

  it('counts wrong codes toward the lockout', async () => {
    await createUser('guesser');
    await enroll('guesser');
    const pending = await passwordStep('guesser');
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const response = await call('POST', '/auth/mfa/verify', pending, { otp: '999999' });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 403]);
    const locked = await login('guesser');
    expect(locked.statusCode).toBe(401);
    expect(locked.json().errors[0].message).toBe(AUTH_MESSAGES.locked);
  });

  it('makes every user enroll at sign-in when MFA is enforced, and signs in after', async () => {
    await createUser('newcomer');
    await depot.services.securityConfig.update({ mfa: { enforced: true } });
    try {
      const response = await login('newcomer');
      expect(response.json()).toEqual({ mfaStatus: 'ENROLL', mfaAuthenticator: 'GOOGLE' });
      const cookie = `${MFA_PENDING_COOKIE}=${cookieOf(response, MFA_PENDING_COOKIE)!.value}`;
      const offer = (await call('GET', '/auth/mfa/enroll', { cookie })).json();
      const enrolled = await call(
        'POST',
        '/auth/mfa/enroll',
        { cookie },
        { otp: await codeAt(offer.secret) },
      );
      expect(enrolled.statusCode).toBe(200);
      expect(enrolled.json()).toMatchObject({ name: 'newcomer' });
      expect(cookieOf(enrolled, 'depot_session')).toBeDefined();
      // Removing it is refused while enforced.
      const removal = await call('POST', '/auth/mfa/remove', sessionHeaders(enrolled), {
        otp: await codeAt(offer.secret, 30),
      });
      expect(removal.statusCode).toBe(403);
      expect(removal.json().errors[0].message).toBe(MFA_MESSAGES.enforced);
    } finally {
      await depot.services.securityConfig.update({ mfa: { enforced: false } });
    }
  });

  it('lets an admin reset a user MFA, after which the password alone signs in', async () => {
    await createUser('lostphone');
    await enroll('lostphone');
    expect((await login('lostphone')).json()).toMatchObject({ mfaStatus: 'VERIFY' });
    const reset = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/auth/mfa/resetMfaStatus/lostphone',
      headers: adminAuth(),
    });
    expect(reset.statusCode).toBe(200);
    const after = await login('lostphone');
    expect(after.json()).toMatchObject({ name: 'lostphone', anonymous: false });
    expect(cookieOf(after, 'depot_session')).toBeDefined();
    const unknown = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/auth/mfa/resetMfaStatus/nobody',
      headers: adminAuth(),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('lets a user remove MFA with a current code', async () => {
    await createUser('remover');
    // The session that enrolled goes on; its next code removes MFA.
    const { headers } = await consoleSession(depot, 'remover', PASSWORD);
    const { secret } = (await call('GET', '/auth/mfa/enroll', headers)).json();
    await call('POST', '/auth/mfa/enroll', headers, { otp: await codeAt(secret) });
    const wrong = await call('POST', '/auth/mfa/remove', headers, { otp: '000000' });
    expect(wrong.statusCode).toBe(401);
    const removed = await call('POST', '/auth/mfa/remove', headers, {
      otp: await codeAt(secret, 30),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call('GET', '/auth/mfa/status', headers)).json()).toMatchObject({
      enrolled: false,
    });
  });
});
