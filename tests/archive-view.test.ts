import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTED_ENTRIES } from '../server/modules/archive-view/archive-entries.ts';
import { VIEW_SOURCE_MESSAGES } from '../server/modules/archive-view/messages.ts';
import { MAX_SOURCE_BYTES } from '../server/modules/archive-view/service.ts';
import { craftZip, type CraftedEntry } from './helpers/archives.ts';
import { basic, deployFile, startTestDepot, type TestDepot } from './helpers/test-app.ts';

let depot: TestDepot;
const readerAuth = () => ({ authorization: basic('reader', 'reader-pass-1') });
const JAR = 'org/acme/app/1.0/app-1.0.jar';
const MANIFEST = 'Manifest-Version: 1.0\nCreated-By: Depot tests ✓\n';
const CLASS_BYTES = Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x34, 0, 1]);
// Text that deflates no better than text does: repeated letters would trip the bomb guard.
const BIG_TEXT = randomBytes(MAX_SOURCE_BYTES).toString('base64');
const PACKAGE_JSON = '{\n  "name": "widget"\n}\n';
const INDEX_JS = 'module.exports = 42;\n';

const deflated = (text: string | Buffer): CraftedEntry['data'] => {
  const data = Buffer.from(text);
  return { deflated: [deflateRawSync(data)], crc32: crc32(data), size: data.length };
};

async function tarball(files: Record<string, string | Buffer>, gzipped: boolean) {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name }, content);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as unknown as Readable) chunks.push(chunk as Buffer);
  const archive = Buffer.concat(chunks);
  return gzipped ? gzipSync(archive) : archive;
}

const deploy = (repoKey: string, path: string, content: Buffer | string) =>
  deployFile(depot, repoKey, path, content);

function viewSource(body: object, headers: object = readerAuth()) {
  return depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/archiveViewSource',
    headers: { ...headers },
    payload: body,
  });
}

async function entriesOf(archivePath: string, repoKey = 'libs-local') {
  const response = await viewSource({ repoKey, archivePath });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    entries: { path: string; size: number; folder: boolean }[];
    truncated: boolean;
  };
}

async function sourceOf(archivePath: string, sourcePath: string) {
  const response = await viewSource({ repoKey: 'libs-local', archivePath, sourcePath });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { source: string; truncated: boolean; binary: boolean };
}

beforeAll(async () => {
  depot = await startTestDepot();
  await depot.services.repositories.create({
    key: 'libs-local',
    rclass: 'local',
    packageType: 'maven',
  } as never);
  await depot.services.repositories.create({
    key: 'all-virtual',
    rclass: 'virtual',
    packageType: 'maven',
    repositories: ['libs-local'],
  } as never);
  await depot.services.users.create({
    name: 'reader',
    email: 'reader@example.com',
    password: 'reader-pass-1',
  } as never);
  await deploy(
    'libs-local',
    JAR,
    craftZip([
      { name: 'META-INF/', data: Buffer.alloc(0) },
      { name: 'META-INF/MANIFEST.MF', data: deflated(MANIFEST) },
      { name: 'com/acme/App.class', data: CLASS_BYTES },
      { name: 'big.txt', data: deflated(BIG_TEXT) },
    ]),
  );
  await deploy(
    'libs-local',
    'pkg/widget-1.0.0.TGZ',
    await tarball(
      {
        'package/package.json': PACKAGE_JSON,
        'package/lib/index.js': INDEX_JS,
      },
      true,
    ),
  );
  await deploy('libs-local', 'pkg/plain.tar', await tarball({ './docs/a.md': '# A\n' }, false));
  await deploy('libs-local', 'notes.txt', 'just text');
  await deploy('libs-local', 'broken.zip', 'PK this is not a zip at all');
  const tgz = await tarball({ 'package/package.json': '{}' }, true);
  await deploy('libs-local', 'cut.tgz', tgz.subarray(0, tgz.length - 12));
});
afterAll(() => depot.close());

describe('listing an archive', () => {
  it("lists a jar's entries with the folders they imply, by path", async () => {
    expect(await entriesOf(JAR)).toEqual({
      entries: [
        { path: 'META-INF', size: 0, folder: true },
        { path: 'META-INF/MANIFEST.MF', size: Buffer.byteLength(MANIFEST), folder: false },
        { path: 'big.txt', size: BIG_TEXT.length, folder: false },
        { path: 'com', size: 0, folder: true },
        { path: 'com/acme', size: 0, folder: true },
        { path: 'com/acme/App.class', size: CLASS_BYTES.length, folder: false },
      ],
      truncated: false,
    });
  });

  it('lists a tgz and a tar, whatever the case of the extension', async () => {
    expect((await entriesOf('pkg/widget-1.0.0.TGZ')).entries).toEqual([
      { path: 'package', size: 0, folder: true },
      { path: 'package/lib', size: 0, folder: true },
      { path: 'package/lib/index.js', size: INDEX_JS.length, folder: false },
      { path: 'package/package.json', size: PACKAGE_JSON.length, folder: false },
    ]);
    expect((await entriesOf('pkg/plain.tar')).entries).toEqual([
      { path: 'docs', size: 0, folder: true },
      { path: 'docs/a.md', size: 4, folder: false },
    ]);
  });

  it("reads a virtual repository's archives through its members", async () => {
    expect((await entriesOf(JAR, 'all-virtual')).entries).toHaveLength(6);
  });

  it(`shows at most ${MAX_LISTED_ENTRIES} entries`, async () => {
    const many = Array.from({ length: MAX_LISTED_ENTRIES + 50 }, (_, i) => ({
      name: `e/${String(i).padStart(5, '0')}.txt`,
      data: Buffer.from('x'),
    }));
    await deploy('libs-local', 'many.zip', craftZip(many));
    const answer = await entriesOf('many.zip');
    expect(answer.truncated).toBe(true);
    expect(answer.entries).toHaveLength(MAX_LISTED_ENTRIES);
    expect(answer.entries[0]).toEqual({ path: 'e', size: 0, folder: true });
  });
});

