import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_MESSAGES } from '../server/modules/artifact-actions/messages.ts';
import {
  adminAuth,
  basic,
  consoleSession,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';
import { buildWheel } from './helpers/python-dists.ts';
import { packTarball, publishDocument } from './helpers/npm-cli.ts';

/**
 * The repository actions of Maven-like repositories. Delete Versions lists the versions
 * below a folder and deletes the chosen ones. The calculate-index action (spec 03 §7 /ui/artifactactions/calculateIndex): a local
 * repository's index rebuilt from its files, as if each were deployed again. The index is
 * wiped in the database first, as a bulk import or a restore from backup would leave it.
 */
let depot: TestDepot;
let session: Awaited<ReturnType<typeof consoleSession>>;

const pom = (groupId: string, artifactId: string, version: string) =>
  `<project><modelVersion>4.0.0</modelVersion><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version></project>`;

async function jarWith(entry: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('cafebabe', 'hex'), entry);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function put(path: string, payload: string | Buffer) {
  const response = await depot.app.inject({
    method: 'PUT',
    url: `/artifactory/${path}`,
    headers: adminAuth(),
    payload,
  });
  expect(response.statusCode).toBe(201);
}

const calculate = (repoKey: string, headers: object = session.headers) =>
  depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/artifactactions/calculateIndex',
    headers: headers as Record<string, string>,
    payload: { repoKey, type: 'maven' },
  });

/** The repository's indexed versions, as `name@version`. */
async function indexed(repoKey: string): Promise<string[]> {
  const rows = await depot.services.db
    .selectFrom('package_versions as v')
    .innerJoin('packages as p', 'p.id', 'v.package_id')
    .innerJoin('repositories as r', 'r.id', 'p.repository_id')
    .select(['p.name', 'v.version'])
    .where('r.key', '=', repoKey)
    .execute();
  return rows.map((row) => `${row.name}@${row.version}`).sort();
}

async function wipeIndex(repoKey: string) {
  const repo = await depot.services.repositories.findRow(repoKey);
  await depot.services.db.deleteFrom('packages').where('repository_id', '=', repo!.id).execute();
  await depot.services.db
    .deleteFrom('archive_entries')
    .where('node_id', 'in', (q) =>
      q.selectFrom('nodes').select('id').where('repository_id', '=', repo!.id),
    )
    .execute();
}

beforeAll(async () => {
  depot = await startTestDepot();
  for (const [key, packageType] of [
    ['mvn-local', 'maven'],
    ['py-local', 'pypi'],
    ['files', 'generic'],
  ] as const)
    await depot.services.repositories.create({ key, rclass: 'local', packageType });
  await put('mvn-local/org/acme/demo/1.0/demo-1.0.pom', pom('org.acme', 'demo', '1.0'));
  await put('mvn-local/org/acme/demo/1.1/demo-1.1.pom', pom('org.acme', 'demo', '1.1'));
  await put('mvn-local/org/acme/demo/1.1/demo-1.1.jar', await jarWith('org/acme/Demo.class'));
  const wheel = await buildWheel({ name: 'reindexed', version: '3.0', requiresPython: '>=3.10' });
  await put(`py-local/reindexed/3.0/${wheel.filename}`, wheel.content);
  await depot.services.users.create({
    name: 'plain',
    email: 'p@example.com',
    password: 'plain-pass-1',
    groups: [],
  });
  session = await consoleSession(depot, 'admin', 'admin-secret-1');
});
afterAll(() => depot?.close());

