import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_VIEW_MESSAGES } from '../server/modules/file-views/messages.ts';
import { FILE_VIEW_MAX_BYTES } from '../server/modules/file-views/limits.ts';
import { basic, deployFile, startTestDepot, type TestDepot } from './helpers/test-app.ts';

let depot: TestDepot;
const readerAuth = () => ({ authorization: basic('reader', 'reader-pass-1') });
const BASE = 'org/acme/app/1.0/app-1.0';
const POM =
  '<project>\n  <groupId>org.acme</groupId>\n  <artifactId>app</artifactId>\n  <version>1.0</version>\n</project>\n';
const PACKAGE_JSON = '{\n  "name": "widget",\n  "version": "1.2.3"\n}\n';

async function tgz(files: Record<string, string>) {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name }, content);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as unknown as Readable) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

const deploy = (repoKey: string, path: string, content: Buffer | string) =>
  deployFile(depot, repoKey, path, content);

function view(repoKey: string, path: string, name: string, headers: object = readerAuth()) {
  return depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/views',
    headers: { ...headers },
    payload: { repoKey, path, view: name },
  });
}

async function contentOf(repoKey: string, path: string, name: string) {
  const response = await view(repoKey, path, name);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { fileContent: string }).fileContent;
}

async function tabsOf(repoKey: string, path: string) {
  const response = await depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/treebrowser/tabsAndActions',
    headers: readerAuth(),
    payload: { type: 'file', repoKey, path },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().tabs as { name: string }[]).map((tab) => tab.name);
}

beforeAll(async () => {
  depot = await startTestDepot();
  const repositories: [string, string, object?][] = [
    ['libs-local', 'maven'],
    ['generic-local', 'generic'],
    ['npm-local', 'npm'],
    ['libs-virtual', 'maven', { rclass: 'virtual', repositories: ['libs-local'] }],
  ];
  for (const [key, packageType, extra] of repositories) {
    await depot.services.repositories.create({
      key,
      rclass: 'local',
      packageType,
      ...extra,
    } as never);
  }
  await depot.services.users.create({
    name: 'reader',
    email: 'reader@example.com',
    password: 'reader-pass-1',
  } as never);
  await deploy('libs-local', `${BASE}.pom`, POM);
  await deploy('libs-local', `${BASE}.jar`, 'jar bytes');
  await deploy('libs-local', 'org/acme/lone/1.0/lone-1.0.war', 'war bytes');
  await deploy('libs-local', 'conf/settings.xml', '<settings/>\n');
  await deploy('libs-local', 'conf/huge.xml', `<a>${'x'.repeat(FILE_VIEW_MAX_BYTES)}</a>`);
  await deploy('generic-local', 'lib/tool.jar', 'jar bytes');
  await deploy('generic-local', 'lib/tool.pom', POM);
  await deploy(
    'npm-local',
    'widget/-/widget-1.2.3.tgz',
    await tgz({ 'package/package.json': PACKAGE_JSON, 'package/index.js': '' }),
  );
  // Not at a tarball path: an npm repository refuses a package tarball without package.json
  // there (docs/npm.md), but keeps other archives as they are.
  await deploy('npm-local', 'bare/bare-1.0.0.tgz', await tgz({ 'package/index.js': '' }));
});
afterAll(() => depot.close());

describe('PomView', () => {
  it('shows a POM, and the POM beside a jar of a maven repository', async () => {
    expect(await contentOf('libs-local', `${BASE}.pom`, 'PomView')).toBe(POM);
    expect(await contentOf('libs-local', `${BASE}.jar`, 'PomView')).toBe(POM);
    expect(await contentOf('libs-virtual', `${BASE}.jar`, 'PomView')).toBe(POM);
  });

  it('answers a jar without its POM with 404', async () => {
    const response = await view('libs-local', 'org/acme/lone/1.0/lone-1.0.war', 'PomView');
    expect(response.statusCode).toBe(404);
    expect(response.json().errors[0].message).toBe(
      FILE_VIEW_MESSAGES.noPom(
        'libs-local/org/acme/lone/1.0/lone-1.0.war',
        'org/acme/lone/1.0/lone-1.0.pom',
      ),
    );
  });

  it("is no view of a generic repository's jar", async () => {
    expect((await view('generic-local', 'lib/tool.jar', 'PomView')).statusCode).toBe(400);
    expect(await contentOf('generic-local', 'lib/tool.pom', 'PomView')).toBe(POM);
  });
});

