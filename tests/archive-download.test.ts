import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync, rmSync } from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_MESSAGES } from '../server/modules/archives/messages.ts';
import { unzip, untar } from './helpers/archives.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { basic, TEST_ADMIN_PASSWORD } from './helpers/test-app.ts';

const MAX_CONCURRENT = 2;
const BIG = randomBytes(32 * 1024 * 1024); // more than loopback socket buffers hold

const deployed: Record<string, string> = {
  'app/readme.txt': 'read me',
  'app/lib/one.jar': 'first jar',
  'app/lib/deep/two.txt': 'second file',
  'app/lib/deep/er/three.bin': 'third, three levels down',
};

let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot({
    DEPOT_FOLDER_DOWNLOAD_MAX_CONCURRENT: String(MAX_CONCURRENT),
    DEPOT_FOLDER_DOWNLOAD_MAX_FILES: '6',
    DEPOT_FOLDER_DOWNLOAD_MAX_SIZE_MB: '40',
  });
  const { repositories } = depot.services;
  await repositories.create({ key: 'libs', rclass: 'local', packageType: 'generic' });
  await repositories.create({ key: 'more', rclass: 'local', packageType: 'generic' });
  await repositories.create({
    key: 'all',
    rclass: 'virtual',
    packageType: 'generic',
    repositories: ['libs', 'more'],
    excludesPattern: '**/*.secret',
  });
  const put = async (path: string, body: string | Buffer) =>
    expect(
      (await depot.request(`/artifactory/${path}`, { method: 'PUT', body: body as BodyInit }))
        .status,
    ).toBe(201);
  for (const [path, body] of Object.entries(deployed)) await put(`libs/${path}`, body);
  await put('libs/app/lib/deep/two.txt', deployed['app/lib/deep/two.txt']);
  await put('more/app/readme.txt', 'shadowed by libs');
  await put('more/app/extra.txt', 'only in more');
  await put('more/app/keys.secret', 'excluded by the virtual');
  await put('libs/big/blob.zip', BIG);
  for (let i = 0; i < 7; i++) await put(`libs/many/f${i}.txt`, `file ${i}`);
  await put('libs/oversize/a.zip', BIG);
  await put('libs/oversize/b.bin', randomBytes(9 * 1024 * 1024));
  // An empty folder: deploy a file, then delete it for good.
  await put('libs/empty/gone.txt', 'x');
  const admin = { name: 'admin', admin: true, anonymous: false, via: 'basic' } as const;
  await depot.services.artifacts.delete(
    'libs',
    'empty/gone.txt',
    await depot.services.access.walker(admin),
  );
});
afterAll(() => depot?.close());

const download = (path: string, query = 'archiveType=zip') =>
  depot.request(`/artifactory/api/archive/download/${path}?${query}`);

/** The console's check before it lets the browser save a folder (spec 02 §4 Downloads). */
const consoleCheck = (query: string) =>
  depot.request(`/ui/api/v1/ui/artifactactions/downloadfolder?${query}`, { method: 'HEAD' });
const body = async (response: Response) => Buffer.from(await response.arrayBuffer());
const sha = (kind: string, text: string | Buffer) => createHash(kind).update(text).digest('hex');
const relativeToApp = () =>
  Object.fromEntries(Object.entries(deployed).map(([path, text]) => [path.slice(4), text]));
const asText = (files: Map<string, Buffer>) =>
  Object.fromEntries([...files].map(([name, content]) => [name, content.toString()]));