describe('calculate index', () => {
  it('rebuilds a Maven and a PyPI repository’s index from their files', async () => {
    expect(await indexed('mvn-local')).toEqual(['org.acme:demo@1.0', 'org.acme:demo@1.1']);
    await wipeIndex('mvn-local');
    await wipeIndex('py-local');
    expect(await indexed('mvn-local')).toEqual([]);

    const maven = await calculate('mvn-local');
    expect(maven.statusCode).toBe(200);
    expect(maven.json()).toMatchObject({
      info: ACTION_MESSAGES.indexCalculated('mvn-local', {
        files: 3,
        indexed: 3,
        refused: [],
        refusedCount: 0,
      }),
      files: 3,
      indexed: 3,
    });
    expect(await indexed('mvn-local')).toEqual(['org.acme:demo@1.0', 'org.acme:demo@1.1']);
    // The jar's classes are listed again for the class search.
    const entries = await depot.services.db
      .selectFrom('archive_entries')
      .select(['entry_path', 'entry_name'])
      .execute();
    expect(entries).toEqual([{ entry_path: 'org/acme', entry_name: 'Demo.class' }]);

    expect((await calculate('py-local')).json()).toMatchObject({ files: 1, indexed: 1 });
    expect(await indexed('py-local')).toEqual(['reindexed@3.0']);
    // Running it again changes nothing: rows are written over, never doubled.
    expect((await calculate('py-local')).json()).toMatchObject({ files: 1, indexed: 1 });
    expect(await indexed('py-local')).toEqual(['reindexed@3.0']);
  });

  it('reports a file its format refuses, and indexes the others', async () => {
    // Stored while the repository let a POM sit anywhere; the rule is back on now.
    await depot.services.repositories.update('mvn-local', { suppressPomConsistencyChecks: true });
    await put('mvn-local/org/acme/other/2.0/other-2.0.pom', pom('org.acme', 'elsewhere', '2.0'));
    await depot.services.repositories.update('mvn-local', { suppressPomConsistencyChecks: false });
    await wipeIndex('mvn-local');
    const answer = (await calculate('mvn-local')).json();
    expect(answer).toMatchObject({ files: 4, indexed: 3, refusedCount: 1 });
    expect(answer.refused[0].path).toBe('org/acme/other/2.0/other-2.0.pom');
    expect(answer.info).toContain(
      "1 refused by their format (first: 'org/acme/other/2.0/other-2.0.pom'",
    );
    expect(await indexed('mvn-local')).toEqual(['org.acme:demo@1.0', 'org.acme:demo@1.1']);
  });

  it('keeps npm version documents edited after publish, and restores missing ones', async () => {
    await depot.services.repositories.create({
      key: 'npm-idx',
      rclass: 'local',
      packageType: 'npm',
    });
    for (const version of ['1.0.0', '1.1.0']) {
      const tarball = await packTarball({
        'package.json': JSON.stringify({ name: 'keep-me', version }),
      });
      const published = await depot.app.inject({
        method: 'PUT',
        url: '/artifactory/api/npm/npm-idx/keep-me',
        headers: { ...adminAuth(), 'content-type': 'application/json' },
        payload: publishDocument('keep-me', version, tarball),
      });
      expect(published.statusCode).toBe(201);
    }
    const versionRow = (version: string) =>
      depot.services.db
        .selectFrom('package_versions as v')
        .innerJoin('packages as p', 'p.id', 'v.package_id')
        .select(['v.id', 'v.manifest'])
        .where('p.name', '=', 'keep-me')
        .where('v.version', '=', version)
        .executeTakeFirst();
    // 1.0.0 was deprecated after publish (its document says so); 1.1.0 lost its row.
    const first = (await versionRow('1.0.0'))!;
    const deprecated = { ...JSON.parse(first.manifest), deprecated: 'use 1.1.0' };
    await depot.services.db
      .updateTable('package_versions')
      .set({ manifest: JSON.stringify(deprecated) })
      .where('id', '=', first.id)
      .execute();
    await depot.services.db
      .deleteFrom('package_versions')
      .where('id', '=', (await versionRow('1.1.0'))!.id)
      .execute();

    expect((await calculate('npm-idx')).json()).toMatchObject({ files: 2, indexed: 1 });
    expect(JSON.parse((await versionRow('1.0.0'))!.manifest).deprecated).toBe('use 1.1.0');
    expect(await versionRow('1.1.0')).toBeDefined();
  });

  it('is offered on indexed local repositories to admins only, and refused elsewhere', async () => {
    const actionsOf = async (repoKey: string, headers: object) =>
      (
        await depot.app.inject({
          method: 'POST',
          url: '/ui/api/v1/ui/treebrowser/tabsAndActions',
          headers: headers as Record<string, string>,
          payload: { type: 'repository', repoKey, path: '' },
        })
      )
        .json()
        .actions.map((a: { name: string }) => a.name);
    expect(await actionsOf('mvn-local', session.headers)).toContain('calculateIndex');
    expect(await actionsOf('files', session.headers)).not.toContain('calculateIndex');
    const generic = await calculate('files');
    expect(generic.statusCode).toBe(400);
    expect(generic.json().errors[0].message).toBe(ACTION_MESSAGES.noIndex('files'));
    const plain = await calculate('mvn-local', {
      authorization: basic('plain', 'plain-pass-1'),
      'x-requested-with': 'XMLHttpRequest',
    });
    expect(plain.statusCode).toBe(403);
    expect((await calculate('no-such-repo')).statusCode).toBe(404);
  });
});

