import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBulkWork } from '../server/db/bulk-work.ts';
import { craftZip } from './helpers/archives.ts';
import { packTarball, publishDocument } from './helpers/npm-cli.ts';
import {
  adminAuth,
  basic,
  createRepository,
  deployFile,
  devWithOnlyGrant,
  ODD_NUMBERED,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * The console's search types (spec 02 §7) and the scripted search API, over a seeded index:
 * quick, checksum, property, GAVC, class, package and trash searches, paging to the end with
 * a continue state, permission filtering before the limit, and bulk delete.
 */
let depot: TestDepot;
const DEV = { authorization: basic('dev', 'dev-pass-1') };
const POM =
  '<project><groupId>org.acme</groupId><artifactId>tool</artifactId><version>1.0</version></project>';
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

async function post(call: string, payload: unknown, headers: object = adminAuth()) {
  const response = await depot.app.inject({
    method: 'POST',
    url: `/ui/api/v1/ui/artifactsearch/${call}`,
    headers: { ...headers },
    payload: payload as object,
  });
  return { status: response.statusCode, body: response.json() };
}

async function get(url: string, headers: object = adminAuth()) {
  const response = await depot.app.inject({ method: 'GET', url, headers: { ...headers } });
  return {
    status: response.statusCode,
    body: response.body,
    type: response.headers['content-type'],
  };
}

const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);
const uris = (body: string) =>
  (JSON.parse(body) as { results: { uri: string }[] }).results.map((r) =>
    r.uri.replace(/^.*\/api\/storage\//, ''),
  );

async function publishNpm(repoKey: string, name: string, version: string) {
  const tarball = await packTarball({ 'package.json': JSON.stringify({ name, version }) });
  const response = await depot.app.inject({
    method: 'PUT',
    url: `/artifactory/api/npm/${repoKey}/${name.replace('/', '%2f')}`,
    headers: { ...adminAuth(), 'content-type': 'application/json' },
    payload: publishDocument(name, version, tarball),
  });
  expect(response.statusCode, response.body).toBe(201);
}

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'libs-local', 'local', { packageType: 'maven' });
  await createRepository(depot, 'docs-local', 'local');
  await createRepository(depot, 'npm-local', 'local', { packageType: 'npm' });
  await createRepository(depot, 'all-docs', 'virtual', { repositories: ['docs-local'] });
  const jar = craftZip([
    { name: 'META-INF/MANIFEST.MF', data: Buffer.from('Manifest-Version: 1.0\n') },
    { name: 'org/acme/util/StringTool.class', data: Buffer.from('cafebabe') },
    { name: 'org/acme/util/StringTool$Inner.class', data: Buffer.from('cafebabe') },
    { name: 'org/acme/util/StringTool.java', data: Buffer.from('class StringTool {}') },
  ]);
  await deployFile(depot, 'libs-local', 'org/acme/tool/1.0/tool-1.0.jar', jar);
  await deployFile(depot, 'libs-local', 'org/acme/tool/1.0/tool-1.0.pom', POM);
  await deployFile(depot, 'libs-local', 'org/acme/tool/1.0/tool-1.0-sources.jar', 'src');
  await deployFile(depot, 'libs-local', 'org/acme/tool/2.0/tool-2.0.jar', 'two');
  await deployFile(
    depot,
    'libs-local',
    'org/acme/tool/2.0-SNAPSHOT/tool-2.0-20261101.101010-1.jar',
    's1',
  );
  await deployFile(
    depot,
    'libs-local',
    'org/acme/tool/2.0-SNAPSHOT/tool-2.0-20261102.101010-2.jar',
    's2',
  );
  await deployFile(depot, 'docs-local', 'guide/Readme.md;team=core;tier=gold', 'readme');
  await deployFile(depot, 'docs-local', 'guide/readme-old.md;team=core;tier=silver', 'old');
  await deployFile(depot, 'docs-local', 'guide/other.md;team=web', 'other');
  for (let i = 0; i < 12; i++)
    await deployFile(depot, 'docs-local', `pages/page-${String(i).padStart(2, '0')}.html`, `p${i}`);
  await publishNpm('npm-local', 'left-pad', '1.0.0');
  await publishNpm('npm-local', 'left-pad', '1.1.0');
  await publishNpm('npm-local', '@acme/left-shift', '0.1.0');
  // dev deletes (and reads) every other page only.
  await devWithOnlyGrant(depot, {
    repositories: ['docs-local'],
    include: ['pages/**'],
    exclude: ODD_NUMBERED('html'),
    actions: ['delete'],
  });
});
afterAll(() => depot.close());

