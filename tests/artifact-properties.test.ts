import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPERTY_MESSAGES } from '../server/modules/artifact-properties/messages.ts';
import { TREE_MESSAGES } from '../server/modules/tree-browser/messages.ts';
import {
  adminAuth,
  basic,
  consoleSession,
  createRepository as createRepositoryIn,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

let depot: TestDepot;
const readerAuth = () => ({ authorization: basic('reader', 'reader-pass-1') });
const JAR = 'org/acme/app/1.0/app-1.0.jar';
const BULK_FILES = 3000;

const createRepository = (key: string, rclass: string, extra = {}) =>
  createRepositoryIn(depot, key, rclass, extra);

const deploy = (repoKey: string, path: string) => deployFile(depot, repoKey, path);

const query = (repoKey: string, path: string, recursive?: boolean) =>
  new URLSearchParams({
    repoKey,
    path,
    ...(recursive === undefined ? {} : { recursive: String(recursive) }),
  }).toString();

function getProperties(repoKey: string, path: string, headers: object = readerAuth()) {
  return depot.app.inject({
    url: `/ui/api/v1/ui/artifactproperties?${query(repoKey, path)}`,
    headers: { ...headers },
  });
}

async function propertiesOf(repoKey: string, path: string) {
  const response = await getProperties(repoKey, path);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().artifactProperties as { name: string; value: string[] }[];
}

function setProperty(
  repoKey: string,
  path: string,
  body: object,
  { recursive, headers = adminAuth() }: { recursive?: boolean; headers?: object } = {},
) {
  return depot.app.inject({
    method: 'POST',
    url: `/ui/api/v1/ui/artifactproperties?${query(repoKey, path, recursive)}`,
    headers: { ...headers },
    payload: body,
  });
}

function deleteProperties(
  repoKey: string,
  path: string,
  properties: unknown,
  { recursive, headers = adminAuth() }: { recursive?: boolean; headers?: object } = {},
) {
  return depot.app.inject({
    method: 'POST',
    url: `/ui/api/v1/ui/deleteproperties?${query(repoKey, path, recursive)}`,
    headers: { ...headers },
    payload: { properties },
  });
}

async function countWithProperty(repositoryKey: string, key: string, value: string) {
  const repo = await depot.services.artifacts.repository(repositoryKey);
  const result = await sql<{ count: string }>`
    select count(*) as count from node_properties p join nodes n on n.id = p.node_id
    where n.repository_id = ${repo.id} and p.key = ${key} and p.value = ${value}`.execute(depot.db);
  return Number(result.rows[0]!.count);
}

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository('libs-local', 'local');
  await createRepository('all-virtual', 'virtual', { repositories: ['libs-local'] });
  await depot.services.users.create({
    name: 'reader',
    email: 'reader@example.com',
    password: 'reader-pass-1',
  } as never);
  await deploy('libs-local', `${JAR};build.number=7;colour=red`);
  await deploy('libs-local', 'org/acme/app/2.0/app-2.0.jar');
  // A folder with many files below it, in nested folders, written straight to the table.
  await deploy('libs-local', 'bulk/seed.txt');
  const repo = await depot.services.artifacts.repository('libs-local');
  await sql`
    insert into nodes (repository_id, path, parent_path, name, folder, size, created_by, modified_by)
    select ${repo.id}, 'bulk/d' || i, 'bulk', 'd' || i, true, 0, 's', 's'
    from generate_series(1, 10) as i`.execute(depot.db);
  await sql`
    insert into nodes (repository_id, path, parent_path, name, folder, size, created_by, modified_by)
    select ${repo.id}, 'bulk/d' || (i % 10 + 1) || '/f-' || i || '.bin', 'bulk/d' || (i % 10 + 1),
      'f-' || i || '.bin', false, 2, 's', 's'
    from generate_series(1, ${BULK_FILES}) as i`.execute(depot.db);
  // A sibling whose name starts like the folder's: never part of its subtree.
  await deploy('libs-local', 'bulk-other/x.txt');
});
afterAll(() => depot.close());

