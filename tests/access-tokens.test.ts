import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_MESSAGES } from '../server/modules/access-tokens/messages.ts';
import { AUTH_MESSAGES } from '../server/modules/auth/messages.ts';
import * as tokenOwners from '../server/db/migrations/0023-token-owners.ts';
import {
  adminAuth,
  basic,
  consoleSession,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

let depot: TestDepot;
const DEV = { authorization: basic('dev', 'dev-pass-1') };
const TOKENS = '/access/api/v1/tokens';

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'team-local', 'local');
  await createRepository(depot, 'other-local', 'local');
  await deployFile(depot, 'team-local', 'a.txt', 'team a');
  await deployFile(depot, 'other-local', 'b.txt', 'other b');
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  });
  await depot.services.groups.create({ name: 'deployers' });
  const target = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/v2/security/permissions/deployers',
    headers: adminAuth(),
    payload: {
      repo: {
        repositories: ['team-local'],
        actions: { users: {}, groups: { deployers: ['write'] } },
      },
    },
  });
  expect(target.statusCode).toBe(201);
});
afterAll(() => depot.close());

function call(method: string, url: string, headers: object, payload?: unknown) {
  return depot.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers },
    payload: payload as string,
  });
}
async function createToken(headers: object, body: object = {}) {
  const response = await call('POST', TOKENS, headers, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    token_id: string;
    access_token: string;
    scope: string;
    expires_in?: number;
  };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('access tokens', () => {
  it('acts as its user with Bearer and as the password of basic auth, until revoked', async () => {
    const token = await createToken(DEV, { description: 'ci' });
    expect(token.scope).toBe('applied-permissions/user');
    expect(token.expires_in).toBe(365 * 24 * 3600);
    expect(
      (await call('GET', '/artifactory/team-local/a.txt', bearer(token.access_token))).body,
    ).toBe('team a');
    const asPassword = { authorization: basic('dev', token.access_token) };
    expect((await call('GET', '/artifactory/team-local/a.txt', asPassword)).statusCode).toBe(200);
    // the user's own permissions: readers may read, not deploy
    expect(
      (await call('PUT', '/artifactory/team-local/x.txt', bearer(token.access_token), 'x'))
        .statusCode,
    ).toBe(403);
    const wrongName = { authorization: basic('someone', token.access_token) };
    expect((await call('GET', '/artifactory/team-local/a.txt', wrongName)).statusCode).toBe(401);

    const listed = (await call('GET', TOKENS, DEV)).json().tokens;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      token_id: token.token_id,
      subject: 'dev',
      description: 'ci',
    });
    expect(JSON.stringify(listed)).not.toContain(token.access_token);

    expect((await call('DELETE', `${TOKENS}/${token.token_id}`, DEV)).statusCode).toBe(200);
    const revoked = await call('GET', '/artifactory/team-local/a.txt', bearer(token.access_token));
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().errors[0].message).toBe(TOKEN_MESSAGES.invalidToken);
    expect((await call('GET', TOKENS, DEV)).json().tokens).toEqual([]);
  });

  it('scopes a token to groups: their permissions only', async () => {
    const token = await createToken(adminAuth(), {
      username: 'ci-bot',
      scope: 'applied-permissions/groups:deployers',
      expires_in: 60,
    });
    const headers = bearer(token.access_token);
    expect((await call('PUT', '/artifactory/team-local/bot.txt', headers, 'bot')).statusCode).toBe(
      201,
    );
    expect((await call('PUT', '/artifactory/other-local/bot.txt', headers, 'bot')).statusCode).toBe(
      403,
    );
    // deployers may deploy (and so read) in team-local only; readers' grant does not apply
    expect((await call('GET', '/artifactory/other-local/b.txt', headers)).statusCode).toBe(403);
    const stored = await call('GET', '/artifactory/api/storage/team-local/bot.txt', adminAuth());
    expect(stored.json().createdBy).toBe('ci-bot');
  });

  it('lets only admins make tokens for others, of admin or group scope, or without expiry', async () => {
    const refused = async (body: object, message: string) => {
      const response = await call('POST', TOKENS, DEV, body);
      expect(response.statusCode).toBe(403);
      expect(response.json().errors[0].message).toBe(message);
    };
    await refused({ username: 'admin' }, TOKEN_MESSAGES.othersTokensOnlyForAdmins);
    await refused({ scope: 'applied-permissions/admin' }, TOKEN_MESSAGES.adminScopeOnly);
    await refused({ scope: 'applied-permissions/groups:deployers' }, TOKEN_MESSAGES.adminScopeOnly);
    await refused({ expires_in: 0 }, TOKEN_MESSAGES.adminScopeOnly);
    const admin = await createToken(adminAuth(), {
      scope: 'applied-permissions/admin',
      expires_in: 0,
    });
    expect(admin.expires_in).toBeUndefined();
    expect(
      (await call('GET', '/artifactory/api/v2/security/permissions', bearer(admin.access_token)))
        .statusCode,
    ).toBe(200);
    // An admin lists everyone's tokens, a user only its own.
    expect((await call('GET', TOKENS, adminAuth())).json().tokens.length).toBeGreaterThanOrEqual(2);
    expect((await call('GET', TOKENS, DEV)).json().tokens).toEqual([]);
    expect((await call('DELETE', `${TOKENS}/${admin.token_id}`, DEV)).statusCode).toBe(404);
  });

  it('refuses bad requests and forged or foreign tokens', async () => {
    const bad = async (body: object) => (await call('POST', TOKENS, adminAuth(), body)).statusCode;
    expect(await bad({ scope: 'everything' })).toBe(400);
    expect(await bad({ username: 'ghost' })).toBe(400);
    expect(await bad({ scope: 'applied-permissions/groups:nope', username: 'x' })).toBe(400);
    expect(await bad({ expires_in: 999_999_999_999 })).toBe(400);
    expect(await bad({ expires_in: -1 })).toBe(400);
    const form = await depot.app.inject({
      method: 'POST',
      url: TOKENS,
      headers: { ...DEV, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'expires_in=120&description=from+curl',
    });
    expect(form.statusCode, form.body).toBe(200);
    const { access_token: token } = form.json();
    const [header, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...claims, scp: 'applied-permissions/admin' }),
    ).toString('base64url');
    const signature = token.split('.')[2];
    expect((await call('GET', TOKENS, bearer(`${header}.${forged}.${signature}`))).statusCode).toBe(
      401,
    );
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expect((await call('GET', TOKENS, bearer(unsigned))).statusCode).toBe(401);
    expect((await call('GET', TOKENS, bearer('not-a-token'))).statusCode).toBe(401);
  });
});

