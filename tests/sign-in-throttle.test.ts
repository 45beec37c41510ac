import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '../server/modules/auth/messages.ts';
import { basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * Guessing passwords: the account locks after the policy's attempts, the address waits longer
 * after each failure beyond ten, and X-Forwarded-For counts only from a configured proxy.
 *
 * The clock stands still during each test: the first wait is one second, and on a busy
 * machine the guesses after the eleventh failure can take longer than that, which would let
 * one more guess through and fail a test that holds on any machine. No test here waits for a
 * wait to end: the way back is an admin's unlock and a success, which need no clock.
 */
const stopTheClock = () => vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
const restartTheClock = () => vi.useRealTimers();
const login = (depot: TestDepot, user: string, password: string, forwardedFor?: string) =>
  depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/auth/login',
    payload: { user, password, type: 'login' },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

describe('sign-in throttle with no trusted proxy', () => {
  let depot: TestDepot;
  beforeAll(async () => {
    depot = await startTestDepot();
    for (const name of ['target', 'bystander'])
      await depot.services.users.create({
        name,
        email: `${name}@example.com`,
        password: `${name}-pass-1`,
      });
  });
  afterAll(() => depot.close());
  beforeEach(stopTheClock);
  afterEach(restartTheClock);

  it('locks the account and makes the address wait, through 1,000 guesses', async () => {
    const statuses = new Map<number, number>();
    let lastRetryAfter = 0;
    for (let i = 0; i < 1000; i++) {
      // A forged X-Forwarded-For per guess: ignored, the socket's address is what counts.
      const response = await login(depot, 'target', `guess-${i}`, `198.51.100.${i % 250}`);
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      if (response.statusCode === 429) lastRetryAfter = Number(response.headers['retry-after']);
    }
    // Ten free failures (the fifth locks the account), the eleventh starts the wait, and
    // every guess after it is refused at once, without checking a password.
    expect(statuses.get(401)).toBe(11);
    expect(statuses.get(429)).toBe(989);
    expect(lastRetryAfter).toBeGreaterThan(0);
    const locked = await depot.services.users.get('target');
    expect(locked.locked).toBe(true);

    // Basic auth from the same address waits too, even with a right password.
    const client = await depot.app.inject({
      url: '/artifactory/api/repositories',
      headers: { authorization: basic('bystander', 'bystander-pass-1') },
    });
    expect(client.statusCode).toBe(429);
    expect(client.json().errors[0].message).toMatch(/^Too many failed sign-ins/);
  });

  it('lets the locked user back in only after an admin unlocks and the wait is over', async () => {
    await depot.services.users.unlock(['target']);
    depot.services.signInThrottle.succeeded('127.0.0.1', 'target');
    expect((await login(depot, 'target', 'target-pass-1')).statusCode).toBe(200);
  });

  it('makes guesses through the change-password call wait as sign-in guesses do', async () => {
    depot.services.signInThrottle.succeeded('127.0.0.1', 'target');
    const change = (oldPassword: string) =>
      depot.app.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/auth/changePassword',
        payload: {
          userName: 'bystander',
          oldPassword,
          newPassword1: 'brand-new-pass-9',
          newPassword2: 'brand-new-pass-9',
        },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await change(`guess-${i}`)).statusCode);
    expect(statuses.slice(0, 11).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(11).every((status) => status === 429)).toBe(true);
    // the right password waits too, and changes nothing
    expect((await change('bystander-pass-1')).statusCode).toBe(429);
    depot.services.signInThrottle.succeeded('127.0.0.1', 'bystander');
    await depot.services.users.unlock(['bystander']);
    expect((await login(depot, 'bystander', 'bystander-pass-1')).statusCode).toBe(200);
  });
});

describe('sign-in throttle behind a trusted proxy', () => {
  let depot: TestDepot;
  beforeAll(async () => {
    depot = await startTestDepot({ DEPOT_TRUSTED_PROXIES: '127.0.0.1' });
    for (const name of ['user', 'guesser'])
      await depot.services.users.create({
        name,
        email: `${name}@example.com`,
        password: `${name}-pass-1`,
      });
    await depot.services.securityConfig.update({ userLockPolicy: { enabled: false } });
  });
  afterAll(() => depot.close());
  beforeEach(stopTheClock);
  afterEach(restartTheClock);

  it('counts the forwarded client address, so one client waiting does not stop another', async () => {
    for (let i = 0; i < 11; i++) await login(depot, 'user', 'wrong', '203.0.113.5');
    const waiting = await login(depot, 'user', 'user-pass-1', '203.0.113.5');
    expect(waiting.statusCode).toBe(429);
    expect(waiting.headers['retry-after']).toBe('1');
    const other = await login(depot, 'user', 'user-pass-1', '203.0.113.9');
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ name: 'user' });
    // The wait is a second of the clock, however long the guesses took: it holds to its end.
    vi.setSystemTime(Date.now() + 999);
    expect((await login(depot, 'user', 'user-pass-1', '203.0.113.5')).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + 1);
    expect((await login(depot, 'user', 'user-pass-1', '203.0.113.5')).statusCode).toBe(200);
  });

  it('keeps counting guesses against other accounts when the guesser signs in as itself', async () => {
    const address = '203.0.113.40';
    const answers: Array<{ valid: boolean; status: number }> = [];
    // 40 wrong guesses, four at a time, each four followed by the guesser's own valid sign-in.
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 4; i++) {
        const guess = await login(depot, 'user', `wrong-${round}-${i}`, address);
        answers.push({ valid: false, status: guess.statusCode });
      }
      const own = await login(depot, 'guesser', 'guesser-pass-1', address);
      answers.push({ valid: true, status: own.statusCode });
    }
    const firstWait = answers.findIndex((answer) => answer.status === 429);
    // The eleventh failure starts the wait, whatever valid sign-ins came between, and the
    // guesser's own sign-ins then wait too.
    expect(firstWait).toBeGreaterThan(0);
    const failuresBefore = answers.slice(0, firstWait).filter((answer) => !answer.valid);
    expect(failuresBefore.length).toBeGreaterThanOrEqual(11);
    expect(failuresBefore.every((answer) => answer.status === 401)).toBe(true);
    expect(answers.some((answer) => answer.valid && answer.status === 429)).toBe(true);
  });

  it('forgives a user’s own typos once it signs in: they never add up to a wait', async () => {
    const own = '203.0.113.41';
    for (let round = 0; round < 6; round++) {
      for (const typo of ['typo-1', 'typo-2', 'typo-3'])
        expect((await login(depot, 'guesser', typo, own)).statusCode).toBe(401);
      expect((await login(depot, 'guesser', 'guesser-pass-1', own)).statusCode).toBe(200);
    }
  });

  it('says Bad credentials, not more, to a wrong password', async () => {
    const response = await login(depot, 'user', 'wrong', '203.0.113.77');
    expect(response.json().errors[0].message).toBe(AUTH_MESSAGES.badCredentials);
  });
});
