import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { packTarball, publishDocument } from './helpers/npm-cli.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * The package browser's calls: GraphQL over the package index, grouped by package across the
 * repositories the caller may read, with versions in each format's order.
 */
let depot: TestDepot;

async function publishNpm(repoKey: string, name: string, version: string, extra = {}) {
  const tarball = await packTarball({
    'package.json': JSON.stringify({ name, version }),
    'README.md': `# ${name} ${version}`,
  });
  const response = await depot.app.inject({
    method: 'PUT',
    url: `/artifactory/api/npm/${repoKey}/${name.replace('/', '%2f')}`,
    headers: { ...adminAuth(), 'content-type': 'application/json' },
    payload: publishDocument(name, version, tarball, extra),
  });
  expect(response.statusCode, response.body).toBe(201);
}

async function graphQl(call: string, query: string, variables = {}, headers = adminAuth()) {
  const response = await depot.app.inject({
    method: 'POST',
    url: `/ui/api/v1/mds/${call}`,
    headers,
    payload: { graphQL: { query, variables } },
  });
  return { status: response.statusCode, body: response.json() };
}

const PACKAGES = `query($filter: PackageFilter, $first: Int, $after: String) {
  packages(filter: $filter, first: $first, after: $after) {
    edges { node { id name packageType latestVersion versionsCount description } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const VERSIONS = `query($filter: VersionFilter!) {
  versions(filter: $filter) {
    edges { node { name repos { name leadFilePath } files { name lead sha256 } } }
  }
}`;

beforeAll(async () => {
  depot = await startTestDepot();
  for (const key of ['npm-a', 'npm-b'])
    await depot.services.repositories.create({ key, rclass: 'local', packageType: 'npm' } as never);
  await publishNpm('npm-a', 'left-pad', '1.0.0', {
    description: 'Pads on the left',
    license: 'MIT',
  });
  await publishNpm('npm-a', 'left-pad', '1.10.0');
  await publishNpm('npm-a', 'left-pad', '1.2.0-beta.1');
  await publishNpm('npm-b', 'left-pad', '1.2.0');
  await publishNpm('npm-b', '@acme/right-pad', '0.1.0');
  // A pre-release above the only release: the release is still the latest.
  await publishNpm('npm-b', '@acme/right-pad', '0.2.0-rc.1');
  await depot.services.users.create({
    name: 'outsider',
    email: 'o@example.com',
    password: 'outsider-pass-1',
    groups: [],
  });
});
afterAll(() => depot.close());

describe('the package browser calls', () => {
  it('lists packages across repositories with their latest version', async () => {
    const { status, body } = await graphQl('packages', PACKAGES, { first: 10 });
    expect(status).toBe(200);
    expect(body.data.packages.edges.map((e: { node: unknown }) => e.node)).toEqual([
      {
        id: 'npm://@acme/right-pad',
        name: '@acme/right-pad',
        packageType: 'npm',
        latestVersion: '0.1.0',
        versionsCount: 2,
        description: '',
      },
      {
        id: 'npm://left-pad',
        name: 'left-pad',
        packageType: 'npm',
        latestVersion: '1.10.0',
        versionsCount: 4,
        description: '',
      },
    ]);
  });

  it('filters by name with wildcards and pages with cursors', async () => {
    const filtered = await graphQl('packages', PACKAGES, { filter: { name: 'left*' } });
    expect(filtered.body.data.packages.edges).toHaveLength(1);
    const first = await graphQl('packages', PACKAGES, { first: 1 });
    expect(first.body.data.packages.pageInfo.hasNextPage).toBe(true);
    const second = await graphQl('packages', PACKAGES, {
      first: 1,
      after: first.body.data.packages.pageInfo.endCursor,
    });
    expect(second.body.data.packages.edges[0].node.name).toBe('left-pad');
    expect(second.body.data.packages.pageInfo.hasNextPage).toBe(false);
  });

  it('filters by scope, by tags and by when the package first appeared', async () => {
    await publishNpm('npm-b', 'tagged-pad', '1.0.0', { keywords: ['Padding', 'strings'] });
    const names = async (filter: object) => {
      const { status, body } = await graphQl('packages', PACKAGES, { filter });
      expect(status, JSON.stringify(body)).toBe(200);
      return body.data.packages.edges.map((e: { node: { name: string } }) => e.node.name);
    };
    expect(await names({ scope: '@acme' })).toEqual(['@acme/right-pad']);
    expect(await names({ scope: 'acme' })).toEqual(['@acme/right-pad']);
    expect(await names({ scope: 'other' })).toEqual([]);
    expect(await names({ tags: ['padding'] })).toEqual(['tagged-pad']);
    expect(await names({ tags: ['nothing', 'STRINGS'] })).toEqual(['tagged-pad']);
    expect(await names({ tags: ['nothing'] })).toEqual([]);
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    expect(await names({ createdAfter: hourAgo })).toHaveLength(3);
    expect(await names({ createdAfter: inAnHour })).toEqual([]);
    expect(await names({ createdBefore: hourAgo })).toEqual([]);
    expect(await names({ createdBefore: inAnHour, scope: 'acme' })).toEqual(['@acme/right-pad']);
    const bad = await graphQl('packages', PACKAGES, { filter: { createdAfter: 'yesterday' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('createdAfter must be an ISO 8601 date');
  });

  it('gives versions newest first in semver order, each with its repositories and files', async () => {
    const { body } = await graphQl('versions', VERSIONS, {
      filter: { packageId: 'npm://left-pad' },
    });
    const versions = body.data.versions.edges.map((e: { node: { name: string } }) => e.node);
    expect(versions.map((v: { name: string }) => v.name)).toEqual([
      '1.10.0',
      '1.2.0',
      '1.2.0-beta.1',
      '1.0.0',
    ]);
    expect(versions[1].repos).toEqual([
      { name: 'npm-b', leadFilePath: 'left-pad/-/left-pad-1.2.0.tgz' },
    ]);
    expect(versions[1].files).toEqual([
      { name: 'left-pad-1.2.0.tgz', lead: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    const releases = await graphQl('versions', VERSIONS, {
      filter: { packageId: 'npm://left-pad', ignorePreRelease: true },
    });
    expect(releases.body.data.versions.edges).toHaveLength(3);
  });

  it('answers a package with its licenses, and the readme of a version', async () => {
    const { body } = await graphQl(
      'package',
      'query($id: ID!) { package(id: $id) { name latestVersion licenses { name } stats { downloads } } }',
      { id: 'npm://left-pad' },
    );
    expect(body.data.package).toEqual({
      name: 'left-pad',
      latestVersion: '1.10.0',
      licenses: [],
      stats: { downloads: 0 },
    });
    const readme = await depot.app.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/v1/native/versions/npm/readme?name=left-pad&version=1.0.0',
      headers: adminAuth(),
    });
    expect(readme.json()).toEqual({ readme: '# left-pad 1.0.0', format: 'markdown' });
    const props = await depot.app.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/v1/native/versions/npm/props?name=left-pad&version=1.0.0',
      headers: adminAuth(),
    });
    expect(props.json().properties).toEqual(
      expect.arrayContaining([{ key: 'npm.version', values: ['1.0.0'] }]),
    );
  });

  it("answers a version's documents by its lead file's path, as spec 02 §7 asks them", async () => {
    const native = (document: string, query: string, headers = adminAuth()) =>
      depot.app.inject({
        url: `/ui/api/v1/ui/v1/native/versions/npm/${document}?${query}`,
        headers,
      });
    const { body } = await graphQl('versions', VERSIONS, {
      filter: { packageId: 'npm://left-pad' },
    });
    const version = body.data.versions.edges
      .map(
        (e: { node: { name: string; repos: { name: string; leadFilePath: string }[] } }) => e.node,
      )
      .find((node: { name: string }) => node.name === '1.0.0');
    const path = `${version.repos[0].name}/${version.repos[0].leadFilePath}`;
    const query = new URLSearchParams({ path }).toString();
    expect((await native('readme', query)).json()).toEqual({
      readme: '# left-pad 1.0.0',
      format: 'markdown',
    });
    const dependencies = await native('dependencies', query);
    expect(dependencies.statusCode).toBe(200);
    expect(dependencies.json()).toEqual({ dependencies: {}, devDependencies: {}, list: [] });
    expect((await native('props', query)).json().properties).toEqual(
      expect.arrayContaining([{ key: 'npm.version', values: ['1.0.0'] }]),
    );
    // no version's file there, or one the caller may not read: the same 404
    expect((await native('readme', 'path=npm-a/left-pad/-/nothing.tgz')).statusCode).toBe(404);
    const outsider = { authorization: basic('outsider', 'outsider-pass-1') };
    expect((await native('readme', query, outsider)).statusCode).toBe(404);
    expect((await native('readme', '')).statusCode).toBe(400);
  });

  it("lists a version's dependencies with their scopes, for npm and for Maven", async () => {
    const dependenciesOf = async (type: string, name: string, version: string) => {
      const query = new URLSearchParams({ name, version });
      const response = await depot.app.inject({
        url: `/ui/api/v1/ui/v1/native/versions/${type}/dependencies?${query}`,
        headers: adminAuth(),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().list;
    };
    await publishNpm('npm-a', 'uses-deps', '1.0.0', {
      dependencies: { 'left-pad': '^1.0.0' },
      devDependencies: { vitest: '3.x' },
      peerDependencies: { react: '>=18' },
    });
    expect(await dependenciesOf('npm', 'uses-deps', '1.0.0')).toEqual([
      { name: 'left-pad', range: '^1.0.0', scope: 'runtime' },
      { name: 'vitest', range: '3.x', scope: 'dev' },
      { name: 'react', range: '>=18', scope: 'peer' },
    ]);
    await depot.services.repositories.create({
      key: 'mvn-deps',
      rclass: 'local',
      packageType: 'maven',
    });
    const pom = `<project><groupId>org.acme</groupId><artifactId>app</artifactId><version>2.0</version>
      <dependencyManagement><dependencies><dependency><groupId>managed</groupId><artifactId>only</artifactId></dependency></dependencies></dependencyManagement>
      <dependencies>
        <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>2.0.9</version></dependency>
        <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
      </dependencies></project>`;
    const put = await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/mvn-deps/org/acme/app/2.0/app-2.0.pom',
      headers: adminAuth(),
      payload: pom,
    });
    expect(put.statusCode).toBe(201);
    expect(await dependenciesOf('maven', 'org.acme:app', '2.0')).toEqual([
      { name: 'org.slf4j:slf4j-api', range: '2.0.9', scope: 'compile' },
      { name: 'junit:junit', range: '4.13.2', scope: 'test' },
    ]);
  });

  it('lists each package with its latest version’s tags and licenses', async () => {
    await publishNpm('npm-b', 'tagged-lib', '1.0.0', { keywords: ['old'], license: 'ISC' });
    await publishNpm('npm-b', 'tagged-lib', '2.0.0', { keywords: ['pad', 'util'], license: 'MIT' });
    const { body } = await graphQl(
      'packages',
      'query($filter: PackageFilter) { packages(filter: $filter) { edges { node { name tags licenses { name } } } } }',
      { filter: { name: 'tagged-lib' } },
    );
    expect(body.data.packages.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { name: 'tagged-lib', tags: ['pad', 'util'], licenses: [{ name: 'MIT' }] },
    ]);
  });

  it('filters versions by license, and reads a POM’s licenses', async () => {
    const { body } = await graphQl('versions', VERSIONS, {
      filter: { packageId: 'npm://left-pad', licenses: ['mit'] },
    });
    expect(body.data.versions.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual([
      '1.0.0',
    ]);
    await depot.services.repositories.create({
      key: 'mvn-lic',
      rclass: 'local',
      packageType: 'maven',
    });
    const pom = `<project><groupId>org.acme</groupId><artifactId>lic</artifactId><version>1.0</version>
      <licenses><license><name>Apache-2.0</name></license><license><name>MIT</name></license></licenses></project>`;
    const put = await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/mvn-lic/org/acme/lic/1.0/lic-1.0.pom',
      headers: adminAuth(),
      payload: pom,
    });
    expect(put.statusCode).toBe(201);
    const maven = await graphQl(
      'package',
      'query($id: ID!) { package(id: $id) { licenses { name } } }',
      { id: 'maven://org.acme:lic' },
    );
    expect(maven.body.data.package.licenses).toEqual([{ name: 'Apache-2.0' }, { name: 'MIT' }]);
  });

  it('narrows the list to a project’s repositories in its context', async () => {
    await depot.services.projects.create({ project_key: 'pbr', display_name: 'Browser' });
    await depot.services.repositories.create({
      key: 'pbr-npm',
      rclass: 'local',
      packageType: 'npm',
      projectKey: 'pbr',
    } as never);
    await publishNpm('pbr-npm', 'project-only', '1.0.0');
    const names = async (filter: object) =>
      (await graphQl('packages', PACKAGES, { filter })).body.data.packages.edges.map(
        (e: { node: { name: string } }) => e.node.name,
      );
    expect(await names({ projectKey: 'pbr' })).toEqual(['project-only']);
    expect(await names({ projectKey: 'default' })).toEqual(
      expect.arrayContaining(['project-only', 'left-pad']),
    );
  });

  it('counts a download of a version for the package and the version', async () => {
    const download = await depot.app.inject({
      method: 'GET',
      url: '/artifactory/api/npm/npm-b/left-pad/-/left-pad-1.2.0.tgz',
      headers: adminAuth(),
    });
    expect(download.statusCode).toBe(200);
    // Counts are flushed to the database within a second (docs/maintenance.md).
    await vi.waitFor(
      async () => {
        const { body } = await graphQl(
          'package',
          'query($id: ID!) { package(id: $id) { stats { downloads } } }',
          { id: 'npm://left-pad' },
        );
        expect(body.data.package.stats.downloads).toBe(1);
      },
      { timeout: 5000, interval: 200 },
    );
    const { body } = await graphQl(
      'versions',
      'query($filter: VersionFilter!) { versions(filter: $filter) { edges { node { name stats { downloadCount } } } } }',
      { filter: { packageId: 'npm://left-pad', name: '1.2.0' } },
    );
    expect(body.data.versions.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { name: '1.2.0', stats: { downloadCount: 1 } },
      { name: '1.2.0-beta.1', stats: { downloadCount: 0 } },
    ]);
  });

  it('shows a user nothing of repositories they may not read', async () => {
    const { body } = await graphQl(
      'packages',
      PACKAGES,
      {},
      {
        authorization: basic('outsider', 'outsider-pass-1'),
      },
    );
    expect(body.data.packages.edges).toEqual([]);
  });

  it('answers a malformed query or a refused argument with 400', async () => {
    const broken = await graphQl('packages', 'query { packages( }');
    expect(broken.status).toBe(400);
    expect(broken.body.errors[0].message).toMatch(/^Syntax Error/);
    const huge = await graphQl('packages', PACKAGES, { first: 100000 });
    expect(huge.status).toBe(400);
    expect(huge.body.errors[0].message).toBe('first must be between 1 and 1000');
  });
});

describe("/mds/packages' search shape (limit, sort_by, sort_type, query)", () => {
  async function search(body: object, headers: Record<string, string> = adminAuth()) {
    const response = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/mds/packages',
      headers,
      payload: body,
    });
    const json = response.json();
    return {
      status: response.statusCode,
      names: (json.data?.packages.edges ?? []).map((e: { node: { name: string } }) => e.node.name),
      message: json.errors?.[0]?.message as string | undefined,
      json,
    };
  }

  it('searches by name prefix, version, repositories and package type', async () => {
    const byName = await search({ query: { lowercase_name: 'left' } });
    expect(byName.status).toBe(200);
    expect(byName.names).toEqual(['left-pad']);
    expect(byName.json.data.packages.edges[0].node).toMatchObject({
      packageType: 'npm',
      latestVersion: '1.10.0',
    });
    expect((await search({ query: { version: '1.2.0-beta' } })).names).toEqual(['left-pad']);
    expect((await search({ query: { version: '0.2' } })).names).toEqual(['@acme/right-pad']);
    const inB = await search({ query: { repos: ['npm-b'], lowercase_name: '*pad' } });
    expect(inB.names).toEqual(['@acme/right-pad', 'left-pad', 'tagged-pad']);
    const inA = await search({ query: { repos: 'npm-a', lowercase_name: '*pad' } });
    expect(inA.names).toEqual(['left-pad']);
    expect((await search({ query: { package_type: 'NPM', scope: 'acme' } })).names).toEqual([
      '@acme/right-pad',
    ]);
    // "Debian maps to deb, and gems to rubygems": neither has packages here.
    expect((await search({ query: { package_type: 'gems' } })).names).toEqual([]);
  });

  it('finds a package by a checksum of one of its files, of any of the three lengths', async () => {
    const { body } = await graphQl('versions', VERSIONS, {
      filter: { packageId: 'npm://@acme/right-pad', name: '0.1.0' },
    });
    const sha256: string = body.data.versions.edges[0].node.files[0].sha256;
    const blob = await depot.services.db
      .selectFrom('blobs')
      .select(['sha1', 'md5'])
      .where('sha256', '=', sha256)
      .executeTakeFirstOrThrow();
    for (const checksum of [sha256, blob.sha1, blob.md5].filter(Boolean))
      expect((await search({ query: { checksum } })).names, checksum!).toEqual(['@acme/right-pad']);
    const bad = await search({ query: { checksum: 'abc123' } });
    expect(bad.status).toBe(400);
    expect(bad.message).toBe('Invalid Checksum Length');
  });

  it('sorts by name, creation or modification, in any spelling of the direction', async () => {
    const pads = { lowercase_name: '*pad' };
    const sorted = async (sort_by: string, sort_type?: string) =>
      (await search({ query: pads, sort_by, ...(sort_type ? { sort_type } : {}) })).names;
    expect(await sorted('name')).toEqual(['@acme/right-pad', 'left-pad', 'tagged-pad']);
    expect(await sorted('name', 'DESCEND')).toEqual(['tagged-pad', 'left-pad', '@acme/right-pad']);
    // published in this order: left-pad, then @acme/right-pad, then tagged-pad
    expect(await sorted('created', 'Asc')).toEqual(['left-pad', '@acme/right-pad', 'tagged-pad']);
    expect(await sorted('created', 'desc')).toEqual(['tagged-pad', '@acme/right-pad', 'left-pad']);
    expect(await sorted('modified', 'desc')).toEqual(['tagged-pad', '@acme/right-pad', 'left-pad']);
    expect((await search({ query: pads, limit: 1 })).names).toEqual(['@acme/right-pad']);
  });

  it('refuses what it does not know, and shows an outsider nothing', async () => {
    const refusals: Array<[object, RegExp]> = [
      [{ sort_type: 'up' }, /^sort_type must be asc, desc, ascend or descend$/],
      [{ sort_by: 'stars' }, /^sort_by must be one of /],
      [{ query: { colour: 'red' } }, /^Unknown search field\(s\): colour/],
      [{ limit: 0 }, /^limit must be a whole number between 1 and 1000$/],
      [{ limit: 1001 }, /^limit must be a whole number between 1 and 1000$/],
      [{ query: { lowercase_name: 7 } }, /^query\.lowercase_name must be text$/],
      [{ sort_by: 7 }, /^sort_by must be text$/],
      [{ sort_type: ['asc'] }, /^sort_type must be text$/],
    ];
    for (const [body, message] of refusals) {
      const refused = await search(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.message).toMatch(message);
    }
    const outsider = await search(
      { query: { repos: ['npm-a'] } },
      { authorization: basic('outsider', 'outsider-pass-1') },
    );
    expect(outsider.names).toEqual([]);
  });
});