describe('GeneralXml', () => {
  it('shows an XML file, and refuses one past the limit', async () => {
    expect(await contentOf('libs-local', 'conf/settings.xml', 'GeneralXml')).toBe('<settings/>\n');
    const huge = await view('libs-local', 'conf/huge.xml', 'GeneralXml');
    expect(huge.statusCode).toBe(400);
    expect(huge.json().errors[0].message).toBe(
      FILE_VIEW_MESSAGES.tooLarge('libs-local/conf/huge.xml'),
    );
  });
});

describe('PackageJson', () => {
  it("shows an npm tarball's package.json as stored", async () => {
    expect(await contentOf('npm-local', 'widget/-/widget-1.2.3.tgz', 'PackageJson')).toBe(
      PACKAGE_JSON,
    );
  });

  it('answers a tarball without one with 404', async () => {
    const response = await view('npm-local', 'bare/bare-1.0.0.tgz', 'PackageJson');
    expect(response.statusCode).toBe(404);
    expect(response.json().errors[0].message).toBe(
      'package/package.json could not be found in npm-local/bare/bare-1.0.0.tgz.',
    );
  });
});

describe('bad requests', () => {
  it('refuses a view that does not apply, a folder, a missing file and bad bodies', async () => {
    const notXml = await view('libs-local', `${BASE}.jar`, 'GeneralXml');
    expect(notXml.statusCode).toBe(400);
    expect(notXml.json().errors[0].message).toBe(
      FILE_VIEW_MESSAGES.notApplicable('GeneralXml', `libs-local/${BASE}.jar`),
    );
    expect((await view('libs-local', `${BASE}.jar`, 'PackageJson')).statusCode).toBe(400);
    expect((await view('libs-local', 'conf', 'GeneralXml')).statusCode).toBe(400);
    expect((await view('libs-local', 'conf/nope.xml', 'GeneralXml')).statusCode).toBe(404);
    expect((await view('libs-local', '../x.xml', 'GeneralXml')).statusCode).toBe(400);
    expect((await view('libs-local', 'conf/settings.xml', 'Nope')).statusCode).toBe(400);
  });

  it('is for signed-in users while anonymous access is off', async () => {
    expect((await view('libs-local', 'conf/settings.xml', 'GeneralXml', {})).statusCode).toBe(401);
  });
});

describe('the package view tabs', () => {
  it('are listed where their view has something to show, in order', async () => {
    expect(await tabsOf('libs-local', `${BASE}.jar`)).toEqual([
      'General',
      'Properties',
      'Watch',
      'ViewSource',
      'PomView',
    ]);
    expect(await tabsOf('libs-local', `${BASE}.pom`)).toContain('PomView');
    expect(await tabsOf('libs-virtual', `${BASE}.jar`)).toContain('PomView');
    expect(await tabsOf('libs-local', 'org/acme/lone/1.0/lone-1.0.war')).not.toContain('PomView');
    expect(await tabsOf('generic-local', 'lib/tool.jar')).not.toContain('PomView');
    expect(await tabsOf('libs-local', 'conf/settings.xml')).toEqual([
      'General',
      'Properties',
      'Watch',
      'GeneralXml',
    ]);
    expect(await tabsOf('npm-local', 'widget/-/widget-1.2.3.tgz')).toEqual([
      'General',
      'Properties',
      'Watch',
      'ViewSource',
      'PackageJson',
    ]);
  });
});

