import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '../server/modules/auth/messages.ts';
import { MAIL_MESSAGES } from '../server/modules/mail/messages.ts';
import { adminAuth, startTestDepot, type TestDepot } from './helpers/test-app.ts';
import { linkIn, startSmtpServer } from './helpers/smtp.ts';

/** Mail settings and the flows that mail, with a real SMTP server on loopback reading the mails. */
let depot: TestDepot;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const BASE_URL = 'https://depot.example.test';

beforeAll(async () => {
  depot = await startTestDepot();
  smtp = await startSmtpServer({ user: 'mailer', password: 'smtp-secret-1' });
});
afterAll(async () => {
  await depot.close();
  await smtp.close();
});

function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = {}) {
  return depot.app.inject({ method, url: `/ui/api/v1${url}`, payload, headers });
}
const asAdmin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  call(method, url, payload, adminAuth());
const login = (user: string, password: string) =>
  call('POST', '/ui/auth/login', { user, password, type: 'login' });
const firstError = (response: Awaited<ReturnType<typeof call>>) => response.json().errors[0];

const SETTINGS = () => ({
  enabled: true,
  host: '127.0.0.1',
  port: smtp.port,
  username: 'mailer',
  password: 'smtp-secret-1',
  from: 'depot@example.test',
  subjectPrefix: '[Depot]',
  baseUrl: BASE_URL,
});

describe('mail settings', () => {
  it('keeps the password sealed and never answers it', async () => {
    const saved = await asAdmin('PUT', '/ui/mail', SETTINGS());
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ host: '127.0.0.1', passwordSet: true });
    expect(saved.body).not.toContain('smtp-secret-1');
    expect((await asAdmin('GET', '/ui/mail')).body).not.toContain('smtp-secret-1');
    const row = await depot.services.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'mail')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row.value)).not.toContain('smtp-secret-1');
    // Saving without a password keeps it.
    await asAdmin('PUT', '/ui/mail', { subjectPrefix: '[Depot]' });
    expect((await asAdmin('GET', '/ui/mail')).json().passwordSet).toBe(true);
  });

  it('sends a test mail with the form settings, and says why when it cannot', async () => {
    const sent = await asAdmin('POST', '/ui/mail/test', { to: 'ops@example.test' });
    expect(sent.statusCode, sent.body).toBe(200);
    const [mail] = await smtp.waitFor(1);
    expect(mail).toMatchObject({ to: ['ops@example.test'], subject: '[Depot] Test message' });

    const wrongPassword = await asAdmin('POST', '/ui/mail/test', {
      to: 'ops@example.test',
      password: 'wrong',
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(firstError(wrongPassword).message).toMatch(/^The mail could not be sent: .*Invalid/);
    expect(wrongPassword.body).not.toContain('wrong"');
    const badEmail = await asAdmin('POST', '/ui/mail/test', { to: 'not an address' });
    expect(badEmail.statusCode).toBe(400);
  });

  it('keeps the password only for the server it was saved for, on a save and on a test', async () => {
    const message =
      'Enter the password again: the stored one goes only to the mail server host and port it was saved for';
    for (const elsewhere of [{ host: 'smtp.attacker.example' }, { port: smtp.port + 1 }]) {
      const saved = await asAdmin('PUT', '/ui/mail', elsewhere);
      expect(saved.statusCode, JSON.stringify(elsewhere)).toBe(400);
      expect(firstError(saved)).toMatchObject({ message, field: 'password' });
      const tested = await asAdmin('POST', '/ui/mail/test', {
        to: 'ops@example.test',
        ...elsewhere,
      });
      expect(tested.statusCode, JSON.stringify(elsewhere)).toBe(400);
      expect(firstError(tested)).toMatchObject({ message, field: 'password' });
    }
    expect((await asAdmin('GET', '/ui/mail')).json()).toMatchObject({
      host: '127.0.0.1',
      port: smtp.port,
      passwordSet: true,
    });
  });

  it('is for admins only', async () => {
    expect((await call('GET', '/ui/mail')).statusCode).toBe(401);
  });
});

