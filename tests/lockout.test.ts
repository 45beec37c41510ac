import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createLogger } from '../server/logger.ts';
import { AUTH_MESSAGES } from '../server/modules/auth/messages.ts';
import {
  adminAuth,
  basic,
  createScratchDatabase,
  startTestDepot,
  TEST_ADMIN_PASSWORD,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Lockout is no free denial of service (docs/security.md, "Lockout"): a lock holds one account
 * at one client address, for a while that grows, tells nothing of which names exist, ends no
 * session, and an operator can lift it at start. Addresses come from X-Forwarded-For, believed
 * from the trusted proxy the tests' loopback is.
 */
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot({ DEPOT_TRUSTED_PROXIES: '127.0.0.1' });
  await depot.services.users.create({
    name: 'victim',
    email: 'v@example.com',
    password: 'victim-pass-1',
  });
});
afterAll(() => depot.close());

const from = (address: string) => ({ 'x-forwarded-for': address });
const login = (user: string, password: string, address: string) =>
  depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/auth/login',
    payload: { user, password, type: 'login' },
    headers: from(address),
  });
const answer = (response: Awaited<ReturnType<typeof login>>) => ({
  status: response.statusCode,
  body: response.body,
});
const lockState = async (account: string, address: string) =>
  depot.services.db
    .selectFrom('sign_in_locks')
    .selectAll()
    .where('account', '=', account)
    .where('address', '=', address)
    .executeTakeFirst();
/** Moves a pair's lock into the past, as if its time had run out. */
const letLockRunOut = (account: string, address: string) =>
  sql`update sign_in_locks set locked_until = now() - interval '1 second'
      where account = ${account} and address = ${address}`.execute(depot.services.db);

describe('a lock', () => {
  it('answers a name nobody has exactly as the admin’s, attempt for attempt', async () => {
    const known: unknown[] = [];
    const unknown: unknown[] = [];
    for (let i = 1; i <= 7; i++) {
      known.push(answer(await login('admin', `guess-${i}`, '198.51.100.1')));
      unknown.push(answer(await login('no-such-user', `guess-${i}`, '198.51.100.2')));
    }
    expect(unknown).toEqual(known);
    const messages = known.map(
      (entry) => JSON.parse((entry as { body: string }).body).errors[0].message,
    );
    expect(messages).toEqual([
      ...Array(4).fill(AUTH_MESSAGES.badCredentials),
      ...Array(3).fill(AUTH_MESSAGES.locked),
    ]);
    // While it lasts, even the right password is "locked", as any password for the unknown name.
    expect(answer(await login('admin', TEST_ADMIN_PASSWORD, '198.51.100.1'))).toEqual(
      answer(await login('no-such-user', TEST_ADMIN_PASSWORD, '198.51.100.2')),
    );
    expect((await login('admin', TEST_ADMIN_PASSWORD, '198.51.100.1')).statusCode).toBe(401);
  });

  it('holds the attacker’s address only: the admin signs in from another, and its session lives on', async () => {
    const signedIn = await login('admin', TEST_ADMIN_PASSWORD, '203.0.113.10');
    expect(signedIn.statusCode).toBe(200);
    const cookie = signedIn.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    for (let i = 0; i < 8; i++) await login('admin', `attack-${i}`, '198.51.100.66');
    expect(
      (await login('admin', TEST_ADMIN_PASSWORD, '198.51.100.66')).json().errors[0].message,
    ).toBe(AUTH_MESSAGES.locked);
    const users = await depot.app.inject({ url: '/ui/api/v1/ui/users', headers: { cookie } });
    expect(users.statusCode).toBe(200);
    expect(users.json().find((u: { name: string }) => u.name === 'admin').locked).toBe(true);
    expect((await login('admin', TEST_ADMIN_PASSWORD, '203.0.113.11')).statusCode).toBe(200);
    const scripted = await depot.app.inject({
      url: '/artifactory/api/security/users',
      headers: { ...adminAuth(), ...from('203.0.113.12') },
    });
    expect(scripted.statusCode).toBe(200);
  });

  it('lasts a minute, then twice as long for each failure after it, and ends by itself', async () => {
    const address = '198.51.100.30';
    for (let i = 0; i < 5; i++) await login('victim', `wrong-${i}`, address);
    const first = (await lockState('victim', address))!;
    expect(first.locked_until!.getTime() - first.last_failure_at.getTime()).toBe(60_000);
    await letLockRunOut('victim', address);
    // Its time is up: one more failure locks it again, for two minutes.
    expect((await login('victim', 'wrong-again', address)).json().errors[0].message).toBe(
      AUTH_MESSAGES.locked,
    );
    const second = (await lockState('victim', address))!;
    expect(second.locked_until!.getTime() - second.last_failure_at.getTime()).toBe(120_000);
    expect((await login('victim', 'victim-pass-1', address)).statusCode).toBe(401);
    await letLockRunOut('victim', address);
    // The right password once it is over: signed in, and the address starts afresh.
    expect((await login('victim', 'victim-pass-1', address)).statusCode).toBe(200);
    expect(await lockState('victim', address)).toBeUndefined();
    expect((await login('victim', 'wrong-later', address)).json().errors[0].message).toBe(
      AUTH_MESSAGES.badCredentials,
    );
  });

  it('counts wrong passwords through basic auth the same way, and is lifted from every address by Unlock', async () => {
    for (const address of ['198.51.100.41', '198.51.100.42'])
      for (let i = 0; i < 5; i++)
        await depot.app.inject({
          url: '/artifactory/api/system/version',
          headers: { authorization: basic('victim', `nope-${i}`), ...from(address) },
        });
    const right = (address: string) =>
      depot.app.inject({
        url: '/artifactory/api/system/version',
        headers: { authorization: basic('victim', 'victim-pass-1'), ...from(address) },
      });
    expect((await right('198.51.100.41')).statusCode).toBe(401);
    expect((await right('198.51.100.42')).json().errors[0].message).toBe(AUTH_MESSAGES.locked);
    expect((await right('198.51.100.43')).statusCode).toBe(200);
    expect((await depot.services.users.get('victim')).locked).toBe(true);
    const unlocked = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/securityconfig/unlockUsers',
      headers: adminAuth(),
      payload: ['victim'],
    });
    expect(unlocked.statusCode).toBe(200);
    expect((await right('198.51.100.41')).statusCode).toBe(200);
    expect((await right('198.51.100.42')).statusCode).toBe(200);
    expect((await depot.services.users.get('victim')).locked).toBe(false);
  });

  it('shows in the users list while it lasts, and not once its time is up', async () => {
    const address = '198.51.100.70';
    const listed = async () => {
      const users = await depot.app.inject({ url: '/ui/api/v1/ui/users', headers: adminAuth() });
      return users.json().find((u: { name: string }) => u.name === 'victim');
    };
    expect((await listed()).locked).toBe(false);
    for (let i = 0; i < 5; i++) await login('victim', `list-${i}`, address);
    expect((await listed()).locked).toBe(true);
    // Its time runs out with no write anybody hears of (the list is kept between requests).
    await sql`update sign_in_locks set locked_until = now() - interval '1 second'
      where account = 'victim' and address = ${address}`.execute(
      depot.services.db.withoutPlugins(),
    );
    expect((await listed()).locked).toBe(false);
    await letLockRunOut('victim', address);
  });

  it('is not set at all while the lock policy is off', async () => {
    await depot.services.securityConfig.update({ userLockPolicy: { enabled: false } });
    try {
      for (let i = 0; i < 8; i++) await login('victim', `off-${i}`, '198.51.100.50');
      expect((await login('victim', 'victim-pass-1', '198.51.100.50')).statusCode).toBe(200);
    } finally {
      await depot.services.securityConfig.update({ userLockPolicy: { enabled: true } });
    }
  });
});

