import { execFile } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { SNIPPET_SECRET, SNIPPET_USERNAME } from '../server/modules/set-me-up/placeholders.ts';
import { createMavenRepository, TEST_ADMIN_PASSWORD } from './helpers/test-app.ts';

/**
 * Maven against Depot with `mvn` itself, configured with what Set Me Up generates: a project
 * deployed (release and snapshot) into local repositories, then a second project that
 * depends on it built with an empty local repository, resolving everything through a
 * virtual repository. The virtual's remote
 * member plays Maven Central: it proxies, on loopback, the machine's own Maven repository
 * (~/.m2/repository, which holds the plugins), so nothing leaves the machine and the
 * machine's repository is only read.
 */
const run = promisify(execFile);
const SEED = process.env.DEPOT_TEST_MAVEN_SEED ?? join(homedir(), '.m2', 'repository');
// Maven 3.8's default plugin versions need dependencies the seed does not hold; these do.
const PLUGINS: Record<string, string> = {
  'maven-resources-plugin': '3.3.1',
  'maven-compiler-plugin': '3.13.0',
  'maven-surefire-plugin': '3.2.5',
  'maven-jar-plugin': '3.4.1',
  'maven-install-plugin': '3.1.2',
  'maven-deploy-plugin': '3.1.2',
};

let depot: HttpDepot;
let central: Server;
let work: string;

/** A read-only file server over a folder: the upstream the remote repository proxies. */
async function serveFolder(root: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const file = join(root, path);
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-length': statSync(file).size });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const pluginManagement = Object.entries(PLUGINS)
  .map(
    ([artifactId, version]) =>
      `<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>${artifactId}</artifactId><version>${version}</version></plugin>`,
  )
  .join('\n      ');

/** A jar project's pom: its coordinates, dependencies, and Set Me Up's distributionManagement. */
function projectPom(artifactId: string, version: string, dependencies = '') {
  return `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.acme</groupId>
  <artifactId>${artifactId}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>${dependencies}</dependencies>
  ${generated.distributionManagement}
  <build><pluginManagement><plugins>
      ${pluginManagement}
  </plugins></pluginManagement></build>
</project>
`;
}

/**
 * What Set Me Up generates for Maven, as a user copies it: settings.xml resolving everything
 * through the virtual repository (its mirror of `*`), and the pom's distributionManagement
 * deploying releases and snapshots to their local repositories. The user's credentials go
 * where the placeholders are, as the console puts them in once the user unlocks them.
 */
const generated = { settings: '', distributionManagement: '' };

async function readSetMeUp() {
  const answer = await depot.request('/ui/api/v1/ui/mavenSettings', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      release: 'maven',
      snapshot: 'maven',
      pluginRelease: 'maven',
      pluginSnapshot: 'maven',
      useMirror: true,
      mirror: 'maven',
    }),
  });
  expect(answer.status).toBe(200);
  generated.settings = ((await answer.json()) as { settings: string }).settings
    .replaceAll(SNIPPET_USERNAME, 'admin')
    .replaceAll(SNIPPET_SECRET, TEST_ADMIN_PASSWORD);
  const deploy = await depot.request(
    '/ui/api/v1/ui/mavenDistributionManagement?repoKey=libs-release-local&snapshotRepoKey=libs-snapshot-local',
  );
  expect(deploy.status).toBe(200);
  generated.distributionManagement = (
    (await deploy.json()) as { distributionManagement: string }
  ).distributionManagement;
}

/** Set Me Up's settings.xml with a local repository of the project's own. */
const settings = (localRepository: string) =>
  generated.settings.replace(
    '<servers>',
    `<localRepository>${localRepository}</localRepository>\n  <servers>`,
  );

/**
 * Writes a project with one class and runs `mvn` on it, with a local repository of its own
 * unless it is given one.
 */