describe('the View action (POST /ui/artifactactions/view)', () => {
  const viewText = (repoKey: string, path: string, headers: object = readerAuth()) =>
    depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/artifactactions/view',
      headers: { ...headers },
      payload: { repoKey, path },
    });
  const actionsOf = async (repoKey: string, path: string) => {
    const response = await depot.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/treebrowser/tabsAndActions',
      headers: readerAuth(),
      payload: { type: 'file', repoKey, path },
    });
    return (response.json().actions as { name: string }[]).map((action) => action.name);
  };

  it('answers a text file as stored, markup included, through a virtual repository too', async () => {
    const script = '<script>alert(1)</script>\n';
    await deploy('libs-local', 'conf/page.html', script);
    for (const repoKey of ['libs-local', 'libs-virtual']) {
      const response = await viewText(repoKey, 'conf/page.html');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ fileContent: script });
    }
    expect((await viewText('libs-local', `${BASE}.pom`)).json().fileContent).toBe(POM);
  });

  it('refuses binary, oversize, folders and missing files with a clear message', async () => {
    await deploy('generic-local', 'lib/fake.txt', Buffer.from([0x41, 0x00, 0x42]));
    const binary = await viewText('generic-local', 'lib/fake.txt');
    expect(binary.statusCode).toBe(400);
    expect(binary.json().errors[0].message).toBe(
      FILE_VIEW_MESSAGES.notText('generic-local/lib/fake.txt'),
    );
    const jar = await viewText('generic-local', 'lib/tool.jar');
    expect(jar.statusCode).toBe(400);
    expect(jar.json().errors[0].message).toBe(
      FILE_VIEW_MESSAGES.notText('generic-local/lib/tool.jar'),
    );
    const huge = await viewText('libs-local', 'conf/huge.xml');
    expect(huge.statusCode).toBe(400);
    expect(huge.json().errors[0].message).toBe(
      FILE_VIEW_MESSAGES.tooLarge('libs-local/conf/huge.xml'),
    );
    const folder = await viewText('libs-local', 'conf');
    expect(folder.json().errors[0].message).toBe(
      FILE_VIEW_MESSAGES.folderNotViewed('libs-local/conf'),
    );
    expect((await viewText('libs-local', 'conf/nope.txt')).statusCode).toBe(404);
    expect((await viewText('libs-local', '../x.txt')).statusCode).toBe(400);
    expect((await viewText('libs-local', 'conf/settings.xml', {})).statusCode).toBe(401);
  });

  it('is offered on text files only', async () => {
    expect(await actionsOf('libs-local', 'conf/settings.xml')).toContain('view');
    expect(await actionsOf('libs-local', `${BASE}.pom`)).toContain('view');
    expect(await actionsOf('generic-local', 'lib/tool.jar')).not.toContain('view');
    expect(await actionsOf('npm-local', 'widget/-/widget-1.2.3.tgz')).not.toContain('view');
  });
});

describe('the native browser (GET /ui/nativeBrowser/{repoKey}/{path})', () => {
  const listing = (url: string) =>
    depot.app.inject({
      method: 'GET',
      url: `/ui/api/v1/ui/nativeBrowser/${url}`,
      headers: readerAuth(),
    });

  it('lists a folder: folders to open, files with size, date and download path', async () => {
    const response = await listing('libs-local/org/acme/app/1.0');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.children.map((entry: { name: string }) => entry.name)).toEqual([
      'app-1.0.jar',
      'app-1.0.pom',
    ]);
    expect(body.children[1]).toMatchObject({
      folder: false,
      size: Buffer.byteLength(POM),
      downloadPath: `libs-local/${BASE}.pom`,
    });
    expect(Date.parse(body.children[1].lastModified)).not.toBeNaN();
    const root = (await listing('libs-local')).json();
    expect(root.children[0]).toEqual({ name: 'conf', folder: true });
    expect((await listing('libs-local/')).json().children).toEqual(root.children);
  });

  it('pages large folders and answers a path to nothing with 404', async () => {
    const first = (await listing('libs-local/conf?limit=1')).json();
    expect(first.children).toHaveLength(1);
    const next = (
      await listing(
        `libs-local/conf?limit=5&continueState=${encodeURIComponent(first.continueState)}`,
      )
    ).json();
    expect(next.continueState).toBeUndefined();
    expect(next.children.map((e: { name: string }) => e.name)).not.toContain(
      first.children[0].name,
    );
    const missing = await listing('libs-local/no/such');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].message).toBe('libs-local/no/such could not be found.');
    expect((await listing('libs-local/conf/settings.xml')).statusCode).toBe(400);
    expect((await listing('nope-local')).statusCode).toBe(404);
  });
});
