import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_MESSAGES } from '../server/modules/repositories/messages.ts';
import {
  adminAuth,
  basic,
  consoleSession,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/** The console's repository calls (spec 03 §7), against a real server on PGlite. */
let depot: TestDepot;
const plain = { authorization: basic('plain', 'plain-pass-1') };

beforeAll(async () => {
  depot = await startTestDepot();
  await depot.services.users.create({
    name: 'plain',
    email: 'p@example.com',
    password: 'plain-pass-1',
    groups: [],
  });
});
afterAll(() => depot?.close());

const api = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  payload?: object,
  headers: Record<string, string> = adminAuth(),
) => depot.app.inject({ method, url: `/ui/api/v1/ui/admin/repositories${path}`, payload, headers });

const localForm = (repoKey: string, extra: object = {}) => ({
  type: 'local',
  general: { repoKey },
  typeSpecific: { repoType: 'generic' },
  basic: { publicDescription: 'Team files', includesPattern: '**/*' },
  ...extra,
});
const firstError = (response: { json(): { errors: Record<string, unknown>[] } }) =>
  response.json().errors[0];

describe('creating repositories from the form model', () => {
  it('creates a local repository and reads its form model back', async () => {
    const created = await api('POST', '', localForm('team-local'));
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ info: "Successfully created repository 'team-local'" });

    const read = await api('GET', '/local/team-local');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      type: 'local',
      general: { repoKey: 'team-local' },
      typeSpecific: { repoType: 'generic' },
      basic: {
        layout: 'simple-default',
        publicDescription: 'Team files',
        internalDescription: '',
        includesPattern: '**/*',
        excludesPattern: '',
        environments: ['DEV'],
      },
      advanced: { allowContentBrowsing: false },
    });
  });

  it('takes and answers a Maven repository’s settings in its type section, defaults filled', async () => {
    const created = await api('POST', '', {
      type: 'local',
      general: { repoKey: 'mvn-snapshots' },
      typeSpecific: {
        repoType: 'maven',
        handleReleases: false,
        handleSnapshots: true,
        maxUniqueSnapshots: 5,
        suppressPomConsistencyChecks: true,
      },
    });
    expect(created.statusCode).toBe(201);
    expect((await api('GET', '/local/mvn-snapshots')).json().typeSpecific).toEqual({
      repoType: 'maven',
      handleReleases: false,
      handleSnapshots: true,
      maxUniqueSnapshots: 5,
      suppressPomConsistencyChecks: true,
    });
    const rest = await depot.app.inject({
      url: '/artifactory/api/repositories/mvn-snapshots',
      headers: adminAuth(),
    });
    expect(rest.json()).toMatchObject({ handleReleases: false, maxUniqueSnapshots: 5 });
    // A release snapshot is refused by the settings just saved.
    const release = await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/mvn-snapshots/org/acme/lib/1.0/lib-1.0.jar',
      headers: adminAuth(),
      payload: 'jar',
    });
    expect(release.statusCode).toBe(409);

    // Unset, they answer what applies: Artifactory's defaults.
    await api('POST', '', {
      type: 'remote',
      general: { repoKey: 'mvn-remote' },
      typeSpecific: { repoType: 'maven' },
      remote: { url: 'https://repo.example.test/maven2' },
    });
    expect((await api('GET', '/remote/mvn-remote')).json().typeSpecific).toEqual({
      repoType: 'maven',
      handleReleases: true,
      handleSnapshots: true,
    });
    const negative = await api('PUT', '', {
      type: 'local',
      general: { repoKey: 'mvn-snapshots' },
      typeSpecific: { repoType: 'maven', maxUniqueSnapshots: -1 },
    });
    expect(negative.statusCode).toBe(400);
    expect(firstError(negative)).toMatchObject({ field: 'typeSpecific.maxUniqueSnapshots' });
    await api('DELETE', '/local/mvn-snapshots');
    await api('DELETE', '/remote/mvn-remote');
  });

  it("takes a remote's upstream credentials, answers the user name and never the password", async () => {
    const form = (remote: object) => ({
      type: 'remote',
      general: { repoKey: 'hub-remote' },
      typeSpecific: { repoType: 'docker' },
      remote: { url: 'https://registry.example', ...remote },
    });
    expect(
      (await api('POST', '', form({ username: 'team', password: 'hub-token' }))).statusCode,
    ).toBe(201);
    const stored = async () =>
      (await depot.services.repositories.findRow('hub-remote'))!.config as { password?: string };
    const sealed = (await stored()).password;
    expect(sealed).toBeTruthy();
    expect(sealed).not.toContain('hub-token');
    const answered = (await api('GET', '/remote/hub-remote')).json().remote;
    expect(answered.username).toBe('team');
    expect(answered).not.toHaveProperty('password');
    // Saved again without a password (the form never has it), the stored one stays.
    expect((await api('PUT', '', form({ username: 'team', offline: true }))).statusCode).toBe(200);
    expect((await stored()).password).toBe(sealed);
    await api('DELETE', '/remote/hub-remote');
  });

  it('creates remote and virtual repositories with their own sections', async () => {
    const remote = await api('POST', '', {
      type: 'remote',
      general: { repoKey: 'upstream-remote' },
      typeSpecific: { repoType: 'generic' },
      remote: { url: 'https://repo.example.test/files', offline: true },
    });
    expect(remote.statusCode).toBe(201);
    const virtual = await api('POST', '', {
      type: 'virtual',
      general: { repoKey: 'all-files' },
      typeSpecific: { repoType: 'generic' },
      virtual: {
        resolvedRepositories: [{ repoKey: 'upstream-remote' }, { repoKey: 'team-local' }],
        defaultDeploymentRepo: 'team-local',
      },
    });
    expect(virtual.statusCode).toBe(201);

    expect((await api('GET', '/remote/upstream-remote')).json().remote).toEqual({
      url: 'https://repo.example.test/files',
      offline: true,
      missedRetrievalCachePeriodSecs: 1800,
      socketTimeoutMillis: 15000,
    });
    expect((await api('GET', '/virtual/all-files')).json().virtual).toEqual({
      resolvedRepositories: [
        { repoKey: 'upstream-remote', type: 'remote', packageType: 'generic' },
        { repoKey: 'team-local', type: 'local', packageType: 'generic' },
      ],
      defaultDeploymentRepo: 'team-local',
    });
    // The REST API sees the same repository.
    const rest = await depot.app.inject({
      url: '/artifactory/api/repositories/all-files',
      headers: adminAuth(),
    });
    expect(rest.json()).toMatchObject({
      rclass: 'virtual',
      repositories: ['upstream-remote', 'team-local'],
      defaultDeploymentRepo: 'team-local',
    });
  });

  it.each([
    ['1st-local', 'local', 'generic', 'Name cannot start with a number'],
    ['bad key!', 'local', 'generic', 'Name contains illegal characters'],
    ['', 'local', 'generic', 'Setting a name is required'],
    ['Images', 'local', 'docker', 'Docker repository key must be in lowercase'],
    ['libs-cache', 'local', 'generic', 'Cannot create local repository with "-cache" ending'],
    ['team-local', 'local', 'generic', "Repository 'team-local' already exists"],
  ])('refuses key %j (%s %s) with "%s" on general.repoKey', async (key, type, pkg, message) => {
    const response = await api('POST', '', {
      type,
      general: { repoKey: key },
      typeSpecific: { repoType: pkg },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(firstError(response)).toMatchObject({ message, field: 'general.repoKey' });
  });

  it('puts the service errors on the form fields they concern', async () => {
    const cases: [object, number, string, string][] = [
      [{ type: 'cached' }, 400, 'Unsupported repo type', 'type'],
      [
        { type: 'remote', typeSpecific: { repoType: 'generic' } },
        400,
        REPO_MESSAGES.urlRequired,
        'remote.url',
      ],
      [
        { typeSpecific: { repoType: 'nope' } },
        400,
        "Unknown package type 'nope'",
        'typeSpecific.repoType',
      ],
      [
        { basic: { layout: 'no-such-layout' } },
        400,
        "Layout 'no-such-layout' could not be found.",
        'basic.layout',
      ],
      [
        { type: 'virtual', virtual: { resolvedRepositories: [{ repoKey: 'ghost' }] } },
        400,
        "Repository 'ghost' does not exist",
        'virtual.resolvedRepositories',
      ],
      [{ typeSpecific: {} }, 400, 'You must fill in this field', 'typeSpecific.repoType'],
    ];
    for (const [change, status, message, field] of cases) {
      const response = await api('POST', '', { ...localForm('checked-repo'), ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(status);
      expect(firstError(response), JSON.stringify(change)).toMatchObject({ message, field });
    }
    // Nothing was half-written.
    expect((await api('GET', '/local/checked-repo')).statusCode).toBe(404);
  });

  it('refuses fields the form does not have', async () => {
    const response = await api('POST', '', { ...localForm('odd'), basic: { color: 'red' } });
    expect(response.statusCode).toBe(400);
    expect(firstError(response).message).toBe("Unknown field 'color'");
  });
});

describe('listing repositories', () => {
  it('lists each kind with its own details and counts', async () => {
    await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/team-local/docs/readme.txt',
      payload: 'hello world',
      headers: adminAuth(),
    });
    const local = await api('GET', '?type=local');
    expect(local.statusCode).toBe(200);
    expect(local.json().find((r: { repoKey: string }) => r.repoKey === 'team-local')).toEqual({
      repoKey: 'team-local',
      repoType: 'local',
      packageType: 'generic',
      packageTypeText: 'Generic',
      local: true,
      remote: false,
      virtual: false,
      defaultDeploymentConfigured: false,
      description: 'Team files',
      layout: 'simple-default',
      environments: ['DEV'],
      filesCount: 1,
      usedSpace: 11,
    });
    const remote = (await api('GET', '?type=REMOTE')).json();
    expect(remote.map((r: { repoKey: string }) => r.repoKey)).toEqual(['upstream-remote']);
    expect(remote[0]).toMatchObject({ url: 'https://repo.example.test/files', filesCount: 0 });
    const virtual = (await api('GET', '?type=virtual')).json();
    expect(virtual[0]).toMatchObject({
      repoKey: 'all-files',
      defaultDeploymentConfigured: true,
      repositories: ['upstream-remote', 'team-local'],
      membersCount: 2,
    });
    expect(virtual[0]).not.toHaveProperty('filesCount');
  });

  it('lists every kind without a filter and refuses an unsupported one', async () => {
    const all = (await api('GET', '')).json().map((r: { repoKey: string }) => r.repoKey);
    expect(all).toEqual(expect.arrayContaining(['team-local', 'upstream-remote', 'all-files']));
    const bad = await api('GET', '?type=federated');
    expect(bad.statusCode).toBe(400);
    expect(firstError(bad)).toMatchObject({ message: 'Unsupported repo type', field: 'type' });
  });

  it('never shows the trash can', async () => {
    await depot.app.inject({
      method: 'DELETE',
      url: '/artifactory/team-local/docs/readme.txt',
      headers: adminAuth(),
    });
    const keys = (await api('GET', '')).json().map((r: { repoKey: string }) => r.repoKey);
    expect(keys).not.toContain('auto-trashcan');
    expect((await api('GET', '/local/auto-trashcan')).statusCode).toBe(404);
    expect((await api('DELETE', '/local/auto-trashcan')).statusCode).toBe(404);
  });
});

