import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_MESSAGES } from '../server/modules/access-tokens/messages.ts';
import {
  adminAuth,
  basic,
  createMavenRepository,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * REST calls scripts and JFrog's clients make (issue 24, items 19 and 22): the legacy token
 * API, the versions search, PATCH of item properties, and the usage report.
 */
let depot: TestDepot;
const DEV = { authorization: basic('dev', 'dev-pass-1') };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

beforeAll(async () => {
  depot = await startTestDepot();
  await createMavenRepository(depot, 'libs-local', 'local');
  for (const version of ['1.0', '1.2', '1.10', '2.0-SNAPSHOT'])
    await deployFile(depot, 'libs-local', `org/acme/app/${version}/app-${version}.jar`);
  await deployFile(depot, 'libs-local', 'org/acme/other/3.0/other-3.0.jar');
  await deployFile(depot, 'libs-local', 'org/acme/sub/deep/9.9/deep-9.9.jar');
  await deployFile(depot, 'libs-local', 'org/acme/app/notes.txt');
  await createMavenRepository(depot, 'hidden-local', 'local');
  await deployFile(depot, 'hidden-local', 'com/example/app/7.0/app-7.0.jar');
  await createRepository(depot, 'props-local', 'local');
  await createRepository(depot, 'props-virtual', 'virtual', { repositories: ['props-local'] });
  await deployFile(depot, 'props-local', 'dir/a.txt');
  await deployFile(depot, 'props-local', 'dir/sub/b.txt');
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
    groups: [], // dev reads what dev-reads grants, no more
  });
  const target = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/v2/security/permissions/dev-reads',
    headers: adminAuth(),
    payload: {
      repo: {
        repositories: ['props-local', 'libs-local'],
        actions: { users: { dev: ['read'] }, groups: {} },
      },
    },
  });
  expect(target.statusCode).toBe(201);
});
afterAll(() => depot?.close());

const call = (method: string, url: string, headers: object, payload?: unknown) =>
  depot.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers },
    payload: payload as string,
  });