describe('DEPOT_UNLOCK_USERS', () => {
  // One home and database for two starts, removed even when the test fails or times out.
  let home: string;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'depot-unlock-'));
    const serverUrl = process.env.DEPOT_TEST_DATABASE_URL;
    scratch = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  });
  afterAll(async () => {
    await scratch?.drop();
    rmSync(home, { recursive: true, force: true });
  });

  it('lifts the named users’ locks when Depot starts, the way back in when every admin is locked', async () => {
    const env = {
      DEPOT_HOME: home,
      DEPOT_PORT: '0',
      DEPOT_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      DEPOT_LOG_STDOUT: 'false',
      ...(scratch ? { DEPOT_DATABASE_URL: scratch.url } : {}),
    };
    const start = async (extra: Record<string, string> = {}) => {
      const config = loadConfig({ ...env, ...extra });
      return buildApp(config, createLogger(config));
    };
    const signIn = (
      app: Awaited<ReturnType<typeof start>>['app'],
      user: string,
      password: string,
    ) =>
      app.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/auth/login',
        payload: { user, password },
      });
    const accounts = [
      ['admin', TEST_ADMIN_PASSWORD],
      ['ops', 'ops-pass-1'],
    ] as const;
    const locked = await start();
    try {
      await locked.services.users.create({
        name: 'ops',
        email: 'o@example.com',
        password: 'ops-pass-1',
        admin: true,
      });
      // Three failures lock, so that both accounts lock before this address must wait.
      await locked.services.securityConfig.update({ userLockPolicy: { loginAttempts: 3 } });
      for (const [user, password] of accounts) {
        for (let i = 0; i < 3; i++) await signIn(locked.app, user, `guess-${i}`);
        expect((await signIn(locked.app, user, password)).json().errors[0].message).toBe(
          AUTH_MESSAGES.locked,
        );
      }
    } finally {
      await locked.app.close();
    }
    // Started again naming admin: admin is back in, the other lock still holds (it is kept).
    const recovered = await start({ DEPOT_UNLOCK_USERS: ' admin , nobody ' });
    try {
      expect((await signIn(recovered.app, 'admin', TEST_ADMIN_PASSWORD)).statusCode).toBe(200);
      expect((await signIn(recovered.app, 'ops', 'ops-pass-1')).json().errors[0].message).toBe(
        AUTH_MESSAGES.locked,
      );
    } finally {
      await recovered.app.close();
    }
    // Two starts of a whole Depot, the first migrating a fresh database.
  }, 180_000);
});