describe('the key check and the member picker', () => {
  const check = async (query: string) => {
    const response = await api('GET', `/validatereponame?${query}`);
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it('answers ok for a free key and the spec message otherwise', async () => {
    expect(await check('repoType=local&repoKey=fresh-local')).toEqual({ valid: true });
    expect(await check('repoType=local&repoKey=9lives')).toEqual({
      valid: false,
      error: 'Name cannot start with a number',
    });
    expect(await check('repoType=local&repoKey=a%20b')).toEqual({
      valid: false,
      error: 'Name contains illegal characters',
    });
    expect(await check('repoType=local&repoKey=')).toEqual({
      valid: false,
      error: 'Setting a name is required',
    });
    expect(await check('repoType=local&repoKey=libs-cache')).toEqual({
      valid: false,
      error: 'Cannot create local repository with "-cache" ending',
    });
    expect(await check('repoType=remote&repoKey=libs-cache')).toEqual({ valid: true });
    expect(await check('repoType=local&repoKey=Images&packageType=docker')).toEqual({
      valid: false,
      error: 'Docker repository key must be in lowercase',
    });
    expect(await check('repoType=local&repoKey=TEAM-LOCAL')).toEqual({
      valid: false,
      error: "Repository 'TEAM-LOCAL' already exists",
    });
    const bad = await api('GET', '/validatereponame?repoType=cached&repoKey=x');
    expect(bad.statusCode).toBe(400);
    expect(firstError(bad).message).toBe('Unsupported repo type');
  });

  it('offers the locals and remotes of the package type, never the virtual itself', async () => {
    await api('POST', '', {
      type: 'local',
      general: { repoKey: 'npm-local' },
      typeSpecific: { repoType: 'npm' },
    });
    const response = await api(
      'GET',
      '/availablerepositories?packageType=generic&repoKey=all-files',
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { repoKey: 'team-local', type: 'local', packageType: 'generic' },
      { repoKey: 'upstream-remote', type: 'remote', packageType: 'generic' },
    ]);
  });
});