describe("an entry's source", () => {
  it('answers a text entry as UTF-8', async () => {
    expect(await sourceOf(JAR, 'META-INF/MANIFEST.MF')).toEqual({
      source: MANIFEST,
      truncated: false,
      binary: false,
    });
    expect(await sourceOf('pkg/widget-1.0.0.TGZ', 'package/lib/index.js')).toEqual({
      source: INDEX_JS,
      truncated: false,
      binary: false,
    });
    expect((await sourceOf('pkg/plain.tar', 'docs/a.md')).source).toBe('# A\n');
  });

  it('answers a binary entry without its content', async () => {
    expect(await sourceOf(JAR, 'com/acme/App.class')).toEqual({
      source: '',
      truncated: false,
      binary: true,
    });
  });

  it('answers the first MiB of a larger entry', async () => {
    const answer = await sourceOf(JAR, 'big.txt');
    expect(answer.truncated).toBe(true);
    expect(answer.binary).toBe(false);
    expect(answer.source).toBe(BIG_TEXT.slice(0, MAX_SOURCE_BYTES));
  });

  it('answers a missing entry with 404 and a folder with 400', async () => {
    const missing = await viewSource({
      repoKey: 'libs-local',
      archivePath: JAR,
      sourcePath: 'com/acme/Nope.class',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].message).toBe(
      `com/acme/Nope.class could not be found in ${JAR}.`,
    );
    const folder = await viewSource({ repoKey: 'libs-local', archivePath: JAR, sourcePath: 'com' });
    expect(folder.statusCode).toBe(400);
    expect(folder.json().errors[0].message).toBe(VIEW_SOURCE_MESSAGES.folderEntry('com', JAR));
  });
});

describe('what cannot be viewed', () => {
  it('refuses a file that is not an archive, a folder, and a missing file', async () => {
    const text = await viewSource({ repoKey: 'libs-local', archivePath: 'notes.txt' });
    expect(text.statusCode).toBe(400);
    expect(text.json().errors[0].message).toBe(
      VIEW_SOURCE_MESSAGES.notAnArchive('libs-local/notes.txt'),
    );
    expect((await viewSource({ repoKey: 'libs-local', archivePath: 'pkg' })).statusCode).toBe(400);
    expect((await viewSource({ repoKey: 'libs-local', archivePath: 'nope.zip' })).statusCode).toBe(
      404,
    );
    expect((await viewSource({ repoKey: 'libs-local', archivePath: '../x.zip' })).statusCode).toBe(
      400,
    );
    expect((await viewSource({ repoKey: 'libs-local' })).statusCode).toBe(400);
  });

  it('answers a corrupt archive with a clear 400', async () => {
    for (const archivePath of ['broken.zip', 'cut.tgz']) {
      const listing = await viewSource({ repoKey: 'libs-local', archivePath });
      expect(listing.statusCode, `${archivePath}: ${listing.body}`).toBe(400);
      expect(listing.json().errors[0].message).toMatch(/^The archive could not be read: /);
    }
    const entry = await viewSource({
      repoKey: 'libs-local',
      archivePath: 'cut.tgz',
      sourcePath: 'package/nope',
    });
    expect(entry.statusCode).toBe(400);
    // An entry whose content does not match what the zip records of it.
    await deploy(
      'libs-local',
      'lying.zip',
      craftZip([
        { name: 'a.txt', data: { deflated: [deflateRawSync('short')], crc32: 1234, size: 5 } },
      ]),
    );
    const lying = await viewSource({
      repoKey: 'libs-local',
      archivePath: 'lying.zip',
      sourcePath: 'a.txt',
    });
    expect(lying.statusCode, lying.body).toBe(400);
    expect(lying.json().errors[0].message).toMatch(/the archive is corrupt$/);
  });

  it('stops reading a tgz that inflates like a bomb', async () => {
    const zeros = Buffer.alloc(8 * 1024 * 1024);
    await deploy(
      'libs-local',
      'bomb.tgz',
      await tarball({ 'zeros.bin': zeros, 'b.txt': 'b' }, true),
    );
    for (const sourcePath of [undefined, 'b.txt']) {
      const response = await viewSource({
        repoKey: 'libs-local',
        archivePath: 'bomb.tgz',
        sourcePath,
      });
      expect(response.statusCode, response.body).toBe(413);
      expect(response.json().errors[0].message).toMatch(/as archive bombs do/);
    }
  });

  it('is for signed-in users while anonymous access is off', async () => {
    expect((await viewSource({ repoKey: 'libs-local', archivePath: JAR }, {})).statusCode).toBe(
      401,
    );
  });
});

describe('the ViewSource tab', () => {
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

  it('is listed for archives only', async () => {
    expect(await tabsOf('libs-local', 'pkg/widget-1.0.0.TGZ')).toContain('ViewSource');
    expect(await tabsOf('libs-local', 'pkg/plain.tar')).toContain('ViewSource');
    expect(await tabsOf('libs-local', 'notes.txt')).not.toContain('ViewSource');
  });
});
