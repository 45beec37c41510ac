import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
});
afterAll(() => depot.close());

const rest = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
  depot.app.inject({
    method,
    url: `/artifactory/api/security${path}`,
    headers: adminAuth(),
    payload: payload as object,
  });

describe('scripted users API', () => {
  it('creates with PUT (201), replaces with PUT (200), updates with POST, deletes', async () => {
    const created = await rest('PUT', '/users/ci-bot', {
      email: 'CI@Example.com',
      password: 'ci-bot-pass-1',
      groups: [],
    });
    expect(created.statusCode).toBe(201);
    const one = await rest('GET', '/users/ci-bot');
    expect(one.json()).toMatchObject({
      name: 'ci-bot',
      email: 'ci@example.com',
      admin: false,
      realm: 'internal',
      groups: [],
    });
    expect(one.json()).not.toHaveProperty('password');

    expect(
      (await rest('PUT', '/users/ci-bot', { email: 'ci2@example.com', password: 'ci-bot-pass-2' }))
        .statusCode,
    ).toBe(200);
    expect((await rest('POST', '/users/ci-bot', { disableUIAccess: true })).statusCode).toBe(200);
    expect((await rest('GET', '/users/ci-bot')).json()).toMatchObject({
      email: 'ci2@example.com',
      disableUIAccess: true,
    });

    const list = await rest('GET', '/users');
    expect(list.json()).toContainEqual({
      name: 'ci-bot',
      uri: 'http://localhost:80/artifactory/api/security/users/ci-bot',
      realm: 'internal',
    });

    const deleted = await rest('DELETE', '/users/ci-bot');
    expect(deleted.statusCode).toBe(200);
    expect(deleted.body).toBe("The user: 'ci-bot' has been removed successfully.");
    expect((await rest('GET', '/users/ci-bot')).statusCode).toBe(404);
  });

  it('refuses a body whose name disagrees with the path, and bad input', async () => {
    const mismatch = await rest('PUT', '/users/x1', {
      name: 'x2',
      email: 'x@example.com',
      password: 'x-pass-123',
    });
    expect(mismatch.statusCode).toBe(400);
    const badEmail = await rest('PUT', '/users/x1', { email: 'nope', password: 'x-pass-123' });
    expect(badEmail.json().errors[0].message).toBe('Please enter a valid email');
    expect((await rest('GET', '/users/x1')).statusCode).toBe(404);
  });

  it('is for admins only', async () => {
    await rest('PUT', '/users/viewer', { email: 'v@example.com', password: 'viewer-pass-1' });
    const response = await depot.app.inject({
      url: '/artifactory/api/security/users',
      headers: { authorization: basic('viewer', 'viewer-pass-1') },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('scripted groups API', () => {
  it('creates with members as userNames, reads with includeUsers, updates, deletes', async () => {
    await rest('PUT', '/users/member', { email: 'm@example.com', password: 'member-pass-1' });
    const created = await rest('PUT', '/groups/qa-team', {
      description: 'Read only',
      userNames: ['member'],
    });
    expect(created.statusCode).toBe(201);
    expect((await rest('GET', '/groups/qa-team')).json()).toEqual({
      name: 'qa-team',
      description: 'Read only',
      autoJoin: false,
      adminPrivileges: false,
      realm: 'internal',
    });
    expect((await rest('GET', '/groups/qa-team?includeUsers=true')).json().userNames).toEqual([
      'member',
    ]);
    expect((await rest('POST', '/groups/qa-team', { autoJoin: true })).statusCode).toBe(200);
    expect((await rest('GET', '/groups/qa-team')).json().autoJoin).toBe(true);
    expect((await rest('GET', '/groups')).json()).toContainEqual({
      name: 'qa-team',
      uri: 'http://localhost:80/artifactory/api/security/groups/qa-team',
    });
    expect((await rest('DELETE', '/groups/qa-team')).statusCode).toBe(200);
    expect((await rest('GET', '/groups/qa-team')).statusCode).toBe(404);
  });
});
