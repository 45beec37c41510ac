import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, consoleSession, startTestDepot, type TestDepot } from './helpers/test-app.ts';

let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
});
afterAll(() => depot.close());

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  depot.app.inject({
    method,
    url: `/ui/api/v1${url}`,
    headers: adminAuth(),
    payload: payload as object,
  });

describe('users through the console calls', () => {
  it('creates, reads (email lowercased), lists and updates a user', async () => {
    const created = await api('POST', '/ui/users', {
      name: 'alice',
      email: 'Alice@Example.COM',
      password: 'alice-pass-1',
      groups: [],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'alice',
      email: 'alice@example.com',
      admin: false,
      realm: 'internal',
    });
    expect(created.json()).not.toHaveProperty('password');

    const listed = await api('GET', '/ui/users');
    expect(listed.body).not.toMatch(/scrypt|"password"|password_hash/);
    expect(listed.json().map((u: { name: string }) => u.name)).toEqual(['admin', 'alice']);

    const updated = await api('PUT', '/ui/users/alice', {
      email: 'alice@new.example.com',
      admin: true,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      email: 'alice@new.example.com',
      admin: true,
      profileUpdatable: true,
    });
    expect((await api('GET', '/ui/users/ALICE')).json().name).toBe('alice');
  });

  it('answers 409 for a duplicate name, whatever its case', async () => {
    const response = await api('POST', '/ui/users', {
      name: 'ALICE',
      email: 'a2@example.com',
      password: 'alice-pass-2',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().errors[0]).toMatchObject({
      message: "User 'ALICE' already exists",
      field: 'name',
    });
  });

  it.each([
    [
      { name: 'bob', email: 'not-an-email', password: 'bob-pass-1' },
      'Please enter a valid email',
      'email',
    ],
    [{ name: 'bob', password: 'bob-pass-1' }, 'You must fill in this field', 'email'],
    [
      { name: 'bob', email: 'b@example.com', password: 'bob-pass-1', shoeSize: 44 },
      "Unknown field 'shoeSize'",
      'shoeSize',
    ],
    [
      { name: 'bob', email: 'b@example.com', password: 'bob-pass-1', admin: 'yes' },
      'Please choose true or false',
      'admin',
    ],
    [
      { name: 'b'.repeat(65), email: 'b@example.com', password: 'bob-pass-1' },
      'Value may not exceed 64 symbols',
      'name',
    ],
    [
      { name: 'bob/../x', email: 'b@example.com', password: 'bob-pass-1' },
      'Name contains illegal characters',
      'name',
    ],
    [
      { name: 'bob', email: 'b@example.com', password: 'short' },
      'Password is not satisfy the policy',
      'password',
    ],
    [{ name: 'bob', email: 'b@example.com' }, 'You must fill in this field', 'password'],
    [
      { name: 'bob', email: 'b@example.com', password: 'bob-pass-1', groups: ['nope'] },
      "Group 'nope' does not exist",
      'groups',
    ],
  ])('refuses %j with "%s" on %s and writes nothing', async (body, message, field) => {
    const response = await api('POST', '/ui/users', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toMatchObject({ message, field });
    expect(await depot.services.users.exists('bob')).toBe(false);
  });

  it('answers malformed JSON with 400 and a clear message', async () => {
    const response = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/users',
      headers: { ...adminAuth(), 'content-type': 'application/json' },
      payload: '{"name": "x",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toMatch(/JSON/);
  });

  it('expires and unexpires a password', async () => {
    await api('POST', '/ui/users', {
      name: 'carol',
      email: 'c@example.com',
      password: 'carol-pass-1',
    });
    expect((await api('POST', '/ui/users/carol/expirePassword')).statusCode).toBe(200);
    expect((await api('GET', '/ui/users/carol')).json().passwordExpired).toBe(true);
    const login = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login',
      payload: { user: 'carol', password: 'carol-pass-1' },
    });
    expect(login.json().code).toBe('CREDENTIALS_EXPIRED');
    expect((await api('POST', '/ui/users/carol/unexpirePassword')).statusCode).toBe(200);
    expect((await api('GET', '/ui/users/carol')).json().passwordExpired).toBe(false);
    expect((await api('POST', '/ui/users/nobody/expirePassword')).statusCode).toBe(404);
  });

  it('keeps the signed-in admin from deleting itself or dropping its admin flag', async () => {
    const self = await api('POST', '/ui/users/userDelete', { userNames: ['admin'] });
    expect(self.statusCode).toBe(400);
    expect(self.json().errors[0].message).toBe('You cannot delete your own user');
    const demote = await api('PUT', '/ui/users/admin', { admin: false });
    expect(demote.statusCode).toBe(400);
    expect(demote.json().errors[0]).toMatchObject({
      message: 'You cannot remove your own admin privileges',
      field: 'admin',
    });
    expect((await api('GET', '/ui/users/admin')).json().admin).toBe(true);
  });

  it('deletes several users at once, or none when one is unknown', async () => {
    await api('POST', '/ui/users', {
      name: 'd1',
      email: 'd1@example.com',
      password: 'delete-pass-1',
    });
    await api('POST', '/ui/users', {
      name: 'd2',
      email: 'd2@example.com',
      password: 'delete-pass-1',
    });
    const partial = await api('POST', '/ui/users/userDelete', { userNames: ['d1', 'ghost'] });
    expect(partial.statusCode).toBe(404);
    expect(await depot.services.users.exists('d1')).toBe(true);
    const both = await api('POST', '/ui/users/userDelete', { userNames: ['d1', 'd2'] });
    expect(both.statusCode).toBe(200);
    expect(await depot.services.users.exists('d1')).toBe(false);
    expect(await depot.services.users.exists('d2')).toBe(false);
  });
});