describe('delete versions', () => {
  const versionsOf = async (path: string, headers: object = session.headers) =>
    depot.app.inject({
      method: 'GET',
      url: `/ui/api/v1/ui/artifactactions/deleteversions?repoKey=ver-local&path=${path}`,
      headers: headers as Record<string, string>,
    });
  const deleteVersions = (payload: object, headers: object = session.headers) =>
    depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/artifactactions/deleteversions',
      headers: headers as Record<string, string>,
      payload,
    });
  const exists = async (path: string) =>
    (
      await depot.app.inject({
        url: `/artifactory/api/storage/ver-local/${path}`,
        headers: adminAuth(),
      })
    ).statusCode === 200;

  beforeAll(async () => {
    await depot.services.repositories.create({
      key: 'ver-local',
      rclass: 'local',
      packageType: 'maven',
    });
    for (const [artifact, version] of [
      ['core', '1.0'],
      ['core', '2.0'],
      ['api', '2.0'],
      ['core', '2.1-SNAPSHOT'],
    ])
      await put(
        `ver-local/org/acme/${artifact}/${version}/${artifact}-${version}.pom`,
        pom('org.acme', artifact!, version!),
      );
    await put('ver-local/org/acme/README.txt', 'not a version');
  });

  it('lists the versions below a folder, by group, newest first, with their folder counts', async () => {
    const listed = await versionsOf('org/acme');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      versions: [
        { groupId: 'org.acme', version: '2.1-SNAPSHOT', directoriesCount: 1 },
        { groupId: 'org.acme', version: '2.0', directoriesCount: 2 },
        { groupId: 'org.acme', version: '1.0', directoriesCount: 1 },
      ],
    });
    expect((await versionsOf('org/acme/api')).json().versions).toEqual([
      { groupId: 'org.acme', version: '2.0', directoriesCount: 1 },
    ]);
    expect((await versionsOf('')).json().versions).toHaveLength(3);
  });

  it('deletes the chosen versions into the trash can, all of their folders, and nothing else', async () => {
    const answer = await deleteVersions({
      repoKey: 'ver-local',
      path: 'org/acme',
      versions: [{ groupId: 'org.acme', version: '2.0', repoKey: 'ver-local' }],
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ info: ACTION_MESSAGES.versionsDeleted(1, 2) });
    expect(await exists('org/acme/core/2.0')).toBe(false);
    expect(await exists('org/acme/api/2.0')).toBe(false);
    expect(await exists('org/acme/core/1.0')).toBe(true);
    expect(await exists('org/acme/README.txt')).toBe(true);
    const trashed = await depot.app.inject({
      url: '/artifactory/api/storage/auto-trashcan/ver-local/org/acme/core/2.0/core-2.0.pom',
      headers: adminAuth(),
    });
    expect(trashed.statusCode).toBe(200);
  });

  it('refuses an unknown version, a user without delete, and a repository of another layout, deleting nothing', async () => {
    const unknown = await deleteVersions({
      repoKey: 'ver-local',
      path: 'org/acme',
      versions: [
        { groupId: 'org.acme', version: '1.0' },
        { groupId: 'org.acme', version: '9.9' },
      ],
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors[0].message).toBe(ACTION_MESSAGES.noSuchVersion('org.acme', '9.9'));
    expect(await exists('org/acme/core/1.0')).toBe(true);

    const plain = { authorization: basic('plain', 'plain-pass-1') };
    expect((await versionsOf('org/acme', plain)).statusCode).toBe(403);
    // One refusal for whatever the caller may not read: a Maven repository, one of another
    // layout, one that does not exist, an unknown version. Nothing about them is told.
    for (const repoKey of ['ver-local', 'files', 'no-such-repo']) {
      const listed = await depot.app.inject({
        url: `/ui/api/v1/ui/artifactactions/deleteversions?repoKey=${repoKey}`,
        headers: plain,
      });
      expect([repoKey, listed.statusCode]).toEqual([repoKey, 403]);
      const versions = [{ groupId: 'org.acme', version: '9.9' }];
      const deleted = await deleteVersions({ repoKey, path: 'org/acme', versions }, plain);
      expect([repoKey, deleted.statusCode]).toEqual([repoKey, 403]);
    }
    const refused = await deleteVersions(
      {
        repoKey: 'ver-local',
        path: 'org/acme',
        versions: [{ groupId: 'org.acme', version: '1.0' }],
      },
      plain,
    );
    expect(refused.statusCode).toBe(403);
    expect(await exists('org/acme/core/1.0')).toBe(true);

    // A folder holding no version lists none.
    expect((await versionsOf('org/acme/README.txt')).json()).toEqual({ versions: [] });
    const files = await depot.app.inject({
      url: '/ui/api/v1/ui/artifactactions/deleteversions?repoKey=files',
      headers: session.headers as Record<string, string>,
    });
    expect(files.statusCode).toBe(400);
    expect(files.json().errors[0].message).toBe(ACTION_MESSAGES.notVersioned('files'));
  });

  it('is offered on folders of Maven-layout repositories to those who may delete', async () => {
    const actionsOf = async (repoKey: string, path: string) =>
      (
        await depot.app.inject({
          method: 'POST',
          url: '/ui/api/v1/ui/treebrowser/tabsAndActions',
          headers: session.headers as Record<string, string>,
          payload: { type: 'folder', repoKey, path },
        })
      )
        .json()
        .actions.map((a: { name: string }) => a.name);
    expect(await actionsOf('ver-local', 'org/acme')).toContain('deleteversions');
    expect(await actionsOf('py-local', 'reindexed')).not.toContain('deleteversions');
  });
});