describe('updating and deleting', () => {
  it('updates from the form model and keeps the key and kind', async () => {
    const form = (await api('GET', '/local/team-local')).json();
    form.basic.publicDescription = 'Shared team files';
    form.basic.excludesPattern = '**/*.tmp';
    form.advanced.allowContentBrowsing = true;
    const saved = await api('PUT', '', form);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ info: "Repository 'team-local' update successful." });
    const read = (await api('GET', '/local/team-local')).json();
    expect(read.basic).toMatchObject({
      publicDescription: 'Shared team files',
      excludesPattern: '**/*.tmp',
    });
    expect(read.advanced).toEqual({ allowContentBrowsing: true });

    const kindChange = await api('PUT', '', { ...form, type: 'remote' });
    expect(kindChange.statusCode).toBe(400);
    expect(firstError(kindChange)).toMatchObject({
      message: REPO_MESSAGES.kindChange,
      field: 'type',
    });
    const missing = await api('PUT', '', { ...form, general: { repoKey: 'nowhere' } });
    expect(missing.statusCode).toBe(404);
    expect(firstError(missing).message).toBe("Repository 'nowhere' could not be found.");
    const badDeploy = await api('PUT', '', {
      type: 'virtual',
      general: { repoKey: 'all-files' },
      typeSpecific: { repoType: 'generic' },
      virtual: { defaultDeploymentRepo: 'upstream-remote' },
    });
    expect(firstError(badDeploy)).toMatchObject({ field: 'virtual.defaultDeploymentRepo' });
  });

  it('answers 404 for an unknown key or the wrong kind', async () => {
    for (const path of ['/local/nowhere', '/remote/team-local']) {
      const response = await api('GET', path);
      expect(response.statusCode, path).toBe(404);
      expect(firstError(response).message).toMatch(/could not be found\.$/);
    }
    expect((await api('DELETE', '/remote/team-local')).statusCode).toBe(404);
    expect(firstError(await api('GET', '/cached/x')).message).toBe('Unsupported repo type');
  });

  it('deletes a repository by kind and key', async () => {
    await api('POST', '', localForm('short-lived'));
    const response = await api('DELETE', '/local/short-lived');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ info: REPO_MESSAGES.removed('short-lived') });
    expect((await api('GET', '/local/short-lived')).statusCode).toBe(404);
  });
});