describe('the legacy token API (POST /api/security/token)', () => {
  it("creates a token in Artifactory's shape, an hour by default, that authenticates", async () => {
    const created = await call(
      'POST',
      '/artifactory/api/security/token',
      { ...DEV, ...FORM },
      'username=dev',
    );
    expect(created.statusCode, created.body).toBe(200);
    const body = created.json() as Record<string, unknown>;
    expect(body).toEqual({
      access_token: expect.stringMatching(/^eyJ/),
      expires_in: 3600,
      scope: 'member-of-groups:* api:*',
      token_type: 'Bearer',
    });
    const bearer = { authorization: `Bearer ${String(body.access_token)}` };
    const file = await call('GET', '/artifactory/props-local/dir/a.txt', bearer);
    expect(file.statusCode).toBe(200);
    // Listed and revoked through the legacy calls, and through the Access API alike.
    const listed = await call('GET', '/artifactory/api/security/token', DEV);
    const tokens = (listed.json() as { tokens: { token_id: string; subject: string }[] }).tokens;
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ subject: 'dev', refreshable: false, issuer: 'dev' });
    const access = await call('GET', '/access/api/v1/tokens', DEV);
    expect(JSON.stringify(access.json())).toContain(tokens[0]!.token_id);
    const revoked = await call(
      'POST',
      '/artifactory/api/security/token/revoke',
      { ...DEV, ...FORM },
      `token=${String(body.access_token)}`,
    );
    expect(revoked.statusCode).toBe(200);
    expect(revoked.body).toBe(TOKEN_MESSAGES.revoked);
    expect((await call('GET', '/artifactory/props-local/dir/a.txt', bearer)).statusCode).toBe(401);
    const again = await call(
      'POST',
      '/artifactory/api/security/token/revoke',
      { ...DEV, ...FORM },
      `token_id=${tokens[0]!.token_id}`,
    );
    expect(again.statusCode).toBe(404);
  });

  it('takes legacy group scopes and expires_in, under the Access API’s rules', async () => {
    await depot.services.groups.create({ name: 'ci-readers' });
    const grouped = await call(
      'POST',
      '/artifactory/api/security/token',
      { ...adminAuth(), ...FORM },
      'username=ci-bot&scope=member-of-groups:ci-readers%20api:*&expires_in=600',
    );
    expect(grouped.statusCode, grouped.body).toBe(200);
    expect(grouped.json()).toMatchObject({
      scope: 'member-of-groups:ci-readers api:*',
      expires_in: 600,
    });
    // A user may not mint a group-scoped token, nor one for somebody else.
    const wider = await call(
      'POST',
      '/artifactory/api/security/token',
      { ...DEV, ...FORM },
      'scope=member-of-groups:ci-readers',
    );
    expect(wider.statusCode).toBe(403);
    const other = await call(
      'POST',
      '/artifactory/api/security/token',
      { ...DEV, ...FORM },
      'username=admin',
    );
    expect(other.statusCode).toBe(403);
    const unknown = await call(
      'POST',
      '/artifactory/api/security/token',
      { ...DEV, ...FORM },
      'scope=everything',
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      errors: [{ message: TOKEN_MESSAGES.badLegacyScope('everything') }],
    });
  });

  it('mints no token that outlives the token asking, and refuses refresh with a reason', async () => {
    const short = await call(
      'POST',
      '/artifactory/api/security/token',
      { ...DEV, ...FORM },
      'expires_in=60',
    );
    const bearer = {
      authorization: `Bearer ${(short.json() as { access_token: string }).access_token}`,
    };
    const longer = await call(
      'POST',
      '/artifactory/api/security/token',
      { ...bearer, ...FORM },
      'expires_in=7200',
    );
    expect(longer.statusCode).toBe(403);
    // The legacy default (an hour) is cut to what the parent has left.
    const defaulted = await call(
      'POST',
      '/artifactory/api/security/token',
      { ...bearer, ...FORM },
      '',
    );
    expect(defaulted.statusCode, defaulted.body).toBe(200);
    expect((defaulted.json() as { expires_in: number }).expires_in).toBeLessThanOrEqual(60);
    const refresh = await call(
      'POST',
      '/artifactory/api/security/token',
      { ...DEV, ...FORM },
      'grant_type=refresh_token&refresh_token=abc&access_token=def',
    );
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json()).toMatchObject({ errors: [{ message: TOKEN_MESSAGES.notRefreshable }] });
    expect((await call('POST', '/artifactory/api/security/token', FORM, '')).statusCode).toBe(401);
  });
});

describe('GET /api/search/versions', () => {
  it('answers every version of g:a the caller may read, highest first, snapshots marked', async () => {
    const found = await call('GET', '/artifactory/api/search/versions?g=org.acme&a=app', DEV);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({
      results: [
        { version: '2.0-SNAPSHOT', integration: true },
        { version: '1.10', integration: false },
        { version: '1.2', integration: false },
        { version: '1.0', integration: false },
      ],
    });
    const pattern = await call(
      'GET',
      '/artifactory/api/search/versions?g=org.acme&a=app&v=1.*&repos=libs-local',
      DEV,
    );
    expect((pattern.json() as { results: unknown[] }).results).toHaveLength(3);
    const none = await call('GET', '/artifactory/api/search/versions?g=org.acme&a=missing', DEV);
    expect(none.statusCode).toBe(404);
  });

  it('leaves out g, a or both as Artifactory does: any group, any artifact, still filtered', async () => {
    const versions = async (query: string, headers: object = DEV) => {
      const answer = await call('GET', `/artifactory/api/search/versions?${query}`, headers);
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json() as { results: { version: string }[] }).results.map((r) => r.version);
    };
    // `app` in two groups: org.acme (libs-local) and com.example (hidden-local, not dev's)
    expect(await versions('a=app')).toEqual(['2.0-SNAPSHOT', '1.10', '1.2', '1.0']);
    expect(await versions('a=app', adminAuth())).toEqual([
      '7.0',
      '2.0-SNAPSHOT',
      '1.10',
      '1.2',
      '1.0',
    ]);
    // every artifact of a group, and not those of a group below it (org.acme.sub)
    expect(await versions('g=org.acme', adminAuth())).toEqual([
      '3.0',
      '2.0-SNAPSHOT',
      '1.10',
      '1.2',
      '1.0',
    ]);
    expect(await versions('g=org.acme&v=3.*')).toEqual(['3.0']);
    // neither: every version of the Maven layout the caller may read
    expect(await versions('v=*.0&repos=libs-local')).toEqual(['3.0', '1.0']);
    expect(await versions('', adminAuth())).toEqual([
      '9.9',
      '7.0',
      '3.0',
      '2.0-SNAPSHOT',
      '1.10',
      '1.2',
      '1.0',
    ]);
    const hidden = await call('GET', '/artifactory/api/search/versions?g=com.example', DEV);
    expect(hidden.statusCode).toBe(404);
  });
});

