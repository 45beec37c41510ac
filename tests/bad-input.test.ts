import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, consoleSession, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/** No user mistake ends in a 500, and nothing is written when a request is refused. */
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
});
afterAll(() => depot.close());

type Case = {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers?: Record<string, string>;
  payload?: string | object;
};

const json = { 'content-type': 'application/json' };
const cases: Case[] = [
  {
    name: 'truncated JSON',
    method: 'POST',
    url: '/ui/api/v1/ui/users',
    headers: json,
    payload: '{"name":',
  },
  {
    name: 'JSON array for an object',
    method: 'POST',
    url: '/ui/api/v1/ui/users',
    headers: json,
    payload: '[1,2]',
  },
  {
    name: 'JSON null body',
    method: 'POST',
    url: '/ui/api/v1/ui/groups',
    headers: json,
    payload: 'null',
  },
  {
    name: 'text body on a JSON route',
    method: 'POST',
    url: '/ui/api/v1/ui/groups',
    headers: { 'content-type': 'text/plain' },
    payload: 'name=x',
  },
  {
    name: 'body over the limit',
    method: 'POST',
    url: '/ui/api/v1/ui/groups',
    headers: json,
    payload: JSON.stringify({ name: 'big', description: 'x'.repeat(2 * 1024 * 1024) }),
  },
  {
    name: 'over-long description',
    method: 'POST',
    url: '/ui/api/v1/ui/groups',
    headers: json,
    payload: { name: 'g', description: 'x'.repeat(1025) },
  },
  {
    name: 'number for a string',
    method: 'POST',
    url: '/ui/api/v1/ui/groups',
    headers: json,
    payload: { name: 42 },
  },
  {
    name: 'members not a list',
    method: 'POST',
    url: '/ui/api/v1/ui/groups',
    headers: json,
    payload: { name: 'g', usersInGroup: 'admin' },
  },
  {
    name: 'over-long name in the path',
    method: 'GET',
    url: `/ui/api/v1/ui/users/${'a'.repeat(200)}`,
  },
  { name: 'broken percent-encoding', method: 'GET', url: '/ui/api/v1/ui/users/%E0%A4%A' },
  {
    name: 'prototype pollution attempt',
    method: 'POST',
    url: '/ui/api/v1/ui/groups',
    headers: json,
    payload: '{"name":"p","__proto__":{"admin":true}}',
  },
  {
    name: 'empty delete list',
    method: 'POST',
    url: '/ui/api/v1/ui/users/userDelete',
    headers: json,
    payload: { userNames: [] },
  },
  {
    name: 'unlock with an object',
    method: 'POST',
    url: '/ui/api/v1/ui/securityconfig/unlockUsers',
    headers: json,
    payload: { users: ['a'] },
  },
  {
    name: 'lock policy of zero attempts',
    method: 'PUT',
    url: '/ui/api/v1/ui/securityconfig',
    headers: json,
    payload: { userLockPolicy: { loginAttempts: 0 } },
  },
  {
    name: 'login without a password',
    method: 'POST',
    url: '/ui/api/v1/ui/auth/login',
    headers: json,
    payload: { user: 'admin' },
  },
  {
    name: 'REST user with an unknown field',
    method: 'PUT',
    url: '/artifactory/api/security/users/x',
    headers: json,
    payload: { email: 'x@example.com', password: 'x-pass-123', shoe: 1 },
  },
];

describe('bad input', () => {
  it.each(cases)(
    'answers $name with a 4xx error body',
    async ({ method, url, headers, payload }) => {
      const response = await depot.app.inject({
        method,
        url,
        headers: { ...adminAuth(), ...headers },
        payload,
      });
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, response.body).toBeLessThan(500);
      expect(response.json().errors[0].message).toMatch(/\S/);
    },
  );

  it('wrote nothing for any of them', async () => {
    // Only the group every install starts with (migration 0012)
    expect((await depot.services.groups.list()).map((g) => g.name)).toEqual(['readers']);
    expect((await depot.services.users.list()).map((u) => u.name)).toEqual(['admin']);
    expect((await depot.services.securityConfig.get()).userLockPolicy.loginAttempts).toBe(5);
  });

  it('treats a forged or stale session cookie as no session', async () => {
    const response = await depot.app.inject({
      url: '/ui/api/v1/ui/auth/current',
      headers: { cookie: 'depot_session=forged-token-value' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().anonymous).toBe(true);
  });

  it('refuses a CSRF token from another session', async () => {
    const first = await consoleSession(depot, 'admin', 'admin-secret-1');
    const second = await consoleSession(depot, 'admin', 'admin-secret-1');
    const response = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/groups',
      headers: { cookie: first.headers.cookie, 'x-csrf-token': second.headers['x-csrf-token'] },
      payload: { name: 'cross' },
    });
    expect(response.statusCode).toBe(403);
    expect(await depot.services.groups.exists('cross')).toBe(false);
  });
});
