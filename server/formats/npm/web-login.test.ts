import { describe, expect, it } from 'vitest';
import { NotFound } from '../../errors.ts';
import { createWebLogins, WEB_LOGIN_TTL_MS } from './web-login.ts';

describe("npm's web logins", () => {
  it('waits, then hands the token over once', async () => {
    const logins = createWebLogins();
    const { loginId, doneId } = logins.start('npm-local');
    expect(logins.poll(doneId)).toEqual({ state: 'pending' });
    expect(logins.describe(loginId)).toMatchObject({ repoKey: 'npm-local', state: 'pending' });
    await logins.approve(loginId, 'dev', async () => 'the-token');
    expect(logins.poll(doneId)).toEqual({ state: 'approved', token: 'the-token' });
    expect(logins.poll(doneId)).toBeUndefined();
    expect(() => logins.describe(loginId)).toThrow(NotFound);
  });

  it('tells a denial, and settles a login only once', async () => {
    const logins = createWebLogins();
    const { loginId, doneId } = logins.start('npm-local');
    logins.deny(loginId);
    expect(logins.poll(doneId)).toEqual({ state: 'denied' });
    await expect(logins.approve(loginId, 'dev', async () => 'late')).rejects.toThrow(
      'This npm login was already denied',
    );
  });

  it('forgets a login after ten minutes', () => {
    let now = 0;
    const logins = createWebLogins(() => now);
    const { loginId, doneId } = logins.start('npm-local');
    now = WEB_LOGIN_TTL_MS + 1;
    expect(logins.poll(doneId)).toBeUndefined();
    expect(() => logins.deny(loginId)).toThrow(NotFound);
  });

  it('keeps at most a thousand waiting, the oldest giving way', () => {
    const logins = createWebLogins();
    const first = logins.start('npm-local');
    for (let i = 0; i < 1000; i++) logins.start('npm-local');
    expect(logins.poll(first.doneId)).toBeUndefined();
  });
});