describe('folder download as an archive', () => {
  it('streams a three-level folder as a zip of paths relative to the folder', async () => {
    const response = await download('libs/app');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('filename="app.zip"');
    expect(asText(await unzip(await body(response)))).toEqual(relativeToApp());
  });

  it('adds .sha1, .sha256 and .md5 entries when asked', async () => {
    const response = await download('libs/app/lib', 'archiveType=zip&includeChecksumFiles=true');
    const files = asText(await unzip(await body(response)));
    expect(Object.keys(files).sort()).toEqual(
      ['one.jar', 'deep/two.txt', 'deep/er/three.bin']
        .flatMap((name) => [name, `${name}.sha1`, `${name}.sha256`, `${name}.md5`])
        .sort(),
    );
    for (const name of ['one.jar', 'deep/two.txt', 'deep/er/three.bin']) {
      const content = deployed[`app/lib/${name}`];
      expect(files[`${name}.sha1`]).toBe(sha('sha1', content));
      expect(files[`${name}.sha256`]).toBe(sha('sha256', content));
      expect(files[`${name}.md5`]).toBe(sha('md5', content));
    }
  });

  it('streams tar, tar.gz and tgz with the same content', async () => {
    for (const [type, gzipped] of [
      ['tar', false],
      ['tar.gz', true],
      ['tgz', true],
    ] as const) {
      const response = await download('libs/app', `archiveType=${type}`);
      expect(response.status, type).toBe(200);
      expect(response.headers.get('content-disposition')).toContain(`filename="app.${type}"`);
      expect(asText(await untar(await body(response), gzipped)), type).toEqual(relativeToApp());
    }
  });

  it('answers an empty folder with an empty archive', async () => {
    expect((await unzip(await body(await download('libs/empty')))).size).toBe(0);
    expect(
      (await untar(await body(await download('libs/empty', 'archiveType=tgz')), true)).size,
    ).toBe(0);
  });

  it('merges the members of a virtual repository, the first member winning, by its patterns', async () => {
    const files = asText(await unzip(await body(await download('all/app'))));
    expect(files).toEqual({ ...relativeToApp(), 'extra.txt': 'only in more' });
  });

  it('refuses unknown paths, files, unknown types and folders past the limits', async () => {
    const cases: [string, string, number, string][] = [
      [
        'libs/nothing/here',
        'archiveType=zip',
        404,
        ARCHIVE_MESSAGES.folderNotFound('libs/nothing/here'),
      ],
      ['nowhere/app', 'archiveType=zip', 404, "Repository 'nowhere' could not be found."],
      [
        'libs/app/readme.txt',
        'archiveType=zip',
        400,
        ARCHIVE_MESSAGES.notAFolder('libs/app/readme.txt'),
      ],
      ['libs/app', 'archiveType=rar', 400, ARCHIVE_MESSAGES.unsupportedDownloadType('rar')],
      ['libs/many', 'archiveType=zip', 400, ARCHIVE_MESSAGES.tooManyFiles('libs/many', 7, 6)],
    ];
    for (const [path, query, status, message] of cases) {
      const response = await download(path, query);
      expect(response.status, path).toBe(status);
      expect((await response.json()).errors[0].message).toBe(message);
    }
    const oversize = await download('libs/oversize');
    expect(oversize.status).toBe(400);
    expect((await oversize.json()).errors[0].message).toMatch(
      /^Folder 'libs\/oversize' holds 41\.00 MB, more than the 40 MB/,
    );
  });

  it('needs a reader: anonymous callers are refused while anonymous access is off', async () => {
    const response = await fetch(`${depot.base}/artifactory/api/archive/download/libs/app`);
    expect(response.status).toBe(401);
  });
});

describe('the console calls', () => {
  it('tells the size and file count of a folder', async () => {
    const response = await depot.request(
      '/ui/api/v1/ui/artifactactions/downloadfolderinfo?repoKey=libs&path=app',
    );
    expect(response.status).toBe(200);
    const bytes = Object.values(deployed).reduce((sum, text) => sum + text.length, 0);
    expect(await response.json()).toEqual({
      sizeMB: Math.round((bytes / 1024 / 1024) * 100) / 100,
      totalFiles: 4,
    });
  });

  it('downloads a folder by POST and by GET', async () => {
    const posted = await depot.request('/ui/api/v1/ui/artifactactions/downloadfolder', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        repoKey: 'libs',
        path: 'app/lib',
        archiveType: 'tar.gz',
        includeChecksumFiles: false,
      }),
    });
    expect(posted.status).toBe(200);
    expect([...(await untar(await body(posted), true)).keys()].sort()).toEqual([
      'deep/er/three.bin',
      'deep/two.txt',
      'one.jar',
    ]);
    const got = await depot.request(
      '/ui/api/v1/ui/artifactactions/downloadfolder?repoKey=libs&path=app&archiveType=zip',
    );
    expect(asText(await unzip(await body(got)))).toEqual(relativeToApp());
  });

  it("answers the console's GET with the format and checksum files chosen: tar and tar.gz read back byte for byte", async () => {
    const names = ['one.jar', 'deep/two.txt', 'deep/er/three.bin'];
    for (const [type, gzipped] of [
      ['tar', false],
      ['tar.gz', true],
    ] as const) {
      const query = `repoKey=libs&path=app%2Flib&archiveType=${type}&includeChecksumFiles=true`;
      expect((await consoleCheck(query)).status, type).toBe(200);
      const got = await depot.request(`/ui/api/v1/ui/artifactactions/downloadfolder?${query}`);
      expect(got.status, type).toBe(200);
      expect(got.headers.get('content-disposition'), type).toContain(`filename="lib.${type}"`);
      const files = asText(await untar(await body(got), gzipped));
      const expected: Record<string, string> = {};
      for (const name of names) {
        const content = deployed[`app/lib/${name}`];
        Object.assign(expected, {
          [name]: content,
          [`${name}.sha1`]: sha('sha1', content),
          [`${name}.sha256`]: sha('sha256', content),
          [`${name}.md5`]: sha('md5', content),
        });
      }
      expect(files, type).toEqual(expected);
    }
  });

  it('checks a download with a HEAD: its answer, nothing built, and the refusals of a GET', async () => {
    const ok = await consoleCheck('repoKey=libs&path=app&archiveType=zip');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('');
    expect(openBlobHandles()).toBe(0);
    const refusals: [string, number][] = [
      ['repoKey=libs&path=many&archiveType=zip', 400],
      ['repoKey=libs&path=oversize&archiveType=zip', 400],
      ['repoKey=libs&path=nothing/here&archiveType=zip', 404],
      ['repoKey=libs&path=app&archiveType=rar', 400],
      ['path=app', 400],
    ];
    for (const [query, status] of refusals) {
      expect((await consoleCheck(query)).status, query).toBe(status);
    }
    const anonymous = await fetch(
      `${depot.base}/ui/api/v1/ui/artifactactions/downloadfolder?repoKey=libs&path=app`,
      { method: 'HEAD' },
    );
    expect(anonymous.status).toBe(401);
  });

  it('refuses a body with unknown fields or no repository', async () => {
    for (const payload of [{ path: 'app' }, { repoKey: 'libs', path: 'app', extra: 1 }]) {
      const response = await depot.request('/ui/api/v1/ui/artifactactions/downloadfolder', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      expect(response.status).toBe(400);
    }
  });
});

