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

/**
 * The calculate-index action (spec 03 §7 /ui/artifactactions/calculateIndex): a local
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