describe('PATCH /api/metadata/{path}', () => {
  const props = async (path: string) =>
    (
      (
        await call('GET', `/artifactory/api/storage/props-local/${path}?properties`, adminAuth())
      ).json() as {
        properties?: Record<string, string[]>;
      }
    ).properties ?? {};
  const patch = (path: string, body: unknown, headers: object = adminAuth()) =>
    call(
      'PATCH',
      `/artifactory/api/metadata/props-local/${path}`,
      { ...headers, 'content-type': 'application/json' },
      JSON.stringify(body),
    );

  it('sets, changes and removes properties, below a folder too unless recursiveProperties=0', async () => {
    const set = await patch('dir', { props: { stage: 'qa', os: ['linux', 'win'] } });
    expect(set.statusCode, set.body).toBe(204);
    expect(await props('dir/sub/b.txt')).toEqual({ os: ['linux', 'win'], stage: ['qa'] });
    const changed = await patch('dir?recursiveProperties=0', {
      props: { stage: 'prod', os: null },
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect(await props('dir')).toEqual({ stage: ['prod'] });
    expect(await props('dir/a.txt')).toEqual({ os: ['linux', 'win'], stage: ['qa'] });
    expect((await patch('dir/a.txt', { props: { release: '1,2' } })).statusCode).toBe(204);
    expect((await props('dir/a.txt')).release).toEqual(['1', '2']);
  });

  it('needs Annotate, refuses bad bodies and virtual repositories, and changes nothing then', async () => {
    const before = await props('dir/a.txt');
    expect((await patch('dir/a.txt', { props: { stage: 'x' } }, DEV)).statusCode).toBe(403);
    expect((await patch('dir/a.txt', { props: { 'a=b': 'x' } })).statusCode).toBe(400);
    expect((await patch('dir/a.txt', { props: { stage: 5 } })).statusCode).toBe(400);
    expect((await patch('dir/a.txt', { stage: 'x' })).statusCode).toBe(400);
    expect((await patch('dir/missing.txt', { props: { stage: 'x' } })).statusCode).toBe(404);
    const virtual = await call(
      'PATCH',
      '/artifactory/api/metadata/props-virtual/dir/a.txt',
      { ...adminAuth(), 'content-type': 'application/json' },
      JSON.stringify({ props: { stage: 'x' } }),
    );
    expect(virtual.statusCode).toBe(400);
    expect(await props('dir/a.txt')).toEqual(before);
  });
});

describe('POST /api/system/usage', () => {
  it("accepts JFrog clients' usage report and keeps nothing", async () => {
    const report = { productId: 'jfrog-client-js/2.0', features: [{ featureId: 'upload' }] };
    const answer = await call(
      'POST',
      '/artifactory/api/system/usage',
      { ...adminAuth(), 'content-type': 'application/json' },
      JSON.stringify(report),
    );
    expect(answer.statusCode).toBe(200);
  });
});