async function mvn(
  name: string,
  pom: string,
  javaSource: string,
  goals: string[],
  localRepository = join(work, name, 'local-repository'),
) {
  const dir = join(work, name);
  const sources = join(dir, 'src', 'main', 'java', 'org', 'acme');
  mkdirSync(sources, { recursive: true });
  writeFileSync(join(dir, 'pom.xml'), pom);
  const [, className] = /public class (\w+)/.exec(javaSource)!;
  writeFileSync(join(sources, `${className}.java`), javaSource);
  const settingsFile = join(dir, 'settings.xml');
  writeFileSync(settingsFile, settings(localRepository));
  try {
    const { stdout } = await run('mvn', ['-B', '-ntp', '-s', settingsFile, ...goals], {
      cwd: dir,
      timeout: 240_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout = '' } = error as { stdout?: string };
    throw new Error(`mvn ${goals.join(' ')} failed:\n${stdout.split('\n').slice(-40).join('\n')}`);
  }
}

beforeAll(async () => {
  if (!existsSync(join(SEED, 'org', 'apache', 'maven', 'plugins'))) {
    throw new Error(`No Maven repository with plugins at ${SEED}: set DEPOT_TEST_MAVEN_SEED`);
  }
  work = mkdtempSync(join(tmpdir(), 'depot-mvn-'));
  central = await serveFolder(SEED);
  depot = await startHttpDepot();
  const create = (key: string, rclass: string, extra = {}) =>
    createMavenRepository(depot, key, rclass, extra);
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
  await create('libs-release-local', 'local', { handleSnapshots: false });
  await create('libs-snapshot-local', 'local', { handleReleases: false, maxUniqueSnapshots: 2 });
  await create('maven-central', 'remote', {
    url: `http://127.0.0.1:${(central.address() as AddressInfo).port}/`,
  });
  await create('maven', 'virtual', {
    repositories: ['libs-release-local', 'libs-snapshot-local', 'maven-central'],
  });
  await readSetMeUp();
}, 60_000);

afterAll(async () => {
  await depot?.close();
  await new Promise((resolve) => central?.close(resolve));
  if (work) rmSync(work, { recursive: true, force: true });
});

const HELLO =
  'package org.acme;\npublic class Hello { public static String hi() { return "hi"; } }\n';

/**
 * The deploys share one local repository, as a developer's runs do: only the first resolves
 * Maven's plugins through Depot (each resolution took a good part of a run). The build that
 * depends on them starts from an empty one, so that everything it needs comes through the
 * virtual repository. A snapshot's build number comes from the remote metadata, which a
 * deploy always reads from Depot, so the shared repository cannot number it.
 */
const deploysRepository = () => join(work, 'deploys-local-repository');

describe('Maven with mvn itself', () => {
  it('deploys a release: the jar, its pom, checksums and the metadata Maven reads back', async () => {
    const output = await mvn(
      'hello-1.0',
      projectPom('hello', '1.0'),
      HELLO,
      ['deploy'],
      deploysRepository(),
    );
    expect(output).toContain('BUILD SUCCESS');
    const folder = '/artifactory/libs-release-local/org/acme/hello';
    const jar = await depot.request(`${folder}/1.0/hello-1.0.jar`);
    expect(jar.status).toBe(200);
    expect(jar.headers.get('content-type')).toBe('application/java-archive');
    const pom = await (await depot.request(`${folder}/1.0/hello-1.0.pom`)).text();
    expect(pom).toContain('<artifactId>hello</artifactId>');
    const sha1 = await (await depot.request(`${folder}/1.0/hello-1.0.jar.sha1`)).text();
    expect(sha1).toMatch(/^[0-9a-f]{40}$/);
    const metadata = await (await depot.request(`${folder}/maven-metadata.xml`)).text();
    expect(metadata).toContain('<version>1.0</version>');
    expect(metadata).toContain('<release>1.0</release>');
  }, 300_000);

  it('deploys a snapshot twice: unique versions, the newest in the version metadata', async () => {
    for (const run of [1, 2]) {
      const output = await mvn(
        `hello-snapshot-${run}`,
        projectPom('hello', '2.0-SNAPSHOT'),
        HELLO,
        ['deploy'],
        deploysRepository(),
      );
      expect(output).toContain('BUILD SUCCESS');
    }
    const folder = '/artifactory/libs-snapshot-local/org/acme/hello/2.0-SNAPSHOT';
    const metadata = await (await depot.request(`${folder}/maven-metadata.xml`)).text();
    expect(metadata).toMatch(/<buildNumber>2<\/buildNumber>/);
    const [, timestamp] = /<timestamp>([\d.]+)<\/timestamp>/.exec(metadata)!;
    const newest = await depot.request(`${folder}/hello-2.0-${timestamp}-2.jar`);
    expect(newest.status).toBe(200);
    // a snapshot has no place in the release repository
    const misplaced = await depot.request(
      '/artifactory/libs-release-local/org/acme/hello/2.0-SNAPSHOT/maven-metadata.xml',
    );
    expect(misplaced.status).toBe(404);
  }, 300_000);

  it('builds a project that depends on it with an empty local repository, all through the virtual', async () => {
    const dependency =
      '<dependency><groupId>org.acme</groupId><artifactId>hello</artifactId><version>1.0</version></dependency>';
    const greeter =
      'package org.acme;\npublic class Greeter { public static String greet() { return Hello.hi() + "!"; } }\n';
    const output = await mvn('greeter', projectPom('greeter', '1.0', dependency), greeter, [
      'package',
    ]);
    expect(output).toContain('BUILD SUCCESS');
    expect(existsSync(join(work, 'greeter', 'target', 'greeter-1.0.jar'))).toBe(true);
    const fetched = join(work, 'greeter', 'local-repository', 'org', 'acme', 'hello', '1.0');
    expect(existsSync(join(fetched, 'hello-1.0.jar'))).toBe(true);
    // the plugins came through the remote repository, which keeps them in its cache
    const cached = await depot.request(
      `/artifactory/api/storage/maven-central/org/apache/maven/plugins/maven-compiler-plugin/${PLUGINS['maven-compiler-plugin']}`,
    );
    expect(cached.status).toBe(200);
  }, 300_000);
});