describe('tokens minted by tokens', () => {
  const TEN_YEARS = 10 * 365 * 24 * 3600;
  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      exp?: number;
      scp: string;
      sub: string;
    };
  const refusedWith = async (headers: object, body: object, message: string | RegExp) => {
    const response = await call('POST', TOKENS, headers, body);
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json().errors[0].message).toMatch(message);
  };

  it('end no later than the token that asks', async () => {
    const parent = await createToken(DEV, { expires_in: 30 });
    const parentEnd = claimsOf(parent.access_token).exp!;
    for (const headers of [
      bearer(parent.access_token),
      { authorization: basic('dev', parent.access_token) },
    ]) {
      await refusedWith(headers, { expires_in: TEN_YEARS }, /expire no later than itself/);
      await refusedWith(headers, { expires_in: 31 }, /expire no later than itself/);
      await refusedWith(headers, { expires_in: 0 }, TOKEN_MESSAGES.adminScopeOnly);
      // Asked for nothing, it gets the default cut to the parent's end; refreshable changes nothing.
      for (const body of [{}, { refreshable: true }]) {
        const child = await createToken(headers, body);
        expect(child.expires_in).toBeGreaterThan(0);
        expect(child.expires_in).toBeLessThanOrEqual(30);
        expect(claimsOf(child.access_token).exp).toBeLessThanOrEqual(parentEnd);
        expect(child).not.toHaveProperty('refresh_token');
      }
      const shorter = await createToken(headers, { expires_in: 10 });
      expect(shorter.expires_in).toBe(10);
    }
    // An admin's token is bound the same way, and may not make one that never expires.
    const adminToken = await createToken(adminAuth(), {
      scope: 'applied-permissions/admin',
      expires_in: 60,
    });
    const asAdminToken = bearer(adminToken.access_token);
    await refusedWith(asAdminToken, { username: 'dev', expires_in: TEN_YEARS }, /no later/);
    await refusedWith(
      asAdminToken,
      { scope: 'applied-permissions/admin', expires_in: 0 },
      /no later/,
    );
    const forDev = await createToken(asAdminToken, { username: 'dev' });
    expect(claimsOf(forDev.access_token).exp).toBeLessThanOrEqual(
      claimsOf(adminToken.access_token).exp!,
    );
    // A password sign-in is not bound by any token.
    expect((await createToken(DEV, { expires_in: TEN_YEARS })).expires_in).toBe(TEN_YEARS);
  });

  it('reach no further than the token that asks', async () => {
    // A group-scoped token named after a real user acts with its groups only, and so do its children.
    const grouped = await createToken(adminAuth(), {
      username: 'dev',
      scope: 'applied-permissions/groups:deployers',
      expires_in: 600,
    });
    const asGrouped = bearer(grouped.access_token);
    await refusedWith(
      asGrouped,
      { scope: 'applied-permissions/user' },
      TOKEN_MESSAGES.widerThanParent,
    );
    await refusedWith(
      asGrouped,
      { scope: 'applied-permissions/admin' },
      TOKEN_MESSAGES.adminScopeOnly,
    );
    await refusedWith(
      asGrouped,
      { scope: 'applied-permissions/groups:deployers,readers' },
      TOKEN_MESSAGES.adminScopeOnly,
    );
    const child = await createToken(asGrouped, {});
    expect(child.scope).toBe('applied-permissions/groups:deployers');
    const asChild = bearer(child.access_token);
    // dev itself may read other-local through readers; the group-scoped child may not.
    expect((await call('GET', '/artifactory/other-local/b.txt', DEV)).statusCode).toBe(200);
    expect((await call('GET', '/artifactory/other-local/b.txt', asChild)).statusCode).toBe(403);
    expect((await call('PUT', '/artifactory/team-local/child.txt', asChild, 'c')).statusCode).toBe(
      201,
    );
    // A user's token makes user tokens of that user only.
    const own = bearer((await createToken(DEV, { expires_in: 600 })).access_token);
    await refusedWith(own, { username: 'admin' }, TOKEN_MESSAGES.othersTokensOnlyForAdmins);
    await refusedWith(
      own,
      { scope: 'applied-permissions/groups:deployers' },
      TOKEN_MESSAGES.adminScopeOnly,
    );
  });
});