describe('groups through the console calls', () => {
  it('creates a group with members and shows it on both sides', async () => {
    await api('POST', '/ui/users', {
      name: 'erin',
      email: 'erin@example.com',
      password: 'erin-pass-1',
    });
    const created = await api('POST', '/ui/groups', {
      name: 'developers',
      description: 'Devs',
      usersInGroup: ['erin'],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'developers',
      usersInGroup: ['erin'],
      autoJoin: false,
      realm: 'internal',
    });
    // readers: the auto-join group every install starts with (migration 0012)
    expect((await api('GET', '/ui/users/erin')).json().groups).toEqual(['developers', 'readers']);
    expect((await api('GET', '/ui/users/groups')).json()).toEqual([
      { groupName: 'developers', realm: 'internal', autoJoin: false },
      { groupName: 'readers', realm: 'internal', autoJoin: true },
    ]);
  });

  it('refuses a duplicate, an illegal name and an unknown member', async () => {
    expect((await api('POST', '/ui/groups', { name: 'Developers' })).statusCode).toBe(409);
    const illegal = await api('POST', '/ui/groups', { name: 'a|b' });
    expect(illegal.statusCode).toBe(400);
    expect(illegal.json().errors[0]).toMatchObject({
      message: 'Name contains illegal characters',
      field: 'name',
    });
    const ghost = await api('POST', '/ui/groups', { name: 'qa', usersInGroup: ['ghost'] });
    expect(ghost.json().errors[0]).toMatchObject({
      message: "User 'ghost' does not exist",
      field: 'usersInGroup',
    });
    expect(await depot.services.groups.exists('qa')).toBe(false);
  });

  it('makes members admins through a group with admin privileges', async () => {
    await api('POST', '/ui/users', {
      name: 'frank',
      email: 'f@example.com',
      password: 'frank-pass-1',
    });
    const asFrank = await consoleSession(depot, 'frank', 'frank-pass-1');
    expect(
      (await depot.app.inject({ url: '/ui/api/v1/ui/users', headers: asFrank.headers })).statusCode,
    ).toBe(403);
    await api('POST', '/ui/groups', {
      name: 'ops',
      adminPrivileges: true,
      usersInGroup: ['frank'],
    });
    expect(
      (await depot.app.inject({ url: '/ui/api/v1/ui/users', headers: asFrank.headers })).statusCode,
    ).toBe(200);
  });

  it('puts new users into auto-join groups', async () => {
    await api('POST', '/ui/groups', { name: 'everyone', autoJoin: true });
    const created = await api('POST', '/ui/users', {
      name: 'gina',
      email: 'g@example.com',
      password: 'gina-pass-1',
    });
    expect(created.json().groups).toEqual(['everyone', 'readers']);
  });

  it('updates description and members, then deletes groups', async () => {
    const updated = await api('PUT', '/ui/groups/developers', {
      description: 'All devs',
      usersInGroup: [],
    });
    expect(updated.json()).toMatchObject({ description: 'All devs', usersInGroup: [] });
    const deleted = await api('POST', '/ui/groups/delete', {
      groupNames: ['developers', 'everyone'],
    });
    expect(deleted.statusCode).toBe(200);
    expect((await api('GET', '/ui/groups/developers')).statusCode).toBe(404);
  });
});
