import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { createMavenRepository, TEST_ADMIN_PASSWORD } from './helpers/test-app.ts';

/**
 * Maven repositories, driven by the exact requests Maven 3's deploy and resolve send (GET
 * the metadata, PUT each file then its .sha1 and .md5, PUT the client's own metadata), against
 * a local repository, a remote one proxying a second Depot, and a virtual over both.
 */
let depot: HttpDepot;
let upstream: HttpDepot;

const sha1 = (content: string | Buffer) => createHash('sha1').update(content).digest('hex');
const md5 = (content: string | Buffer) => createHash('md5').update(content).digest('hex');

function pom(groupId: string, artifactId: string, version: string) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${groupId}</groupId>
  <artifactId>${artifactId}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
  <description>The ${artifactId} library</description>
</project>
`;
}

/** A PUT as the deploy plugin sends it; the test fails on anything but 2xx. */
async function put(server: HttpDepot, repoKey: string, path: string, body: string | Buffer) {
  const response = await server.request(`/artifactory/${repoKey}/${path}`, {
    method: 'PUT',
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  if (!response.ok) throw new Error(`PUT ${path}: ${response.status} ${await response.text()}`);
}

const get = (server: HttpDepot, repoKey: string, path: string) =>
  server.request(`/artifactory/${repoKey}/${path}`);

/** Maven's deploy of one artifact: metadata read, files and checksums, its own metadata. */
async function mavenDeploy(
  server: HttpDepot,
  repoKey: string,
  coordinates: { groupId: string; artifactId: string; version: string; build?: string },
) {
  const { groupId, artifactId, version, build } = coordinates;
  const artifactFolder = `${groupId.replace(/\./g, '/')}/${artifactId}`;
  const folder = `${artifactFolder}/${version}`;
  const fileVersion = build ? version.replace('-SNAPSHOT', `-${build}`) : version;
  const files: [string, string | Buffer][] = [
    [`${artifactId}-${fileVersion}.jar`, Buffer.from(`jar of ${artifactId} ${fileVersion}`)],
    [`${artifactId}-${fileVersion}.pom`, pom(groupId, artifactId, version)],
  ];
  if (build) await get(server, repoKey, `${folder}/maven-metadata.xml`);
  await get(server, repoKey, `${artifactFolder}/maven-metadata.xml`);
  for (const [name, content] of files) {
    await put(server, repoKey, `${folder}/${name}`, content);
    await put(server, repoKey, `${folder}/${name}.sha1`, sha1(content));
    await put(server, repoKey, `${folder}/${name}.md5`, md5(content));
  }
  // The client's own metadata: Depot answers it and keeps generating its own.
  const clientMetadata =
    '<metadata><versioning><versions><version>0.0.1</version></versions></versioning></metadata>';
  for (const target of build ? [folder, artifactFolder] : [artifactFolder]) {
    await put(server, repoKey, `${target}/maven-metadata.xml`, clientMetadata);
    await put(server, repoKey, `${target}/maven-metadata.xml.sha1`, sha1(clientMetadata));
  }
}

beforeAll(async () => {
  [depot, upstream] = await Promise.all([startHttpDepot(), startHttpDepot()]);
  await createMavenRepository(upstream, 'maven-upstream', 'local');
  await createMavenRepository(depot, 'libs-local', 'local', { maxUniqueSnapshots: 2 });
  await createMavenRepository(depot, 'libs-release-local', 'local', { handleSnapshots: false });
  await createMavenRepository(depot, 'maven-remote', 'remote', {
    url: `${upstream.base}/artifactory/maven-upstream/`,
    username: 'admin',
    password: TEST_ADMIN_PASSWORD,
  });
  await createMavenRepository(depot, 'maven', 'virtual', {
    repositories: ['libs-local', 'maven-remote'],
    defaultDeploymentRepo: 'libs-local',
  });
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
}, 60_000);

afterAll(() => Promise.all([depot?.close(), upstream?.close()]));

describe('Maven deploy and resolve', () => {
  it('deploys a release and generates the artifact metadata', async () => {
    await mavenDeploy(depot, 'libs-local', {
      groupId: 'com.example',
      artifactId: 'demo',
      version: '1.0',
    });
    await mavenDeploy(depot, 'libs-local', {
      groupId: 'com.example',
      artifactId: 'demo',
      version: '1.10',
    });
    await mavenDeploy(depot, 'libs-local', {
      groupId: 'com.example',
      artifactId: 'demo',
      version: '1.2',
    });
    const metadata = await (
      await get(depot, 'libs-local', 'com/example/demo/maven-metadata.xml')
    ).text();
    expect(metadata).toContain('<groupId>com.example</groupId>');
    expect(metadata).toMatch(
      /<latest>1\.10<\/latest>\s*<release>1\.10<\/release>\s*<versions>\s*<version>1\.0<\/version>\s*<version>1\.2<\/version>\s*<version>1\.10<\/version>\s*<\/versions>\s*<lastUpdated>\d{14}<\/lastUpdated>/,
    );
    const checksum = await (
      await get(depot, 'libs-local', 'com/example/demo/maven-metadata.xml.sha1')
    ).text();
    expect(checksum).toBe(sha1(metadata));
    // The jar's checksum files are answered from the stored checksums, not stored.
    const jarSha1 = await (
      await get(depot, 'libs-local', 'com/example/demo/1.0/demo-1.0.jar.sha1')
    ).text();
    expect(jarSha1).toBe(sha1('jar of demo 1.0'));
    const listing = await depot.request('/artifactory/api/storage/libs-local/com/example/demo/1.0');
    const children = ((await listing.json()) as { children: { uri: string }[] }).children;
    expect(children.map((c) => c.uri).sort()).toEqual(['/demo-1.0.jar', '/demo-1.0.pom']);
  });

  it('deploys unique snapshots, keeps the newest two, and resolves them', async () => {
    for (const build of ['20261101.090000-1', '20261102.090000-2', '20261103.090000-3'])
      await mavenDeploy(depot, 'libs-local', {
        groupId: 'com.example',
        artifactId: 'demo',
        version: '2.0-SNAPSHOT',
        build,
      });
    const folder = 'com/example/demo/2.0-SNAPSHOT';
    const metadata = await (await get(depot, 'libs-local', `${folder}/maven-metadata.xml`)).text();
    expect(metadata).toContain('<timestamp>20261103.090000</timestamp>');
    expect(metadata).toContain('<buildNumber>3</buildNumber>');
    expect(metadata).toMatch(
      /<extension>jar<\/extension>\s*<value>2\.0-20261103\.090000-3<\/value>/,
    );
    const listing = await depot.request(`/artifactory/api/storage/libs-local/${folder}`);
    const names = ((await listing.json()) as { children: { uri: string }[] }).children.map(
      (c) => c.uri,
    );
    expect(names.filter((n) => n.endsWith('.jar')).sort()).toEqual([
      '/demo-2.0-20261102.090000-2.jar',
      '/demo-2.0-20261103.090000-3.jar',
    ]);
    // The non-unique name serves the newest build, as Maven 2 clients ask for it.
    const latest = await get(depot, 'libs-local', `${folder}/demo-2.0-SNAPSHOT.jar`);
    expect(await latest.text()).toBe('jar of demo 2.0-20261103.090000-3');
    const artifactMetadata = await (
      await get(depot, 'libs-local', 'com/example/demo/maven-metadata.xml')
    ).text();
    expect(artifactMetadata).toContain('<latest>2.0-SNAPSHOT</latest>');
    expect(artifactMetadata).toContain('<release>1.10</release>');
  });

  it('merges the metadata of a virtual repository with its remote member’s upstream', async () => {
    await mavenDeploy(upstream, 'maven-upstream', {
      groupId: 'com.example',
      artifactId: 'demo',
      version: '3.0',
    });
    const merged = await (await get(depot, 'maven', 'com/example/demo/maven-metadata.xml')).text();
    expect(merged).toMatch(/<latest>3\.0<\/latest>\s*<release>3\.0<\/release>/);
    for (const version of ['1.0', '1.2', '1.10', '2.0-SNAPSHOT', '3.0'])
      expect(merged).toContain(`<version>${version}</version>`);
    const jar = await get(depot, 'maven', 'com/example/demo/3.0/demo-3.0.jar');
    expect(await jar.text()).toBe('jar of demo 3.0');
    const pomSha1 = await (
      await get(depot, 'maven', 'com/example/demo/3.0/demo-3.0.pom.sha1')
    ).text();
    expect(pomSha1).toBe(sha1(pom('com.example', 'demo', '3.0')));
  });

  it('indexes POMs for the package browser', async () => {
    const repo = await depot.services.repositories.findRow('libs-local');
    const rows = await depot.services.db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['p.name', 'v.version', 'v.description'])
      .where('p.repository_id', '=', repo!.id)
      .orderBy('v.version')
      .execute();
    expect(rows.map((r) => `${r.name}@${r.version}`)).toEqual([
      'com.example:demo@1.0',
      'com.example:demo@1.10',
      'com.example:demo@1.2',
      'com.example:demo@2.0-SNAPSHOT',
    ]);
    expect(rows[0]!.description).toBe('The demo library');
  });
});

describe('release and snapshot handling of remote and virtual repositories', () => {
  const library = { groupId: 'com.policy', artifactId: 'lib' };
  const folder = 'com/policy/lib';
  beforeAll(async () => {
    await mavenDeploy(upstream, 'maven-upstream', { ...library, version: '1.0' });
    await mavenDeploy(upstream, 'maven-upstream', {
      ...library,
      version: '1.1-SNAPSHOT',
      build: '20261120.100000-1',
    });
    await mavenDeploy(depot, 'libs-local', {
      ...library,
      version: '1.2-SNAPSHOT',
      build: '20261121.100000-1',
    });
    await mavenDeploy(depot, 'libs-local', { ...library, version: '0.9' });
    await createMavenRepository(depot, 'releases-remote', 'remote', {
      url: `${upstream.base}/artifactory/maven-upstream/`,
      username: 'admin',
      password: TEST_ADMIN_PASSWORD,
      handleSnapshots: false,
    });
    // Virtual repositories have no handling of their own (as in Artifactory): their members'.
    await createMavenRepository(depot, 'mixed', 'virtual', {
      repositories: ['releases-remote', 'libs-local'],
    });
  });

  it('a release-only remote neither fetches nor caches a snapshot, and serves releases', async () => {
    const snapshotJar = `${folder}/1.1-SNAPSHOT/lib-1.1-20261120.100000-1.jar`;
    expect((await get(upstream, 'maven-upstream', snapshotJar)).status).toBe(200);
    expect((await get(depot, 'releases-remote', snapshotJar)).status).toBe(404);
    const cache = await depot.request(
      `/artifactory/api/storage/releases-remote-cache/${folder}/1.1-SNAPSHOT`,
    );
    expect(cache.status).toBe(404);
    const release = await get(depot, 'releases-remote', `${folder}/1.0/lib-1.0.jar`);
    expect(await release.text()).toBe('jar of lib 1.0');
  });

  it('a virtual serves what each member handles, in files and in merged metadata', async () => {
    // 1.1-SNAPSHOT is upstream only: the release-only remote member does not fetch it.
    const upstreamSnapshot = `${folder}/1.1-SNAPSHOT/lib-1.1-20261120.100000-1.jar`;
    expect((await get(depot, 'mixed', upstreamSnapshot)).status).toBe(404);
    const localSnapshot = await get(depot, 'mixed', `${folder}/1.2-SNAPSHOT/lib-1.2-SNAPSHOT.jar`);
    expect(await localSnapshot.text()).toBe('jar of lib 1.2-20261121.100000-1');
    const remoteRelease = await get(depot, 'mixed', `${folder}/1.0/lib-1.0.jar`);
    expect(await remoteRelease.text()).toBe('jar of lib 1.0');

    const merged = await (await get(depot, 'mixed', `${folder}/maven-metadata.xml`)).text();
    const versions = [...merged.matchAll(/<version>([^<]+)<\/version>/g)].map((m) => m[1]);
    expect(versions.sort()).toEqual(['0.9', '1.0', '1.2-SNAPSHOT']);
  });
});

describe('Maven refusals lose nothing', () => {
  const messageOf = async (response: Response) =>
    ((await response.json()) as { errors: { message: string }[] }).errors[0]!.message;

  it('refuses a snapshot in a release-only repository', async () => {
    const response = await depot.request(
      '/artifactory/libs-release-local/com/example/demo/2.0-SNAPSHOT/demo-2.0-20261101.090000-1.jar',
      { method: 'PUT', body: 'jar' },
    );
    expect(response.status).toBe(409);
    expect(await messageOf(response)).toBe(
      "The repository 'libs-release-local' rejected the resolution of an artifact 'libs-release-local:com/example/demo/2.0-SNAPSHOT/demo-2.0-20261101.090000-1.jar' due to conflict in the snapshot release handling policy.",
    );
    const stored = await depot.request('/artifactory/api/storage/libs-release-local/com');
    expect(stored.status).toBe(404);
  });

  it('refuses a POM that is not XML, and one whose coordinates name another path', async () => {
    const broken = await depot.request('/artifactory/libs-local/org/bad/thing/1.0/thing-1.0.pom', {
      method: 'PUT',
      body: '<project><groupId>org.bad</groupId>',
    });
    expect(broken.status).toBe(400);
    expect(await messageOf(broken)).toMatch(/^The POM is not valid XML: /);
    const elsewhere = await depot.request(
      '/artifactory/libs-local/org/bad/thing/1.0/thing-1.0.pom',
      {
        method: 'PUT',
        body: pom('org.other', 'thing', '1.0'),
      },
    );
    expect(elsewhere.status).toBe(409);
    expect(await messageOf(elsewhere)).toMatch(
      /^The target deployment path 'org\/bad\/thing\/1\.0\/thing-1\.0\.pom' does not match the POM's expected path prefix 'org\/other\/thing\/1\.0'/,
    );
    expect((await depot.request('/artifactory/api/storage/libs-local/org')).status).toBe(404);
  });

  it('refuses a checksum file that disagrees with the stored file', async () => {
    const response = await depot.request(
      '/artifactory/libs-local/com/example/demo/1.0/demo-1.0.jar.sha1',
      {
        method: 'PUT',
        body: '0'.repeat(40),
      },
    );
    expect(response.status).toBe(409);
    expect(await messageOf(response)).toMatch(/^Checksum mismatch: the client sent SHA1 0{40}/);
  });
});