describe('expired and foreign tokens', () => {
  it('refuses a token once it has expired, as Bearer and as a password', async () => {
    const { access_token: token } = await createToken(DEV, { expires_in: 1 });
    expect((await call('GET', '/artifactory/team-local/a.txt', bearer(token))).statusCode).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await call('GET', '/artifactory/team-local/a.txt', bearer(token))).statusCode).toBe(
      401,
    );
    const asPassword = { authorization: basic('dev', token) };
    expect((await call('GET', '/artifactory/team-local/a.txt', asPassword)).statusCode).toBe(401);
  });

  it('refuses a token signed with another key, whatever it claims', async () => {
    const { access_token: token } = await createToken(DEV);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(randomBytes(32));
    expect((await call('GET', TOKENS, bearer(foreign))).statusCode).toBe(401);
    expect((await call('GET', TOKENS, bearer(token))).statusCode).toBe(200);
  });
});

describe('API keys', () => {
  it('are shown, created and regenerated only after a password sign-in, not with a token or a key', async () => {
    const token = bearer((await createToken(DEV, { expires_in: 60 })).access_token);
    const keyUrls = ['/ui/api/v1/ui/userApiKey', '/artifactory/api/security/apiKey'];
    for (const url of keyUrls)
      for (const method of ['GET', 'POST', 'PUT']) {
        const response = await call(method, url, token);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json().errors[0].message).toBe(AUTH_MESSAGES.passwordSignInRequired);
      }
    expect((await call('GET', '/ui/api/v1/ui/userApiKey', DEV)).json()).toEqual({});
    const key: string = (await call('POST', '/ui/api/v1/ui/userApiKey', DEV)).json().apiKey;
    for (const headers of [{ 'x-jfrog-art-api': key }, { authorization: basic('dev', key) }])
      for (const method of ['GET', 'PUT']) {
        const response = await call(method, '/artifactory/api/security/apiKey', headers);
        expect(response.statusCode, method).toBe(403);
      }
    expect((await call('GET', '/ui/api/v1/ui/userApiKey', DEV)).json()).toEqual({ apiKey: key });
    // Revoking grants nothing: a token may.
    expect((await call('DELETE', '/ui/api/v1/ui/userApiKey', token)).statusCode).toBe(200);
    expect((await call('GET', '/ui/api/v1/ui/userApiKey', DEV)).json()).toEqual({});
  });

  it('lets a token change no password or second factor of its own user, an admin’s token another user’s', async () => {
    const adminToken = bearer(
      (await createToken(adminAuth(), { scope: 'applied-permissions/user', expires_in: 60 }))
        .access_token,
    );
    const ownPassword = [
      ['PUT', '/ui/api/v1/ui/users/admin'],
      ['POST', '/artifactory/api/security/users/admin'],
    ] as const;
    for (const [method, url] of ownPassword) {
      const response = await call(method, url, adminToken, { password: 'taken-over-1' });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().errors[0].message).toBe(AUTH_MESSAGES.passwordSignInRequired);
    }
    expect((await call('GET', '/artifactory/api/system/version', adminAuth())).statusCode).toBe(
      200,
    );
    // The admin's own email is no credential; another user's password is the admin's to set.
    expect(
      (await call('PUT', '/ui/api/v1/ui/users/admin', adminToken, { email: 'root@example.com' }))
        .statusCode,
    ).toBe(200);
    await depot.services.users.create({
      name: 'temp',
      email: 't@example.com',
      password: 'temp-pass-1',
    });
    const reset = await call('POST', '/artifactory/api/security/users/temp', adminToken, {
      password: 'temp-pass-2',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const tempBasic = { authorization: basic('temp', 'temp-pass-2') };
    expect((await call('GET', '/artifactory/api/system/version', tempBasic)).statusCode).toBe(200);

    const devToken = bearer((await createToken(DEV, { expires_in: 60 })).access_token);
    for (const [method, url, body] of [
      ['GET', '/ui/api/v1/auth/mfa/enroll', undefined],
      ['POST', '/ui/api/v1/auth/mfa/enroll', { otp: '123456' }],
      ['POST', '/ui/api/v1/auth/mfa/remove', { otp: '123456' }],
      ['POST', '/ui/api/v1/auth/mfa/resetMfaStatus/admin', undefined],
    ] as const) {
      const headers = url.endsWith('/admin') ? adminToken : devToken;
      const response = await call(method, url, headers, body);
      expect(response.statusCode, url).toBe(403);
      expect(response.json().errors[0].message).toBe(AUTH_MESSAGES.passwordSignInRequired);
    }
    expect((await call('GET', '/ui/api/v1/auth/mfa/enroll', DEV)).statusCode).toBe(200);
  });

  it('creates, shows, authenticates, regenerates and revokes the caller’s key', async () => {
    const created = await call('POST', '/ui/api/v1/ui/userApiKey', DEV);
    expect(created.statusCode).toBe(201);
    const key: string = created.json().apiKey;
    expect(key).toMatch(/^AKCp/);
    expect((await call('POST', '/ui/api/v1/ui/userApiKey', DEV)).statusCode).toBe(409);
    expect((await call('GET', '/artifactory/api/security/apiKey', DEV)).json()).toEqual({
      apiKey: key,
    });
    expect(
      (await call('GET', '/artifactory/team-local/a.txt', { 'x-jfrog-art-api': key })).statusCode,
    ).toBe(200);
    expect(
      (await call('GET', '/artifactory/team-local/a.txt', { authorization: basic('dev', key) }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call('GET', '/artifactory/team-local/a.txt', { authorization: basic('admin', key) }))
        .statusCode,
    ).toBe(401);

    const regenerated = (await call('PUT', '/artifactory/api/security/apiKey', DEV)).json().apiKey;
    expect(regenerated).not.toBe(key);
    expect(
      (await call('GET', '/artifactory/team-local/a.txt', { 'x-jfrog-art-api': key })).statusCode,
    ).toBe(401);
    expect((await call('HEAD', '/ui/api/v1/ui/userApiKey/dev', adminAuth())).statusCode).toBe(200);
    expect((await call('DELETE', '/ui/api/v1/ui/deleteApiKeyForUser/dev', DEV)).statusCode).toBe(
      403,
    );
    expect(
      (await call('DELETE', '/ui/api/v1/ui/deleteApiKeyForUser/dev', adminAuth())).statusCode,
    ).toBe(200);
    expect((await call('HEAD', '/ui/api/v1/ui/userApiKey/dev', adminAuth())).statusCode).toBe(404);
    expect(
      (await call('GET', '/artifactory/team-local/a.txt', { 'x-jfrog-art-api': regenerated }))
        .statusCode,
    ).toBe(401);
    expect((await call('GET', '/ui/api/v1/ui/userApiKey', DEV)).json()).toEqual({});
  });
});

describe('credentials of a deleted user', () => {
  it('die with it, and never reach a new user of the same name, an admin even', async () => {
    await depot.services.users.create({
      name: 'leaver',
      email: 'leaver@example.com',
      password: 'leaver-pass-1',
    });
    const leaver = { authorization: basic('leaver', 'leaver-pass-1') };
    const userToken = (await createToken(leaver, { expires_in: 3600 })).access_token;
    const adminScoped = (
      await createToken(adminAuth(), { username: 'leaver', scope: 'applied-permissions/admin' })
    ).access_token;
    const groupScoped = (
      await createToken(adminAuth(), {
        username: 'leaver',
        scope: 'applied-permissions/groups:deployers',
      })
    ).access_token;
    const apiKey: string = (await call('POST', '/ui/api/v1/ui/userApiKey', leaver)).json().apiKey;
    const session = await consoleSession(depot, 'leaver', 'leaver-pass-1');
    const credentials = {
      'user token': bearer(userToken),
      'user token as password': { authorization: basic('leaver', userToken) },
      'admin-scoped token': bearer(adminScoped),
      'group-scoped token': bearer(groupScoped),
      'API key': { 'x-jfrog-art-api': apiKey },
      'API key as password': { authorization: basic('leaver', apiKey) },
      session: { cookie: session.headers.cookie },
    };
    for (const [what, headers] of Object.entries(credentials))
      expect((await call('GET', '/ui/api/v1/ui/auth/current', headers)).json().name, what).toBe(
        'leaver',
      );

    const deleted = await call('DELETE', '/artifactory/api/security/users/leaver', adminAuth());
    expect(deleted.statusCode).toBe(200);
    await depot.services.users.create({
      name: 'Leaver',
      email: 'new-leaver@example.com',
      password: 'other-pass-2',
      admin: true,
    });
    for (const [what, headers] of Object.entries(credentials)) {
      const admins = await call('GET', '/artifactory/api/security/users', headers);
      expect(admins.statusCode, what).toBe(401);
      const current = await call('GET', '/ui/api/v1/ui/auth/current', headers);
      expect(current.json().anonymous, what).toBe(true);
    }
    const remaining = await depot.db
      .selectFrom('access_tokens')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['subject']), '=', 'leaver'))
      .execute();
    expect(remaining).toEqual([]);
    // The new user's own password works, and so do tokens made for it.
    const newcomer = { authorization: basic('Leaver', 'other-pass-2') };
    expect((await call('GET', '/artifactory/api/security/users', newcomer)).statusCode).toBe(200);
    const fresh = bearer((await createToken(newcomer)).access_token);
    expect((await call('GET', '/ui/api/v1/ui/auth/current', fresh)).json()).toMatchObject({
      name: 'Leaver',
      admin: true,
    });
  });
});

