import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_MESSAGES } from '../server/modules/access-control/messages.ts';
import { insertPermissionTarget } from '../server/modules/access-control/queries.ts';
import { ILLEGAL_NAME_MESSAGE } from '../server/schemas/validation-wording.ts';
import {
  adminAuth,
  basic,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

let depot: TestDepot;
const BASE = '/artifactory/api/v2/security/permissions';
const DEV = { authorization: basic('dev', 'dev-password-1') };

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'libs-local', 'local');
  await createRepository(depot, 'central', 'remote', { url: 'http://127.0.0.1:9/' });
  await createRepository(depot, 'all-libs', 'virtual', { repositories: ['libs-local'] });
  await deployFile(depot, 'libs-local', 'org/acme/app.jar');
  const { users, groups } = depot.services;
  await users.create({ name: 'dev', email: 'dev@example.com', password: 'dev-password-1' });
  await users.create({
    name: 'boss',
    email: 'boss@example.com',
    password: 'x-pass-1',
    admin: true,
  });
  await groups.create({ name: 'team', usersInGroup: ['dev'] });
});
afterAll(() => depot.close());

function rest(method: string, url: string, payload?: object, headers: object = adminAuth()) {
  return depot.app.inject({ method: method as 'GET', url, payload, headers: { ...headers } });
}

const target = {
  repo: {
    'include-patterns': ['org/**'],
    repositories: ['libs-local', 'central'],
    actions: { users: { dev: ['write'] }, groups: { team: ['annotate'] } },
  },
};

