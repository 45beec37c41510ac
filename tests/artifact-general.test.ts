import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtifactGeneral } from '../server/modules/artifact-general/general-info.ts';
import { GENERAL_MESSAGES } from '../server/modules/artifact-general/messages.ts';
import { TREE_MESSAGES } from '../server/modules/tree-browser/messages.ts';
import {
  adminAuth,
  basic,
  createRepository as createRepositoryIn,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';
import { packTarball } from './helpers/npm-cli.ts';

let depot: TestDepot;
const readerAuth = () => ({ authorization: basic('reader', 'reader-pass-1') });
const JAR = 'org/acme/app/1.0/app-1.0.jar';
const JAR_CONTENT = 'the jar of app 1.0';
const SEEDED_FILES = 20_000;

const digest = (algorithm: string, text: string) =>
  createHash(algorithm).update(text).digest('hex');

// A Maven repository checks a POM's coordinates against its path (docs/maven.md).
const APP_POM =
  '<project><groupId>org.acme</groupId><artifactId>app</artifactId><version>1.0</version></project>';

const createRepository = (key: string, rclass: string, extra = {}) =>
  createRepositoryIn(depot, key, rclass, { packageType: 'maven', ...extra });

const deploy = (repoKey: string, path: string, content: string | Buffer = path, headers = {}) =>
  deployFile(depot, repoKey, path, content, headers);

function post(url: string, body: object, headers: object = adminAuth()) {
  return depot.app.inject({
    method: 'POST',
    url: `/ui/api/v1/ui/${url}`,
    headers: { ...headers },
    payload: body,
  });
}

async function general(repoKey: string, path: string): Promise<ArtifactGeneral> {
  const response = await post('artifactgeneral', { repoKey, path }, readerAuth());
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function count(repoKey: string, path: string) {
  const response = await post('artifactgeneral/artifactsCount', { repoKey, path }, readerAuth());
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function declaration(buildtool: string, repoKey: string, path: string) {
  return depot.app.inject({
    url: `/ui/api/v1/ui/dependencydeclaration?${new URLSearchParams({ buildtool, repoKey, path })}`,
    headers: readerAuth(),
  });
}

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository('libs-local', 'local', { description: 'Our libraries' });
  await createRepository('more-local', 'local');
  await createRepository('npm-local', 'local', { packageType: 'npm' });
  await createRepository('maven-remote', 'remote', {
    url: 'http://someone:secret@127.0.0.1:9/maven2/',
  });
  await createRepository('all-virtual', 'virtual', { repositories: ['libs-local', 'more-local'] });
  await depot.services.users.create({
    name: 'reader',
    email: 'reader@example.com',
    password: 'reader-pass-1',
  } as never);
  // A client that sends an MD5 to verify has it computed (and kept) at deploy.
  await deploy('libs-local', JAR, JAR_CONTENT, { 'x-checksum-md5': digest('md5', JAR_CONTENT) });
  await deploy('libs-local', 'org/acme/app/1.0/app-1.0.pom', APP_POM);
  await deploy('libs-local', 'org/acme/app/2.0/app-2.0.jar', '12345');
  await deploy('libs-local', 'org/acme/readme #1.txt', 'hello');
  await deploy('more-local', 'org/other/x.txt', 'xyz');
  await deploy(
    'npm-local',
    '@acme/widget/-/widget-1.2.3.tgz',
    await packTarball({
      'package.json': JSON.stringify({ name: '@acme/widget', version: '1.2.3' }),
    }),
  );
});
afterAll(() => depot.close());

describe('the General tab of a file', () => {
  it('answers its facts and where to download it', async () => {
    const answer = await general('libs-local', JAR);
    expect(answer.type).toBe('file');
    expect(answer.info).toMatchObject({
      name: 'app-1.0.jar',
      repoKey: 'libs-local',
      path: JAR,
      repositoryPath: `libs-local/${JAR}`,
      packageType: 'maven',
      repoType: 'local',
      size: JAR_CONTENT.length,
      mimeType: 'application/java-archive',
      createdBy: 'admin',
      modifiedBy: 'admin',
      downloadPath: `/artifactory/libs-local/${JAR}`,
    });
    expect(Date.parse(answer.info.created!)).not.toBeNaN();
    expect(Date.parse(answer.info.lastModified!)).not.toBeNaN();
    const download = await depot.app.inject({
      url: answer.info.downloadPath!,
      headers: readerAuth(),
    });
    expect(download.body).toBe(JAR_CONTENT);
  });

  it('encodes a download path that needs it', async () => {
    const { info } = await general('libs-local', 'org/acme/readme #1.txt');
    expect(info.downloadPath).toBe('/artifactory/libs-local/org/acme/readme%20%231.txt');
    const download = await depot.app.inject({ url: info.downloadPath!, headers: readerAuth() });
    expect(download.body).toBe('hello');
  });

  it('answers its checksums, MD5 included, with nothing to fix', async () => {
    const { checksums } = await general('libs-local', JAR);
    expect(checksums).toEqual({
      sha256: digest('sha256', JAR_CONTENT),
      sha1: digest('sha1', JAR_CONTENT),
      md5: digest('md5', JAR_CONTENT),
      showFixChecksums: false,
    });
  });

  it('answers an MD5 not yet computed as null, and the MD5 once something computed it', async () => {
    const path = 'org/acme/app/2.0/app-2.0.jar';
    expect((await general('libs-local', path)).checksums).toMatchObject({
      sha256: digest('sha256', '12345'),
      md5: null,
    });
    // The storage API's file info computes it, and remembers it for the blob.
    const info = await depot.app.inject({
      url: `/artifactory/api/storage/libs-local/${path}`,
      headers: readerAuth(),
    });
    expect(info.statusCode).toBe(200);
    expect((await general('libs-local', path)).checksums?.md5).toBe(digest('md5', '12345'));
  });

  it("reads through a virtual repository's members", async () => {
    const answer = await general('all-virtual', 'org/other/x.txt');
    expect(answer.info).toMatchObject({
      repoKey: 'all-virtual',
      repoType: 'virtual',
      repositoryPath: 'all-virtual/org/other/x.txt',
      downloadPath: '/artifactory/all-virtual/org/other/x.txt',
    });
    expect(answer.checksums?.sha1).toBe(digest('sha1', 'xyz'));
  });
});

describe('download statistics and the checksum fix', () => {
  // A repository of its own: the counting tests below count libs-local's files.
  beforeAll(() => createRepository('fix-local', 'local', { packageType: 'generic' }));

  it("shows a file's downloads: how many, when last and by whom", async () => {
    const before = (await general('libs-local', JAR)).info.downloadCount!;
    for (let i = 0; i < 2; i++) {
      const download = await depot.app.inject({
        url: `/artifactory/libs-local/${JAR}`,
        headers: readerAuth(),
      });
      expect(download.statusCode).toBe(200);
    }
    const { info } = await general('libs-local', JAR);
    expect(info.downloadCount).toBe(before + 2);
    expect(info.lastDownloadedBy).toBe('reader');
    expect(Date.now() - Date.parse(info.lastDownloaded!)).toBeLessThan(60_000);
    const folder = await general('libs-local', 'org/acme');
    expect(folder.info.downloadCount).toBeUndefined();
  });

  it('offers the fix to those who may deploy while the MD5 is unknown, and the fix computes it', async () => {
    const path = 'checks/a.txt';
    await deploy('fix-local', path, 'fix me');
    const asAdmin = async () => {
      const response = await post('artifactgeneral', { repoKey: 'fix-local', path });
      return (response.json() as ArtifactGeneral).checksums!;
    };
    expect(await asAdmin()).toMatchObject({ md5: null, showFixChecksums: true });
    expect((await general('fix-local', path)).checksums?.showFixChecksums).toBe(false);

    const byReader = await post('checksums/fix', { repoKey: 'fix-local', path }, readerAuth());
    expect(byReader.statusCode).toBe(403);
    expect((await asAdmin()).md5).toBeNull();

    const fixed = await post('checksums/fix', { repoKey: 'fix-local', path });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json()).toEqual({ info: GENERAL_MESSAGES.checksumsFixed(`fix-local/${path}`) });
    expect(await asAdmin()).toEqual({
      sha256: digest('sha256', 'fix me'),
      sha1: digest('sha1', 'fix me'),
      md5: digest('md5', 'fix me'),
      showFixChecksums: false,
    });
  });

  it('finds content damaged on disk, says so and writes nothing', async () => {
    const damaged = 'checks/damaged.txt';
    const gone = 'checks/gone.txt';
    await deploy('fix-local', damaged, 'bytes as deployed');
    await deploy('fix-local', gone, 'bytes soon lost');
    const { filestore } = depot.services;
    writeFileSync(filestore.pathOf(digest('sha256', 'bytes as deployed')), 'bytes rotted');
    rmSync(filestore.pathOf(digest('sha256', 'bytes soon lost')));
    for (const path of [damaged, gone]) {
      const response = await post('checksums/fix', { repoKey: 'fix-local', path });
      expect(response.statusCode, path).toBe(409);
      expect(response.json().errors[0].message).toBe(
        GENERAL_MESSAGES.contentDamaged(`fix-local/${path}`),
      );
      expect((await general('fix-local', path)).checksums?.md5).toBeNull();
    }
  });

  it('refuses a folder with 400 and a missing file with 404', async () => {
    const folder = await post('checksums/fix', { repoKey: 'libs-local', path: 'org/acme' });
    expect(folder.statusCode).toBe(400);
    expect(folder.json().errors[0].message).toBe(
      GENERAL_MESSAGES.notAFile('libs-local', 'org/acme'),
    );
    const missing = await post('checksums/fix', { repoKey: 'fix-local', path: 'org/none.txt' });
    expect(missing.statusCode).toBe(404);
  });
});