describe('tokens issued before they were bound to their user (migration 0023)', () => {
  let older: TestDepot;
  beforeAll(async () => {
    older = await startTestDepot();
  });
  afterAll(() => older.close());

  it('binds each to the user of its name that exists now, and revokes a user token whose user is gone', async () => {
    const { db } = older.services;
    await older.services.users.create({
      name: 'kept',
      email: 'k@example.com',
      password: 'kept-pass-1',
    });
    // The table as it was before the migration, holding the tokens it could hold.
    await sql`drop index access_tokens_user`.execute(db);
    await sql`alter table access_tokens drop column user_id`.execute(db);
    const rows = [
      ['t-kept', 'Kept', 'applied-permissions/user'],
      ['t-kept-groups', 'kept', 'applied-permissions/groups:readers'],
      ['t-gone', 'gone', 'applied-permissions/user'],
      ['t-bot', 'ci-bot', 'applied-permissions/groups:readers'],
    ];
    for (const [id, subject, scope] of rows)
      await sql`insert into access_tokens (id, subject, scope, issued_by)
        values (${id}, ${subject}, ${scope}, 'admin')`.execute(db);

    await tokenOwners.up(db as never);

    const after = await sql<{ id: string; user_id: number | null; revoked: boolean }>`
      select id, user_id, revoked_at is not null as revoked from access_tokens order by id`.execute(
      db,
    );
    const keptId = await older.services.users.findId('kept');
    expect(after.rows).toEqual([
      { id: 't-bot', user_id: null, revoked: false },
      { id: 't-gone', user_id: null, revoked: true },
      { id: 't-kept', user_id: keptId, revoked: false },
      { id: 't-kept-groups', user_id: keptId, revoked: false },
    ]);
    await older.services.users.deleteMany(['kept'], { name: 'admin' });
    const left = await sql<{ id: string }>`select id from access_tokens order by id`.execute(db);
    expect(left.rows.map((row) => row.id)).toEqual(['t-bot', 't-gone']);
  });
});