describe('permission targets over the v2 REST API', () => {
  it('creates, reads with defaults and implied actions, replaces, lists and deletes', async () => {
    expect((await rest('POST', `${BASE}/deployers`, target)).statusCode).toBe(201);
    const again = await rest('POST', `${BASE}/deployers`, target);
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].message).toBe(ACCESS_MESSAGES.nameExists);

    const read = await rest('GET', `${BASE}/deployers`);
    expect(read.json()).toEqual({
      name: 'deployers',
      repo: {
        'include-patterns': ['org/**'],
        'exclude-patterns': [],
        repositories: ['libs-local', 'central-cache'],
        actions: {
          users: { dev: ['read', 'annotate', 'write'] },
          groups: { team: ['read', 'annotate'] },
        },
      },
    });

    const replaced = await rest('PUT', `${BASE}/deployers`, {
      name: 'deployers',
      build: { actions: { users: { dev: ['read'] }, groups: {} } },
    });
    expect(replaced.statusCode).toBe(200);
    expect((await rest('GET', `${BASE}/deployers`)).json()).toEqual({
      name: 'deployers',
      build: {
        'include-patterns': ['**'],
        'exclude-patterns': [],
        repositories: ['artifactory-build-info'],
        actions: { users: { dev: ['read'] }, groups: {} },
      },
    });
    expect((await rest('PUT', `${BASE}/new+one`, target)).statusCode).toBe(201);

    const names = (await rest('GET', BASE)).json().map((t: { name: string }) => t.name);
    expect(names).toEqual(['Any Remote', 'Anything', 'deployers', 'new one']);
    const ofDev = (await rest('GET', `${BASE}/users/dev`)).json();
    expect(ofDev.map((t: { name: string }) => t.name)).toEqual(['deployers', 'new one']);
    expect(ofDev[1].repo.actions).toEqual(['read', 'annotate', 'write']);

    const removed = await rest('DELETE', `${BASE}/deployers`);
    expect(removed.body).toBe(ACCESS_MESSAGES.removed('deployers'));
    expect((await rest('GET', `${BASE}/deployers`)).statusCode).toBe(404);
    expect((await rest('DELETE', `${BASE}/deployers`)).statusCode).toBe(404);
    await rest('DELETE', `${BASE}/new+one`);
  });

  it('refuses bad targets with a message naming what is wrong, and keeps nothing', async () => {
    const refused = async (name: string, body: object, message: string) => {
      const response = await rest('PUT', `${BASE}/${name}`, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errors[0].message).toBe(message);
      expect((await rest('GET', `${BASE}/${name}`)).statusCode).toBe(404);
    };
    const repo = (over: object) => ({ repo: { ...target.repo, ...over } });
    await refused('%20', target, ACCESS_MESSAGES.nameEmpty);
    await refused(
      'bad',
      repo({ repositories: ['nope'] }),
      ACCESS_MESSAGES.unknownRepository('nope'),
    );
    await refused(
      'bad',
      repo({ repositories: ['all-libs'] }),
      ACCESS_MESSAGES.virtualRepository('all-libs'),
    );
    await refused(
      'bad',
      repo({ actions: { users: { boss: ['read'] }, groups: {} } }),
      ACCESS_MESSAGES.adminPrincipal('boss'),
    );
    await refused(
      'bad',
      repo({ actions: { users: { ghost: ['read'] }, groups: {} } }),
      ACCESS_MESSAGES.unknownUser('ghost'),
    );
    await refused(
      'bad',
      repo({ actions: { users: { dev: ['fly'] }, groups: {} } }),
      ACCESS_MESSAGES.unknownAction('fly'),
    );
    await refused(
      'bad',
      repo({ 'include-patterns': ['/org/**'] }),
      ACCESS_MESSAGES.leadingSlash('/org/**'),
    );
    await refused('bad', { name: 'other', ...target }, ACCESS_MESSAGES.nameDiffers('other', 'bad'));
  });

  it('keeps destinations, pipeline sources and Xray sources, each with its own actions', async () => {
    const sections = {
      destination: {
        destinationRules: [
          { siteName: 'edge-eu', cityName: '*', countryCodes: ['de', 'FR', 'de'] },
          { siteName: '', countryCodes: [] },
        ],
        actions: { users: { dev: ['delete'] }, groups: {} },
      },
      pipelineSource: {
        'include-patterns': ['team/**'],
        actions: { users: {}, groups: { team: ['trigger'] } },
      },
      xraySource: {
        targets: ['git-repo-a', ' git-repo-a '],
        actions: { users: { dev: ['managedXrayMeta'] }, groups: {} },
      },
    };
    const put = await rest('PUT', `${BASE}/distribution`, sections);
    expect(put.statusCode, put.body).toBe(201);
    const stored = (await rest('GET', `${BASE}/distribution`)).json();
    expect(stored).toEqual({
      name: 'distribution',
      destination: {
        destinationRules: [
          { siteName: 'edge-eu', cityName: '*', countryCodes: ['DE', 'FR'] },
          { siteName: '*', cityName: '*', countryCodes: ['*'] },
        ],
        // each action implies those before it in its section's list (spec 01 §3)
        actions: { users: { dev: ['distribute', 'delete'] }, groups: {} },
      },
      pipelineSource: {
        'include-patterns': ['team/**'],
        'exclude-patterns': [],
        actions: { users: {}, groups: { team: ['read', 'trigger'] } },
      },
      xraySource: {
        targets: ['git-repo-a'],
        actions: { users: { dev: ['read', 'managedXrayMeta'] }, groups: {} },
      },
    });
    // the principals they name are listed with the target
    const search = await rest('POST', '/ui/api/v1/access/permissions/search', {
      searchStr: 'distri',
    });
    expect(search.json()).toEqual([
      { name: 'distribution', repositories: [], users: ['dev'], groups: ['team'] },
    ]);
    // an action of another section, and a country not on the list, are refused
    const wrongAction = await rest('PUT', `${BASE}/distribution`, {
      pipelineSource: { actions: { users: { dev: ['distribute'] }, groups: {} } },
    });
    expect(wrongAction.json().errors[0].message).toBe(ACCESS_MESSAGES.unknownAction('distribute'));
    const wrongCountry = await rest('PUT', `${BASE}/distribution`, {
      destination: {
        destinationRules: [{ countryCodes: ['EU'] }],
        actions: { users: {}, groups: {} },
      },
    });
    expect(wrongCountry.statusCode).toBe(400);
    expect(wrongCountry.json().errors[0].message).toBe(ACCESS_MESSAGES.unknownCountry('EU'));
    expect((await rest('GET', `${BASE}/distribution`)).json().xraySource.targets).toEqual([
      'git-repo-a',
    ]);
    expect((await rest('DELETE', `${BASE}/distribution`)).statusCode).toBeLessThan(300);
  });

  it('offers the country list for destination rules', async () => {
    const response = await rest('GET', '/ui/api/v1/ui/permissiontargets/countries');
    expect(response.statusCode).toBe(200);
    const countries: { name: string; code: string }[] = response.json();
    expect(countries.length).toBeGreaterThan(240);
    expect(countries).toContainEqual({ name: 'Germany', code: 'DE' });
    expect(countries).toContainEqual({ name: 'Japan', code: 'JP' });
    expect(countries.map((c) => c.code)).not.toContain('EU');
    expect(countries.every((c) => /^[A-Z]{2}$/.test(c.code))).toBe(true);
    expect(
      (await rest('GET', '/ui/api/v1/ui/permissiontargets/countries', undefined, {})).statusCode,
    ).toBe(401);
  });

  it('is for admins only', async () => {
    expect((await rest('GET', BASE, undefined, DEV)).statusCode).toBe(403);
    expect((await rest('PUT', `${BASE}/mine`, target, DEV)).statusCode).toBe(403);
    expect((await rest('GET', BASE, undefined, {})).statusCode).toBe(401);
  });
});