describe('quick search', () => {
  it('finds files by the start of their name, case-insensitively, with a trailing * added', async () => {
    const { status, body } = await post('quick', { query: 'readme' });
    expect(status).toBe(200);
    // Folded names in byte order: '-' comes before '.'.
    expect(names(body)).toEqual(['readme-old.md', 'Readme.md']);
    expect(body.hasMore).toBe(false);
    expect(body.results[1]).toMatchObject({
      repoKey: 'docs-local',
      path: 'guide/Readme.md',
      folderPath: 'guide',
      type: 'file',
      size: 6,
    });
    expect(body.results[1].modifiedDate).toBeGreaterThan(Date.parse('2020-01-01'));
    expect(names((await post('quick', { query: '*old*' })).body)).toEqual(['readme-old.md']);
  });

  it('narrows to the selected repositories, a virtual one standing for its members', async () => {
    expect(
      names((await post('quick', { query: 'tool', selectedRepositories: ['docs-local'] })).body),
    ).toEqual([]);
    expect(
      names((await post('quick', { query: 'other', selectedRepositories: ['all-docs'] })).body),
    ).toEqual(['other.md']);
    const unknown = await post('quick', { query: 'x', selectedRepositories: ['nope'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toBe("Repository 'nope' does not exist");
  });

  it('pages to the end with a continue state, never capping silently', async () => {
    const first = await post('quick', { query: 'page-', limit: 5 });
    expect(names(first.body)).toEqual([
      'page-00.html',
      'page-01.html',
      'page-02.html',
      'page-03.html',
      'page-04.html',
    ]);
    expect(first.body.hasMore).toBe(true);
    const second = await post('quick', {
      query: 'page-',
      limit: 5,
      continueState: first.body.continueState,
    });
    expect(names(second.body)).toEqual([
      'page-05.html',
      'page-06.html',
      'page-07.html',
      'page-08.html',
      'page-09.html',
    ]);
    const last = await post('quick', {
      query: 'page-',
      limit: 5,
      continueState: second.body.continueState,
    });
    expect(names(last.body)).toEqual(['page-10.html', 'page-11.html']);
    expect(last.body).not.toHaveProperty('continueState');
    expect(last.body.hasMore).toBe(false);
  });

  it('filters by read permission before the limit', async () => {
    const first = await post('quick', { query: 'page', limit: 4 }, DEV);
    expect(names(first.body)).toEqual([
      'page-00.html',
      'page-02.html',
      'page-04.html',
      'page-06.html',
    ]);
    expect(first.body.hasMore).toBe(true);
    const rest = await post(
      'quick',
      { query: 'page', limit: 4, continueState: first.body.continueState },
      DEV,
    );
    expect(names(rest.body)).toEqual(['page-08.html', 'page-10.html']);
    expect(rest.body.hasMore).toBe(false);
    expect(names((await post('quick', { query: 'readme' }, DEV)).body)).toEqual([]);
  });

  // bench:mixed's finding (issue 28): every search's every batch went through the embedded
  // database's one-at-a-time lane for bulk work, so at 64 connections a one-batch search
  // waited for every other search's batch, each behind the whole queue: 1.9 s at p50.
  it.runIf(!process.env.DEPOT_TEST_DATABASE_URL)(
    'answers a one-batch search without waiting for the bulk statements queued before it (embedded database)',
    async () => {
      await get('/artifactory/api/search/artifact?name=page-0*'); // the caller's access, cached
      const finished: string[] = [];
      const longStreams = Array.from({ length: 10 }, (_, i) =>
        asBulkWork(() => sql`select pg_sleep(0.02)`.execute(depot.db)).then(() =>
          finished.push(`bulk ${i}`),
        ),
      );
      const search = get('/artifactory/api/search/artifact?name=page-0*').then((answer) => {
        finished.push('search');
        return answer;
      });
      const [answer] = await Promise.all([search, ...longStreams]);
      expect(uris(answer.body)).toHaveLength(10);
      expect(finished.indexOf('search')).toBeLessThan(finished.indexOf('bulk 9'));
    },
  );

  it('refuses empty and wildcard-only terms and bad paging', async () => {
    for (const query of ['', '  ', '*', '**?'])
      expect((await post('quick', { query })).status, query).toBe(400);
    expect((await post('quick', { query: '*' })).body.errors[0].message).toBe(
      'A search term needs more than wildcards (* and ?)',
    );
    expect((await post('quick', { query: 'a', limit: 100000 })).status).toBe(400);
    expect((await post('quick', { query: 'a', continueState: '1; drop table nodes' })).status).toBe(
      400,
    );
  });
});

describe('checksum, property, GAVC, class, package and trash searches', () => {
  it('finds by SHA-1, MD5 and SHA-256 and refuses other lengths', async () => {
    const md5 = createHash('md5').update('old').digest('hex');
    const sha256 = createHash('sha256').update('old').digest('hex');
    for (const checksum of [sha1('old'), md5, sha256.toUpperCase()])
      expect(names((await post('checksum', { checksum })).body)).toEqual(['readme-old.md']);
    const bad = await post('checksum', { checksum: 'abc123' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].message).toBe('Invalid Checksum Length');
    const notHex = await post('checksum', { checksum: 'z'.repeat(40) });
    expect([notHex.status, notHex.body.errors[0].message]).toEqual([
      400,
      'A checksum has hexadecimal digits only (0-9, a-f)',
    ]);
  });

  it('finds by properties: every key, any of its values, wildcards and any value', async () => {
    const search = (propertyKeyValues: object) => post('property', { propertyKeyValues });
    expect(names((await search([{ key: 'team', values: ['core'] }])).body)).toEqual([
      'readme-old.md',
      'Readme.md',
    ]);
    expect(
      names(
        (
          await search([
            { key: 'team', values: ['core'] },
            { key: 'tier', values: ['gold'] },
          ])
        ).body,
      ),
    ).toEqual(['Readme.md']);
    expect(names((await search([{ key: 'tier', values: ['gold', 'silver'] }])).body)).toEqual([
      'readme-old.md',
      'Readme.md',
    ]);
    expect(names((await search([{ key: 'tier', values: ['s*'] }])).body)).toEqual([
      'readme-old.md',
    ]);
    expect(names((await search([{ key: 'team' }])).body)).toEqual([
      'other.md',
      'readme-old.md',
      'Readme.md',
    ]);
    expect((await search([])).status).toBe(400);
  });

  it('finds Maven artifacts by group, artifact, version and classifier', async () => {
    const gavc = (query: object) => post('gavc', query);
    expect(
      names((await gavc({ groupID: 'org.acme', artifactID: 'tool', version: '1.0' })).body),
    ).toEqual(['tool-1.0-sources.jar', 'tool-1.0.jar', 'tool-1.0.pom']);
    expect(names((await gavc({ artifactID: 'tool', classifier: 'sources' })).body)).toEqual([
      'tool-1.0-sources.jar',
    ]);
    expect(names((await gavc({ groupID: 'org.acme', version: '2.0-SNAPSHOT' })).body)).toEqual([
      'tool-2.0-20261101.101010-1.jar',
      'tool-2.0-20261102.101010-2.jar',
    ]);
    expect((await gavc({})).status).toBe(400);
  });

  it('finds classes inside jars indexed at deploy', async () => {
    const found = await post('class', { name: 'StringTool' });
    expect(found.body.results.map((r: { entryPath: string }) => r.entryPath)).toEqual([
      'org/acme/util/StringTool.class',
    ]);
    expect(found.body.results[0]).toMatchObject({
      repoKey: 'libs-local',
      archiveName: 'tool-1.0.jar',
      archivePath: 'org/acme/tool/1.0/tool-1.0.jar',
    });
    const all = await post('class', { name: 'StringTool*' });
    expect(names(all.body)).toEqual([
      'StringTool$Inner.class',
      'StringTool.class',
      'StringTool.java',
    ]);
    const classesOnly = await post('class', {
      name: 'StringTool*',
      searchClassOnly: true,
      excludeInnerClasses: true,
    });
    expect(names(classesOnly.body)).toEqual(['StringTool.class']);
    expect(names((await post('class', { name: 'String*', path: 'org.acme.other' })).body)).toEqual(
      [],
    );
    expect(
      names(
        (await post('class', { name: 'String*', path: 'org/acme/util', searchClassOnly: true }))
          .body,
      ),
    ).toHaveLength(2);
  });

  it('finds packages by the fields of their type', async () => {
    const fields = await get('/ui/api/v1/ui/artifactsearch/pkg/fields/npm');
    expect(
      JSON.parse(fields.body).map(
        (f: { id: string; uiSearchKey: string }) => `${f.id}:${f.uiSearchKey}`,
      ),
    ).toEqual(['npmName:name', 'npmVersion:version', 'npmScope:scope', 'repo:repo']);
    const gav = JSON.parse((await get('/ui/api/v1/ui/artifactsearch/pkg/fields/gav')).body);
    expect(gav.map((f: { id: string }) => f.id)).toEqual([
      'groupID',
      'artifactID',
      'version',
      'classifier',
      'repo',
    ]);
    const byName = await post('pkg', [
      { id: 'pkgType', values: ['npm'] },
      { id: 'npmName', values: ['left'] },
    ]);
    expect(
      byName.body.results.map(
        (r: { packageName: string; version: string }) => `${r.packageName}@${r.version}`,
      ),
    ).toEqual(['left-pad@1.0.0', 'left-pad@1.1.0']);
    const scoped = await post('pkg', [
      { id: 'pkgType', values: ['npm'] },
      { id: 'npmScope', values: ['acme'] },
    ]);
    expect(scoped.body.results.map((r: { packageName: string }) => r.packageName)).toEqual([
      '@acme/left-shift',
    ]);
    const short = await post('pkg', [
      { id: 'pkgType', values: ['npm'] },
      { id: 'npmName', values: ['l*'] },
    ]);
    expect(short.status).toBe(400);
    expect(short.body.errors[0].message).toBe(
      'Enter at least 3 characters besides wildcards (* and ?)',
    );
    const maven = await post('pkg', [
      { id: 'pkgType', values: ['maven'] },
      { id: 'artifactID', values: ['tool'] },
      { id: 'version', values: ['2.0'] },
    ]);
    expect(names(maven.body)).toEqual(['tool-2.0.jar']);
  });

  it('deletes results in bulk into the trash, where the trash search finds them', async () => {
    const refused = await post(
      'deleteArtifact',
      {
        artifacts: [
          { repoKey: 'docs-local', path: 'pages/page-02.html' },
          { repoKey: 'docs-local', path: 'guide/other.md' },
        ],
      },
      DEV,
    );
    expect(refused.status).toBe(403);
    expect((await post('quick', { query: 'page-02' })).body.results).toHaveLength(1);
    const done = await post(
      'deleteArtifact',
      {
        artifacts: [
          { repoKey: 'docs-local', path: 'pages/page-02.html' },
          { repoKey: 'docs-local', path: '/pages/page-04.html' },
        ],
      },
      DEV,
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.info).toBe('Successfully deleted 2 artifacts');
    expect((await post('quick', { query: 'page-02' })).body.results).toHaveLength(0);
    const trash = await post('trash', { query: 'page-0' });
    expect(trash.body.results.map((r: { path: string }) => r.path)).toEqual([
      'docs-local/pages/page-02.html',
      'docs-local/pages/page-04.html',
    ]);
    const byChecksum = await post('trash', { query: sha1('p4'), isChecksum: true });
    expect(names(byChecksum.body)).toEqual(['page-04.html']);
  });
});

describe('the scripted search API', () => {
  it('/artifact finds by name in the given repositories', async () => {
    const found = await get('/artifactory/api/search/artifact?name=*.md&repos=docs-local');
    expect(found.type).toMatch(/application\/json/);
    expect(uris(found.body)).toEqual([
      'docs-local/guide/other.md',
      'docs-local/guide/readme-old.md',
      'docs-local/guide/Readme.md',
    ]);
    expect((await get('/artifactory/api/search/artifact?name=*')).status).toBe(400);
  });

  it('/gavc, /prop and /checksum answer storage URIs, with info and properties on request', async () => {
    expect(uris((await get('/artifactory/api/search/gavc?g=org.acme&a=tool&v=2.0')).body)).toEqual([
      'libs-local/org/acme/tool/2.0/tool-2.0.jar',
    ]);
    expect(
      uris((await get('/artifactory/api/search/prop?team=core,web&tier=silver')).body),
    ).toEqual(['docs-local/guide/readme-old.md']);
    const detailed = await depot.app.inject({
      method: 'GET',
      url: `/artifactory/api/search/checksum?sha1=${sha1('old')}`,
      headers: { ...adminAuth(), 'x-result-detail': 'info, properties' },
    });
    expect(detailed.json().results).toEqual([
      expect.objectContaining({
        repo: 'docs-local',
        path: '/guide/readme-old.md',
        size: '3',
        checksums: expect.objectContaining({
          sha1: sha1('old'),
          md5: createHash('md5').update('old').digest('hex'),
        }),
        properties: { team: ['core'], tier: ['silver'] },
      }),
    ]);
  });

  it('/creation, /dates and /usage search by time', async () => {
    const from = Date.now() - 3_600_000;
    const created = JSON.parse(
      (await get(`/artifactory/api/search/creation?from=${from}&repos=npm-local`)).body,
    );
    expect(created.results).toHaveLength(3);
    expect(created.results[0].created).toMatch(/^\d{4}-/);
    await get('/artifactory/docs-local/guide/other.md');
    const downloaded = await get(
      `/artifactory/api/search/dates?dateFields=lastDownloaded&from=${from}&repos=docs-local`,
    );
    expect(uris(downloaded.body)).toEqual(['docs-local/guide/other.md']);
    const unused = await get(
      `/artifactory/api/search/usage?notUsedSince=${from}&createdBefore=${Date.now() + 60_000}&repos=docs-local`,
    );
    const unusedUris = uris(unused.body);
    expect(unusedUris).toContain('docs-local/guide/Readme.md');
    expect(unusedUris).not.toContain('docs-local/guide/other.md');
    expect((await get('/artifactory/api/search/creation?from=yesterday')).status).toBe(400);
    // Past the dates JavaScript can hold: a clear 400, not a failure mid-answer.
    expect((await get('/artifactory/api/search/creation?from=9007199254740991')).status).toBe(400);
    expect((await get('/artifactory/api/search/dates?dateFields=colour&from=0')).status).toBe(400);
  });

  it('/latestVersion answers the highest version, and a snapshot its latest build', async () => {
    const latest = await get('/artifactory/api/search/latestVersion?g=org.acme&a=tool');
    expect([latest.status, latest.body]).toEqual([200, '2.0']);
    expect((await get('/artifactory/api/search/latestVersion?g=org.acme&a=tool&v=1.*')).body).toBe(
      '1.0',
    );
    expect(
      (await get('/artifactory/api/search/latestVersion?g=org.acme&a=tool&v=2.0-SNAPSHOT')).body,
    ).toBe('2.0-20261102.101010-2');
    expect((await get('/artifactory/api/search/latestVersion?g=org.none&a=tool')).status).toBe(404);
  });

  it('answers only what the caller may read', async () => {
    expect(uris((await get('/artifactory/api/search/artifact?name=page-1*', DEV)).body)).toEqual([
      'docs-local/pages/page-10.html',
    ]);
  });
});