describe('forgot password and reset by the mailed link', () => {
  it('mails a link that resets the password once, and unlocks the user', async () => {
    await depot.services.users.create({
      name: 'forgetful',
      email: 'forgetful@example.test',
      password: 'old-password-1',
    });
    // Locked out by guessing: the reset is the way back in.
    for (let i = 0; i < 5; i++) await login('forgetful', 'guess');
    expect(firstError(await login('forgetful', 'old-password-1')).message).toBe(
      AUTH_MESSAGES.locked,
    );

    const before = smtp.received.length;
    const asked = await call('POST', '/ui/auth/forgotpassword', { user: 'forgetful' });
    expect(asked.json()).toEqual({ info: MAIL_MESSAGES.resetSent });
    const mail = (await smtp.waitFor(before + 1))[before]!;
    expect(mail).toMatchObject({
      to: ['forgetful@example.test'],
      subject: '[Depot] Reset your password',
    });
    const link = linkIn(mail.text, '/ui/auth/reset-password');
    expect(link.origin).toBe(BASE_URL);
    const key = link.searchParams.get('key')!;

    expect((await call('GET', `/ui/auth/validatetoken?key=${key}`)).json()).toEqual({
      user: 'forgetful',
    });
    const weak = await call('POST', `/ui/auth/resetpassword?key=${key}`, { password: 'short' });
    expect(firstError(weak).message).toBe(AUTH_MESSAGES.passwordPolicy);
    const reset = await call('POST', `/ui/auth/resetpassword?key=${key}`, {
      password: 'new-password-2',
    });
    expect(reset.json()).toMatchObject({ user: 'forgetful' });
    expect((await login('forgetful', 'new-password-2')).statusCode).toBe(200);
    expect((await login('forgetful', 'old-password-1')).statusCode).toBe(401);

    const again = await call('POST', `/ui/auth/resetpassword?key=${key}`, {
      password: 'third-password-3',
    });
    expect(again.statusCode).toBe(400);
    expect(firstError(again).message).toBe(MAIL_MESSAGES.invalidKey);
  });

  it('answers an unknown user exactly like a known one, and mails nothing', async () => {
    const before = smtp.received.length;
    const unknown = await call('POST', '/ui/auth/forgotpassword', { user: 'nobody-here' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ info: MAIL_MESSAGES.resetSent });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.length).toBe(before);
  });

  it('answers before it looks the user up: a failure on the way tells nothing, and is logged', async () => {
    await depot.services.users.create({
      name: 'keyless',
      email: 'keyless@example.test',
      password: 'keyless-pass-1',
    });
    // The database refuses to store reset keys: the user exists, yet the request must get
    // the answer anybody gets, since the key is issued only once the answer has gone.
    const { db } = depot.services;
    await sql`create function depot_test_refuse_keys() returns trigger language plpgsql as $$
      begin raise exception 'reset keys refused by the test'; end $$`.execute(db);
    await sql`create trigger depot_test_refuse_keys before insert on user_tokens
      for each row execute function depot_test_refuse_keys()`.execute(db);
    try {
      const known = await call('POST', '/ui/auth/forgotpassword', { user: 'keyless' });
      const unknown = await call('POST', '/ui/auth/forgotpassword', { user: 'nobody-at-all' });
      expect(known.statusCode).toBe(200);
      expect(known.body).toBe(unknown.body);
      expect(known.json()).toEqual({ info: MAIL_MESSAGES.resetSent });
      const log = join(depot.config.home, 'logs', 'depot-service.log');
      await vi.waitFor(() => expect(readFileSync(log, 'utf8')).toContain('reset keys refused'));
      const failure = readFileSync(log, 'utf8')
        .split('\n')
        .find((line) => line.includes('reset keys refused'))!;
      expect(JSON.parse(failure)).toMatchObject({ level: 40, msg: 'reset mail failed' });
    } finally {
      await sql`drop trigger depot_test_refuse_keys on user_tokens`.execute(db);
      await sql`drop function depot_test_refuse_keys()`.execute(db);
    }
  });

  it('refuses made-up keys, and says mail is off when it is', async () => {
    const fake = 'A'.repeat(43);
    expect(firstError(await call('GET', `/ui/auth/validatetoken?key=${fake}`)).message).toBe(
      MAIL_MESSAGES.invalidKey,
    );
    await asAdmin('PUT', '/ui/mail', { enabled: false });
    try {
      const off = await call('POST', '/ui/auth/forgotpassword', { user: 'forgetful' });
      expect(off.statusCode).toBe(400);
      expect(firstError(off).message).toBe(MAIL_MESSAGES.notConfigured);
      expect((await call('GET', '/ui/auth/loginRelatedData')).json().forgotPassword).toBe(false);
    } finally {
      await asAdmin('PUT', '/ui/mail', { enabled: true });
    }
    expect((await call('GET', '/ui/auth/loginRelatedData')).json().forgotPassword).toBe(true);
  });
});

describe('invitations', () => {
  it('creates the user without a password and mails a link to choose one', async () => {
    const before = smtp.received.length;
    const invited = await asAdmin('POST', '/access/entities/users/invite', {
      name: 'newbie',
      email: 'newbie@example.test',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const mail = (await smtp.waitFor(before + 1))[before]!;
    expect(mail.subject).toBe('[Depot] You are invited to Depot');
    const token = linkIn(mail.text, '/ui/auth/invitation').searchParams.get('token')!;

    expect((await login('newbie', 'any-guess-1')).statusCode).toBe(401);
    expect((await call('POST', '/access/token/verify', { token })).json()).toEqual({
      username: 'newbie',
    });

    // A second invitation replaces the first link.
    const reinvited = await asAdmin('POST', '/access/entities/users/invited/reInvite', {
      userName: 'newbie',
    });
    expect(reinvited.statusCode).toBe(200);
    const second = (await smtp.waitFor(before + 2))[before + 1]!;
    const newToken = linkIn(second.text, '/ui/auth/invitation').searchParams.get('token')!;
    expect((await call('POST', '/access/token/verify', { token })).statusCode).toBe(400);

    const accepted = await call('POST', '/access/entities/users/invited/setPassword', {
      token: newToken,
      password: 'newbie-pass-1',
    });
    expect(accepted.json()).toEqual({ user: 'newbie' });
    expect((await login('newbie', 'newbie-pass-1')).statusCode).toBe(200);
    const reused = await call('POST', '/access/entities/users/invited/setPassword', {
      token: newToken,
      password: 'other-pass-2',
    });
    expect(reused.statusCode).toBe(400);
    const late = await asAdmin('POST', '/access/entities/users/invited/reInvite', {
      userName: 'newbie',
    });
    expect(firstError(late).message).toBe(MAIL_MESSAGES.alreadyAccepted('newbie'));
  });

  it('refuses fields an invitation may not set, and non-admins', async () => {
    const extra = await asAdmin('POST', '/access/entities/users/invite', {
      name: 'sneaky',
      email: 'sneaky@example.test',
      admin: true,
    });
    expect(extra.statusCode).toBe(400);
    expect(await depot.services.users.exists('sneaky')).toBe(false);
    const anonymous = await call('POST', '/access/entities/users/invite', {
      name: 'sneaky',
      email: 'sneaky@example.test',
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