describe("a permission target's name (spec 01 §5: no / \\ : | ? < > * or quote)", () => {
  const UI = '/ui/api/v1';
  const BAD = 'Bad value /*?<>|';

  it('refuses a new one holding those characters, over REST and from the console, and keeps nothing', async () => {
    const fromConsole = await rest('POST', `${UI}/access/permissions`, { name: BAD, ...target });
    expect(fromConsole.statusCode).toBe(400);
    expect(fromConsole.json().errors[0]).toMatchObject({
      message: ILLEGAL_NAME_MESSAGE,
      field: 'name',
    });
    for (const name of ['a:b', 'a*b', 'a|b', 'a<b>', 'a"b', 'a\\b', 'a?b', 'a/b']) {
      const url = `${BASE}/${encodeURIComponent(name)}`;
      for (const method of ['POST', 'PUT']) {
        const response = await rest(method, url, target);
        expect(response.statusCode, `${method} ${name}: ${response.body}`).toBe(400);
        expect(response.json().errors[0].message).toBe(ILLEGAL_NAME_MESSAGE);
      }
    }
    const names = (await rest('GET', BASE)).json().map((t: { name: string }) => t.name);
    expect(names.filter((name: string) => /[/\\:|?<>*"]/.test(name))).toEqual([]);
    // Spaces, dots, dashes, @ and underscores stay allowed (Artifactory's own "Any Remote").
    const fine = await rest('PUT', `${BASE}/${encodeURIComponent('Team A_1.x-@ci')}`, target);
    expect(fine.statusCode, fine.body).toBe(201);
    expect(
      (await rest('DELETE', `${BASE}/${encodeURIComponent('Team A_1.x-@ci')}`)).statusCode,
    ).toBe(200);
  });

  it('still opens, saves and deletes one stored before the rule', async () => {
    // As a restore of an older Depot's backup writes it: straight to the table.
    await insertPermissionTarget(depot.db, {
      name: 'legacy:one',
      repo: { ...target.repo, 'exclude-patterns': [] },
    });
    const opened = await rest(
      'GET',
      `${UI}/access/permissions/${encodeURIComponent('legacy:one')}`,
    );
    expect(opened.statusCode, opened.body).toBe(200);
    const saved = await rest(
      'PUT',
      `${UI}/access/permissions/${encodeURIComponent('legacy:one')}`,
      {
        name: 'legacy:one',
        repo: { ...target.repo, 'include-patterns': ['com/**'] },
      },
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const overRest = await rest('PUT', `${BASE}/${encodeURIComponent('legacy:one')}`, target);
    expect(overRest.statusCode, overRest.body).toBe(200);
    const deleted = await rest('POST', `${UI}/access/permissions/delete`, {
      names: ['legacy:one'],
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
  });
});

describe('the default target', () => {
  it('lets a new user read everything through the auto-join readers group', async () => {
    const user = await depot.services.users.get('dev');
    expect(user.groups).toContain('readers');
    const access = await depot.services.access.forPrincipal({
      userId: (
        await depot.services.db
          .selectFrom('users')
          .select('id')
          .where('name', '=', 'dev')
          .executeTakeFirstOrThrow()
      ).id,
      name: 'dev',
      admin: false,
      anonymous: false,
      via: 'basic',
    });
    expect(access.can('read', 'libs-local', 'org/acme/app.jar')).toBe(true);
    expect(access.can('deploy', 'libs-local', 'org/acme/app.jar')).toBe(false);
    expect(access.readableRepoKeys()).toBe('all');
  });
});

describe('the permissions editor calls', () => {
  const UI = '/ui/api/v1';
  it('searches, creates, reads, replaces and deletes targets, all or none', async () => {
    const created = await rest('POST', `${UI}/access/permissions`, {
      name: 'console-made',
      ...target,
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().target.repo.repositories).toEqual(['libs-local', 'central-cache']);
    const duplicate = await rest('POST', `${UI}/access/permissions`, { name: 'console-made' });
    expect(duplicate.json().errors[0].message).toBe(ACCESS_MESSAGES.nameExists);
    const empty = await rest('POST', `${UI}/access/permissions`, { name: '  ' });
    expect(empty.json().errors[0].message).toBe(ACCESS_MESSAGES.nameEmpty);

    const found = (
      await rest('POST', `${UI}/access/permissions/search`, { searchStr: 'CONSOLE' })
    ).json();
    expect(found).toEqual([
      {
        name: 'console-made',
        repositories: ['libs-local', 'central-cache'],
        users: ['dev'],
        groups: ['team'],
      },
    ]);
    const replaced = await rest('PUT', `${UI}/access/permissions/console-made`, {
      name: 'console-made',
      repo: { repositories: ['ANY LOCAL'], actions: { users: {}, groups: { team: ['read'] } } },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(
      (await rest('GET', `${UI}/access/permissions/console-made`)).json().repo.repositories,
    ).toEqual(['ANY LOCAL']);
    const partly = await rest('POST', `${UI}/access/permissions/delete`, {
      names: ['console-made', 'nope'],
    });
    expect(partly.statusCode).toBe(404);
    expect((await rest('GET', `${UI}/access/permissions/console-made`)).statusCode).toBe(200);
    const deleted = await rest('POST', `${UI}/access/permissions/delete`, {
      names: ['console-made'],
    });
    expect(deleted.json().info).toBe(ACCESS_MESSAGES.deletedMany(1));
  });

  it('offers users and groups with their admin flag, and the repositories a target can name', async () => {
    const principals = (await rest('GET', `${UI}/ui/permissiontargets/allUsersGroups`)).json();
    expect(principals.users).toContainEqual({ name: 'boss', admin: true });
    expect(principals.users).toContainEqual({ name: 'dev', admin: false });
    expect(principals.groups).toContainEqual({ name: 'readers', admin: false });
    const repos = (await rest('GET', `${UI}/ui/repodata?permission=true`)).json();
    expect(repos.map((r: { repoKey: string }) => r.repoKey).sort()).toEqual([
      'central',
      'libs-local',
    ]);
    expect((await rest('GET', `${UI}/ui/repodata`, undefined, DEV)).statusCode).toBe(403);
  });
});

describe('a manager of a target who is not an admin (spec 01 §6)', () => {
  const UI = '/ui/api/v1';
  const MGR = { authorization: basic('mgr', 'mgr-password-1') };
  const LEAD = { authorization: basic('lead', 'lead-password-1') };
  const managed = {
    name: 'team-managed',
    repo: {
      'include-patterns': ['org/**'],
      repositories: ['libs-local'],
      actions: { users: { mgr: ['manage'], dev: ['read'] }, groups: { leads: ['manage'] } },
    },
  };
  const stored = async () => (await rest('GET', `${BASE}/team-managed`)).json();

  beforeAll(async () => {
    const { users, groups } = depot.services;
    await users.create({ name: 'mgr', email: 'mgr@example.com', password: 'mgr-password-1' });
    await users.create({ name: 'lead', email: 'lead@example.com', password: 'lead-password-1' });
    await groups.create({ name: 'leads', usersInGroup: ['lead'] });
    expect((await rest('POST', `${BASE}/team-managed`, managed)).statusCode).toBe(201);
  });

  it('lists and opens only the targets it manages, by name or through a group', async () => {
    for (const headers of [MGR, LEAD]) {
      const rows = await rest('POST', `${UI}/access/permissions/search`, {}, headers);
      expect(rows.json().map((row: { name: string }) => row.name)).toEqual(['team-managed']);
    }
    const opened = (
      await rest('GET', `${UI}/access/permissions/team-managed`, undefined, MGR)
    ).json();
    expect(opened.repo.repositories).toEqual(['libs-local']);
    expect(opened.loggedInAsManager).toEqual({ users: ['mgr'], groups: ['readers'] });
    const asAdmin = (await rest('GET', `${UI}/access/permissions/team-managed`)).json();
    expect(asAdmin.loggedInAsManager).toBeUndefined();
    // Another target and a missing one answer alike: nothing is learnt of either.
    for (const name of ['Anything', 'no-such-target']) {
      const refused = await rest('GET', `${UI}/access/permissions/${name}`, undefined, MGR);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().errors[0].message).toBe(ACCESS_MESSAGES.notManaged(name));
    }
    const plain = await rest('POST', `${UI}/access/permissions/search`, {}, DEV);
    expect(plain.json()).toEqual([]);
  });

  it("changes other principals' actions, and adds principals", async () => {
    const edited = structuredClone(managed);
    const users: Record<string, string[]> = edited.repo.actions.users;
    Object.assign(users, { dev: ['write'], other: ['read'] });
    await depot.services.users.create({
      name: 'other',
      email: 'other@example.com',
      password: 'other-password-1',
    });
    const saved = await rest('PUT', `${UI}/access/permissions/team-managed`, edited, MGR);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await stored()).repo.actions.users).toEqual({
      mgr: ['read', 'annotate', 'write', 'delete', 'managedXrayMeta', 'manage'],
      dev: ['read', 'annotate', 'write'],
      other: ['read'],
    });
  });

  it('may not add or remove resources, nor change its own rows or its groups', async () => {
    const before = await stored();
    const attempts: Array<[string, (t: typeof before) => void, string]> = [
      ['adds a repository', (t) => t.repo.repositories.push('central'), 'resources'],
      ['changes a pattern', (t) => (t.repo['include-patterns'] = ['**']), 'resources'],
      ['adds a section', (t) => (t.build = { actions: { users: {}, groups: {} } }), 'resources'],
      ['drops its own manage', (t) => (t.repo.actions.users.mgr = ['read']), 'own-rows'],
      [
        'grants a group of its own',
        (t) => (t.repo.actions.groups.readers = ['delete']),
        'own-rows',
      ],
    ];
    for (const [what, change, problem] of attempts) {
      const proposed = structuredClone(before);
      change(proposed);
      const refused = await rest('PUT', `${UI}/access/permissions/team-managed`, proposed, MGR);
      expect(refused.statusCode, what).toBe(403);
      expect(refused.json().errors[0].message, what).toBe(
        problem === 'resources'
          ? ACCESS_MESSAGES.managerResources('team-managed')
          : ACCESS_MESSAGES.managerOwnRows('team-managed'),
      );
      expect(await stored(), what).toEqual(before);
    }
    // A lead manages through the leads group: that row is theirs, mgr's is not.
    const leadsChange = structuredClone(before);
    leadsChange.repo.actions.groups.leads = ['read'];
    const byLead = await rest('PUT', `${UI}/access/permissions/team-managed`, leadsChange, LEAD);
    expect(byLead.json().errors[0].message).toBe(ACCESS_MESSAGES.managerOwnRows('team-managed'));
  });

  it('may not create or delete targets, nor edit one it does not manage', async () => {
    const create = await rest('POST', `${UI}/access/permissions`, { name: 'by-mgr' }, MGR);
    expect(create.statusCode).toBe(403);
    const remove = await rest(
      'POST',
      `${UI}/access/permissions/delete`,
      { names: ['team-managed'] },
      MGR,
    );
    expect(remove.statusCode).toBe(403);
    const anything = (await rest('GET', `${BASE}/Anything`)).json();
    const other = await rest('PUT', `${UI}/access/permissions/Anything`, anything, MGR);
    expect(other.statusCode).toBe(403);
    expect(other.json().errors[0].message).toBe(ACCESS_MESSAGES.notManaged('Anything'));
    expect((await stored()).name).toBe('team-managed');
  });

  it("offers the editor's choices to managers only, and tells the console who manages", async () => {
    const principals = await rest(
      'GET',
      `${UI}/ui/permissiontargets/allUsersGroups`,
      undefined,
      MGR,
    );
    expect(principals.statusCode).toBe(200);
    expect(principals.json().users).toContainEqual({ name: 'dev', admin: false });
    const repos = await rest('GET', `${UI}/ui/repodata?permission=true`, undefined, MGR);
    expect(repos.json().map((r: { repoKey: string }) => r.repoKey)).toEqual(['libs-local']);
    for (const url of ['/ui/permissiontargets/allUsersGroups', '/ui/repodata']) {
      const refused = await rest('GET', `${UI}${url}`, undefined, DEV);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().errors[0].message).toBe(ACCESS_MESSAGES.notAManager);
    }
    const current = async (headers: object) =>
      (await rest('GET', `${UI}/ui/auth/current`, undefined, headers)).json().canManagePermissions;
    expect(await current(MGR)).toBe(true);
    expect(await current(LEAD)).toBe(true);
    expect(await current(DEV)).toBe(false);
    expect(await current(adminAuth())).toBe(true);
  });
});