describe('reading properties', () => {
  it("answers a file's properties by name, as the scripted API sees them", async () => {
    expect(await propertiesOf('libs-local', JAR)).toEqual([
      { name: 'build.number', value: ['7'] },
      { name: 'colour', value: ['red'] },
    ]);
    const scripted = await depot.app.inject({
      url: `/artifactory/api/storage/libs-local/${JAR}?properties`,
      headers: readerAuth(),
    });
    expect(scripted.json().properties).toEqual({ 'build.number': ['7'], colour: ['red'] });
  });

  it('answers an empty list for a node without properties, folders included', async () => {
    expect(await propertiesOf('libs-local', 'org/acme')).toEqual([]);
  });

  it("reads a virtual repository's files through its members", async () => {
    expect(await propertiesOf('all-virtual', JAR)).toEqual([
      { name: 'build.number', value: ['7'] },
      { name: 'colour', value: ['red'] },
    ]);
  });

  it('refuses a missing node and a path that escapes', async () => {
    const missing = await getProperties('libs-local', 'org/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].message).toBe(TREE_MESSAGES.notFound('libs-local', 'org/nope'));
    expect((await getProperties('nope-local', 'x')).statusCode).toBe(404);
    expect((await getProperties('libs-local', '../etc/passwd')).statusCode).toBe(400);
  });

  it('is for signed-in users while anonymous access is off', async () => {
    expect((await getProperties('libs-local', JAR, {})).statusCode).toBe(401);
  });
});

describe('setting a property', () => {
  it("replaces that property's values only, keeping the others", async () => {
    const response = await setProperty('libs-local', JAR, {
      name: 'colour',
      value: ['green', 'blue', 'green'],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ info: "Successfully set property 'colour'" });
    expect(await propertiesOf('libs-local', JAR)).toEqual([
      { name: 'build.number', value: ['7'] },
      { name: 'colour', value: ['blue', 'green'] },
    ]);
  });

  it('sets a folder only, unless recursive', async () => {
    const ok = await setProperty('libs-local', 'org/acme', { name: 'team', value: ['core'] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await propertiesOf('libs-local', 'org/acme')).toEqual([
      { name: 'team', value: ['core'] },
    ]);
    expect(await propertiesOf('libs-local', 'org/acme/app/2.0/app-2.0.jar')).toEqual([]);
  });

  it('sets every node below a folder with recursive=true, in SQL', async () => {
    const response = await setProperty(
      'libs-local',
      'bulk',
      { name: 'release', value: ['yes', 'final'] },
      { recursive: true },
    );
    expect(response.statusCode, response.body).toBe(200);
    // The folder, its seed file, 10 folders and the bulk files; not 'bulk-other'.
    const nodes = 1 + 1 + 10 + BULK_FILES;
    expect(await countWithProperty('libs-local', 'release', 'yes')).toBe(nodes);
    expect(await countWithProperty('libs-local', 'release', 'final')).toBe(nodes);
    expect(await propertiesOf('libs-local', 'bulk/d3/f-2.bin')).toEqual([
      { name: 'release', value: ['final', 'yes'] },
    ]);
    expect(await propertiesOf('libs-local', 'bulk-other/x.txt')).toEqual([]);
  });

  it('refuses readers and anonymous callers', async () => {
    const body = { name: 'colour', value: ['black'] };
    expect((await setProperty('libs-local', JAR, body, { headers: readerAuth() })).statusCode).toBe(
      403,
    );
    expect((await setProperty('libs-local', JAR, body, { headers: {} })).statusCode).toBe(401);
    expect(await propertiesOf('libs-local', JAR)).toContainEqual({
      name: 'colour',
      value: ['blue', 'green'],
    });
  });

  it('works through a console session', async () => {
    const session = await consoleSession(depot, 'admin', 'admin-secret-1');
    const response = await setProperty(
      'libs-local',
      'org/acme/app/2.0/app-2.0.jar',
      { name: 'qa', value: ['passed'] },
      { headers: session.headers },
    );
    expect(response.statusCode, response.body).toBe(200);
  });

  it('refuses bad names and values with clear messages', async () => {
    const cases: [object, string][] = [
      [{ name: '', value: ['x'] }, PROPERTY_MESSAGES.nameRequired],
      [{ name: 'a;b', value: ['x'] }, PROPERTY_MESSAGES.nameCharacters],
      [{ name: 'a=b', value: ['x'] }, PROPERTY_MESSAGES.nameCharacters],
      [{ name: ' padded', value: ['x'] }, PROPERTY_MESSAGES.nameCharacters],
      [{ name: 'n'.repeat(256), value: ['x'] }, PROPERTY_MESSAGES.nameTooLong],
      [{ name: 'ok', value: [] }, PROPERTY_MESSAGES.valueRequired],
      [{ name: 'ok', value: ['a,b'] }, PROPERTY_MESSAGES.valueCharacters],
      [{ name: 'ok', value: ['a;b'] }, PROPERTY_MESSAGES.valueCharacters],
      [{ name: 'ok', value: ['v'.repeat(4001)] }, PROPERTY_MESSAGES.valueTooLong],
      [
        { name: 'ok', value: Array.from({ length: 101 }, (_, i) => `v${i}`) },
        PROPERTY_MESSAGES.tooManyValues,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await setProperty('libs-local', JAR, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json().errors[0].message).toBe(message);
    }
    for (const body of [{ name: 'ok' }, { value: ['x'] }, { name: 'ok', value: 'x' }]) {
      expect((await setProperty('libs-local', JAR, body)).statusCode).toBe(400);
    }
  });

  it("keeps the repository's own properties on its root, for the root alone unless recursive", async () => {
    expect(await propertiesOf('libs-local', '')).toEqual([]);
    const root = await setProperty('libs-local', '', { name: 'owner', value: ['team-a'] });
    expect(root.statusCode, root.body).toBe(200);
    expect(await propertiesOf('libs-local', '')).toEqual([{ name: 'owner', value: ['team-a'] }]);
    expect((await propertiesOf('libs-local', JAR)).map((p) => p.name)).not.toContain('owner');
    // the same stored properties as the storage API's
    const scripted = await depot.app.inject({
      url: '/artifactory/api/storage/libs-local?properties',
      headers: adminAuth(),
    });
    expect(scripted.json().properties).toEqual({ owner: ['team-a'] });
    expect((await deleteProperties('libs-local', '', ['owner'])).statusCode).toBe(200);
    expect(await propertiesOf('libs-local', '')).toEqual([]);
    // Reading needs Read, changing Annotate, on the root as on any folder.
    const byReader = { headers: readerAuth() };
    expect(
      (await setProperty('libs-local', '', { name: 'a', value: ['b'] }, byReader)).statusCode,
    ).toBe(403);
    expect(await propertiesOf('libs-local', '')).toEqual([]);
  });

  it('refuses virtual repositories, their root included', async () => {
    const virtualRoot = await setProperty('all-virtual', '', { name: 'a', value: ['b'] });
    expect(virtualRoot.statusCode).toBe(400);
    expect(virtualRoot.json().errors[0].message).toBe(PROPERTY_MESSAGES.virtual('all-virtual'));
    const virtual = await setProperty('all-virtual', JAR, { name: 'a', value: ['b'] });
    expect(virtual.statusCode).toBe(400);
    expect(virtual.json().errors[0].message).toBe(PROPERTY_MESSAGES.virtual('all-virtual'));
    const missing = await setProperty('libs-local', 'org/nope', { name: 'a', value: ['b'] });
    expect(missing.statusCode).toBe(404);
  });
});

describe('deleting properties', () => {
  it('deletes the named properties; unknown names are no error', async () => {
    const response = await deleteProperties('libs-local', JAR, ['colour', 'never-set']);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ info: 'Successfully deleted properties' });
    expect(await propertiesOf('libs-local', JAR)).toEqual([{ name: 'build.number', value: ['7'] }]);
  });

  it('deletes below a folder with recursive=true only', async () => {
    const shallow = await deleteProperties('libs-local', 'bulk', ['release']);
    expect(shallow.statusCode).toBe(200);
    expect(await propertiesOf('libs-local', 'bulk')).toEqual([]);
    expect(await countWithProperty('libs-local', 'release', 'yes')).toBe(11 + BULK_FILES);
    const deep = await deleteProperties('libs-local', 'bulk', ['release'], { recursive: true });
    expect(deep.statusCode).toBe(200);
    expect(await countWithProperty('libs-local', 'release', 'yes')).toBe(0);
  });

  it('refuses readers, an empty list and a bad body', async () => {
    expect(
      (await deleteProperties('libs-local', JAR, ['build.number'], { headers: readerAuth() }))
        .statusCode,
    ).toBe(403);
    const empty = await deleteProperties('libs-local', JAR, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].message).toBe(PROPERTY_MESSAGES.namesRequired);
    expect((await deleteProperties('libs-local', JAR, 'build.number')).statusCode).toBe(400);
    expect(await propertiesOf('libs-local', JAR)).toEqual([{ name: 'build.number', value: ['7'] }]);
  });
});

describe('the Properties tab', () => {
  async function tabsOf(type: string, repoKey: string, path: string) {
    const response = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/treebrowser/tabsAndActions',
      headers: readerAuth(),
      payload: { type, repoKey, path },
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().tabs as { name: string }[]).map((tab) => tab.name);
  }

  it("is listed for stored files and folders, local repositories' roots, and a virtual repository's files", async () => {
    expect(await tabsOf('file', 'libs-local', JAR)).toContain('Properties');
    expect(await tabsOf('folder', 'libs-local', 'org')).toContain('Properties');
    expect(await tabsOf('file', 'all-virtual', JAR)).toContain('Properties');
    expect(await tabsOf('folder', 'all-virtual', 'org')).not.toContain('Properties');
    expect(await tabsOf('repository', 'libs-local', '')).toContain('Properties');
    expect(await tabsOf('repository', 'all-virtual', '')).not.toContain('Properties');
  });
});