describe('the General tab of folders and repositories', () => {
  it('answers a folder without checksums', async () => {
    const answer = await general('libs-local', 'org/acme');
    expect(answer.type).toBe('folder');
    expect(answer.checksums).toBeUndefined();
    expect(answer.info).toMatchObject({
      name: 'acme',
      path: 'org/acme',
      repositoryPath: 'libs-local/org/acme',
      createdBy: 'admin',
    });
    expect(answer.info.size).toBeUndefined();
    expect(Date.parse(answer.info.created!)).not.toBeNaN();
  });

  it("answers a repository's settings, never a remote's credentials", async () => {
    expect(await general('libs-local', '')).toMatchObject({
      type: 'repository',
      info: {
        name: 'libs-local',
        path: '',
        repositoryPath: 'libs-local/',
        repoType: 'local',
        packageType: 'maven',
        description: 'Our libraries',
        includesPattern: '**/*',
        excludesPattern: '',
      },
    });
    const remote = await general('maven-remote', '');
    expect(remote.info).toMatchObject({ repoType: 'remote', url: 'http://127.0.0.1:9/maven2/' });
    expect(JSON.stringify(remote)).not.toContain('secret');
    expect((await general('all-virtual', '')).info.repositories).toEqual([
      'libs-local',
      'more-local',
    ]);
  });

  it('answers a missing node and an unknown repository with 404, bad input with 400', async () => {
    const missing = await post('artifactgeneral', { repoKey: 'libs-local', path: 'org/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].message).toBe(TREE_MESSAGES.notFound('libs-local', 'org/nope'));
    expect((await post('artifactgeneral', { repoKey: 'nope', path: '' })).statusCode).toBe(404);
    for (const body of [
      { repoKey: 'libs-local' },
      { repoKey: 'libs-local', path: 'a/../../b' },
      { repoKey: 'libs-local', path: '', type: 'junction' },
    ]) {
      expect((await post('artifactgeneral', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await post('artifactgeneral', { repoKey: 'libs-local', path: '' }, {})).statusCode,
    ).toBe(401);
  });
});

describe('artifacts below a folder', () => {
  it('counts files, not folders, and adds up their sizes', async () => {
    expect(await count('libs-local', 'org/acme/app')).toEqual({
      artifactsCount: 3,
      artifactSize: JAR_CONTENT.length + APP_POM.length + '12345'.length,
    });
    expect(await count('libs-local', '')).toMatchObject({ artifactsCount: 4 });
    expect(await count('all-virtual', 'org')).toMatchObject({ artifactsCount: 5 });
  });

  it('counts a folder of thousands of files', async () => {
    await deploy('more-local', 'bulk/first.bin', 'x');
    const repo = await depot.services.artifacts.repository('more-local');
    await sql`
      insert into nodes (repository_id, path, parent_path, name, folder, size, created_by, modified_by)
      select ${repo.id}, 'bulk/f-' || i || '.bin', 'bulk', 'f-' || i || '.bin', false, 2, 's', 's'
      from generate_series(1, ${SEEDED_FILES}) as i`.execute(depot.db);
    expect(await count('more-local', 'bulk')).toEqual({
      artifactsCount: SEEDED_FILES + 1,
      artifactSize: SEEDED_FILES * 2 + 1,
    });
  });

  it('refuses a file with 400 and a missing folder with 404', async () => {
    const file = await post('artifactgeneral/artifactsCount', { repoKey: 'libs-local', path: JAR });
    expect(file.statusCode).toBe(400);
    expect(file.json().errors[0].message).toBe(GENERAL_MESSAGES.countOfFile('libs-local', JAR));
    const missing = await post('artifactgeneral/artifactsCount', {
      repoKey: 'libs-local',
      path: 'nope',
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('dependency declarations', () => {
  it('declares a Maven-layout file for each build tool', async () => {
    const answers: Record<string, string> = {};
    for (const tool of ['maven', 'gradle', 'ivy', 'sbt']) {
      const response = await declaration(tool, 'libs-local', JAR);
      expect(response.statusCode, response.body).toBe(200);
      answers[tool] = response.json().dependencyData;
    }
    expect(answers).toEqual({
      maven: [
        '<dependency>',
        '    <groupId>org.acme</groupId>',
        '    <artifactId>app</artifactId>',
        '    <version>1.0</version>',
        '</dependency>',
      ].join('\n'),
      gradle: "implementation 'org.acme:app:1.0'",
      ivy: '<dependency org="org.acme" name="app" rev="1.0" />',
      sbt: 'libraryDependencies += "org.acme" % "app" % "1.0"',
    });
    const pom = await declaration('maven', 'libs-local', 'org/acme/app/1.0/app-1.0.pom');
    expect(pom.json().dependencyData).toContain('<type>pom</type>');
  });

  it('declares an npm tarball for npm only', async () => {
    const path = '@acme/widget/-/widget-1.2.3.tgz';
    const npm = await declaration('npm', 'npm-local', path);
    expect(npm.json()).toEqual({ dependencyData: 'npm install @acme/widget@1.2.3' });
    const maven = await declaration('maven', 'npm-local', path);
    expect(maven.statusCode).toBe(404);
    expect(maven.json().errors[0].message).toBe(GENERAL_MESSAGES.noDeclaration(path, 'maven'));
  });

  it('has none for a path its tool does not read, a folder or a missing file', async () => {
    const readme = await declaration('maven', 'libs-local', 'org/acme/readme #1.txt');
    expect(readme.statusCode).toBe(404);
    expect(readme.json().errors[0].message).toBe(
      GENERAL_MESSAGES.noDeclaration('org/acme/readme #1.txt', 'maven'),
    );
    expect((await declaration('npm', 'libs-local', JAR)).statusCode).toBe(404);
    expect((await declaration('maven', 'libs-local', 'org/acme/app')).statusCode).toBe(404);
    expect((await declaration('maven', 'libs-local', 'org/acme/app/9/app-9.jar')).statusCode).toBe(
      404,
    );
  });

  it('refuses an unknown build tool and a path that escapes with 400', async () => {
    expect((await declaration('make', 'libs-local', JAR)).statusCode).toBe(400);
    expect((await declaration('maven', 'libs-local', '../etc/passwd')).statusCode).toBe(400);
    const bare = await depot.app.inject({
      url: '/ui/api/v1/ui/dependencydeclaration',
      headers: readerAuth(),
    });
    expect(bare.statusCode).toBe(400);
  });
});