/** Open file handles of this process (the server runs in it) on blobs of the filestore. */
const openBlobHandles = () =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${depot.config.home}/filestore/`);
    } catch {
      return false; // closed while we looked
    }
  }).length;

/** A download over a plain socket whose body is never read; `disconnect` drops the socket. */
function holdDownload(path: string): Promise<{ status: number; disconnect: () => void }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${depot.base}/artifactory/api/archive/download/${path}?archiveType=zip`,
      { headers: { authorization: basic('admin', TEST_ADMIN_PASSWORD) } },
      (response) => resolve({ status: response.statusCode!, disconnect: () => request.destroy() }),
    );
    request.on('error', reject);
  });
}

/** Waits, a bounded number of turns, until `done` holds. */
async function eventually(done: () => Promise<boolean> | boolean, turns = 200) {
  for (let turn = 0; turn < turns; turn++) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

describe('the concurrency limit', () => {
  it('refuses downloads past the limit with the spec message, until a client lets go', async () => {
    // Downloads of a 32 MiB folder that nobody reads: each holds its slot.
    const held = await Promise.all(
      Array.from({ length: MAX_CONCURRENT }, () => holdDownload('libs/big')),
    );
    try {
      for (const download of held) expect(download.status).toBe(200);
      const refused = await download('libs/app');
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({
        errors: [{ status: 429, message: ARCHIVE_MESSAGES.tooManyDownloads }],
      });
      // The console's check before a download says the same, without a body or a slot.
      expect((await consoleCheck('repoKey=libs&path=app&archiveType=zip')).status).toBe(429);
      expect(openBlobHandles()).toBeGreaterThan(0);

      // One client goes away mid-stream: its slot comes back.
      held[0].disconnect();
      expect(
        await eventually(async () => {
          const next = await download('libs/app');
          await next.arrayBuffer();
          return next.status === 200;
        }),
      ).toBe(true);

      held[1].disconnect();
      expect(await eventually(() => openBlobHandles() === 0)).toBe(true);
      // Both slots are free again: two downloads at once succeed.
      const again = await Promise.all([download('libs/app'), download('libs/app')]);
      for (const response of again) {
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
    } finally {
      for (const download of held) download.disconnect();
    }
  });

  it('gives the slot back when a download is read to its end', async () => {
    const whole = await download('libs/big');
    expect((await unzip(await body(whole))).get('blob.zip')!.equals(BIG)).toBe(true);
    for (let i = 0; i < MAX_CONCURRENT + 1; i++) {
      const response = await download('libs/app');
      expect(response.status).toBe(200);
      expect(asText(await unzip(await body(response)))).toEqual(relativeToApp());
    }
  });

  it('gives the slot back when an archive fails mid-stream (a blob gone from disk)', async () => {
    const put = await depot.request('/artifactory/libs/broken/lost.txt', {
      method: 'PUT',
      body: 'soon lost from the disk',
    });
    const { checksums } = await put.json();
    rmSync(depot.services.filestore.pathOf(checksums.sha256));
    for (let i = 0; i < MAX_CONCURRENT + 1; i++) {
      // Headers may be out before the blob is found missing: then the connection is cut.
      const broken = await download('libs/broken')
        .then(async (response) => (await response.arrayBuffer(), response.status))
        .catch(() => 'connection reset');
      expect([500, 'connection reset']).toContain(broken);
    }
    const healthy = await download('libs/app');
    expect(healthy.status).toBe(200);
    await healthy.arrayBuffer();
    expect(await eventually(() => openBlobHandles() === 0)).toBe(true);
  });

  it('counts a plain user as a reader', async () => {
    await depot.services.users.create({
      name: 'reader',
      email: 'r@example.com',
      password: 'reader-pass-1',
      groups: ['readers'], // the default target Anything lets readers read
    });
    const response = await depot.request('/artifactory/api/archive/download/libs/app', {
      headers: { authorization: basic('reader', 'reader-pass-1') },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });
});