describe('who may call them', () => {
  it('refuses anonymous callers and plain users, by basic auth or session', async () => {
    const session = await consoleSession(depot, 'plain', 'plain-pass-1');
    const calls: ['GET' | 'POST' | 'PUT' | 'DELETE', string][] = [
      ['GET', ''],
      ['GET', '/local/team-local'],
      ['GET', '/validatereponame?repoKey=x'],
      ['GET', '/availablerepositories'],
      ['POST', ''],
      ['PUT', ''],
      ['DELETE', '/local/team-local'],
    ];
    for (const [method, path] of calls) {
      expect((await api(method, path, localForm('x'), {})).statusCode, path).toBe(401);
      expect((await api(method, path, localForm('x'), plain)).statusCode, path).toBe(403);
      expect((await api(method, path, localForm('x'), session.headers)).statusCode, path).toBe(403);
    }
    expect((await api('GET', '/local/team-local')).statusCode).toBe(200);
  });

  it('needs the CSRF header on a session-authenticated save', async () => {
    const admin = await consoleSession(depot, 'admin', 'admin-secret-1');
    const withoutCsrf = { cookie: admin.headers.cookie };
    expect((await api('POST', '', localForm('csrf-local'), withoutCsrf)).statusCode).toBe(403);
    expect((await api('POST', '', localForm('csrf-local'), admin.headers)).statusCode).toBe(201);
  });
});
