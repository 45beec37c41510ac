import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_MESSAGES } from '../server/modules/archives/messages.ts';
import { craftZip, zerosDeflated, type CraftedEntry } from './helpers/archives.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { basic, TEST_ADMIN_PASSWORD } from './helpers/test-app.ts';

const LIMITS = { maxEntries: 50, maxSizeMb: 64, maxRatio: 100 };

let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot({
    DEPOT_ARCHIVE_DEPLOY_MAX_ENTRIES: String(LIMITS.maxEntries),
    DEPOT_ARCHIVE_DEPLOY_MAX_SIZE_MB: String(LIMITS.maxSizeMb),
    DEPOT_ARCHIVE_DEPLOY_MAX_RATIO: String(LIMITS.maxRatio),
  });
  const { repositories } = depot.services;
  await repositories.create({ key: 'libs', rclass: 'local', packageType: 'generic' });
  await repositories.create({
    key: 'strict',
    rclass: 'local',
    packageType: 'generic',
    excludesPattern: '**/*.secret',
  });
  await repositories.create({
    key: 'empty',
    rclass: 'local',
    packageType: 'generic',
  });
});
afterAll(() => depot?.close());

const explode = (path: string, body: Buffer | Readable, headers: Record<string, string> = {}) =>
  depot.request(`/artifactory/${path}`, {
    method: 'PUT',
    headers: { 'x-explode-archive': 'true', ...headers },
    body: (Buffer.isBuffer(body) ? body : Readable.toWeb(body)) as BodyInit,
  });

const text = async (path: string) => {
  const response = await depot.request(`/artifactory/${path}`);
  return response.status === 200 ? response.text() : response.status;
};

type TarEntry = string | Omit<tar.Headers, 'name'>;

/** A tar (gzipped when asked) of entries given as name → content or a header. */
async function tarOf(entries: [string, TarEntry][], gzipped = false) {
  const pack = tar.pack();
  for (const [name, entry] of entries) {
    if (typeof entry === 'string') pack.entry({ name }, entry);
    else pack.entry({ ...entry, name });
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  const archive = Buffer.concat(chunks);
  return gzipped ? gzipSync(archive) : archive;
}

/** A tar.gz of one entry made of `count` copies of `block`, streamed, never built whole. */
function gzippedTarOf(name: string, block: Buffer, count: number): Readable {
  const pack = tar.pack();
  const entry = pack.entry({ name, size: count * block.length });
  Readable.from(Array.from({ length: count }, () => block)).pipe(
    entry as unknown as NodeJS.WritableStream,
  );
  entry.on('finish', () => pack.finalize());
  return Readable.from(pack).pipe(createGzip());
}

const stored = (name: string, content: string): CraftedEntry => ({
  name,
  data: Buffer.from(content),
});

/** Waits, a bounded number of turns, until `done` holds. */
async function eventually(done: () => boolean, turns = 200) {
  for (let turn = 0; turn < turns; turn++) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

const filestoreRoot = () => join(depot.config.home, 'filestore');
const tempFiles = () => readdirSync(join(filestoreRoot(), '_tmp'));
const blobCount = () =>
  readdirSync(filestoreRoot())
    .filter((d) => d !== '_tmp')
    .flatMap((a) =>
      readdirSync(join(filestoreRoot(), a)).flatMap((b) =>
        readdirSync(join(filestoreRoot(), a, b)),
      ),
    ).length;
const nodeCount = async (repoKey: string) => {
  const repo = await depot.services.artifacts.repository(repoKey);
  const row = await depot.db
    .selectFrom('nodes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('repository_id', '=', repo.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};
/** Files named like the escaping entries, in the test's home (all of it) or beside it. */
const namesAround = () =>
  [
    ...readdirSync(depot.config.home, { recursive: true, encoding: 'utf8' }),
    ...readdirSync(join(depot.config.home, '..')),
  ].filter((name) => name.includes('evil'));

/** Asserts a refused archive left no node, no blob and no temp file behind. */
async function expectNothingKept(repoKey: string, nodesBefore: number, blobsBefore: number) {
  expect(await nodeCount(repoKey)).toBe(nodesBefore);
  expect(blobCount()).toBe(blobsBefore);
  expect(tempFiles()).toEqual([]);
  expect(namesAround()).toEqual([]);
}

describe('deploying an archive exploded', () => {
  it('deploys a zip’s entries into the archive’s folder and answers a summary', async () => {
    const archive = craftZip([
      stored('readme.txt', 'read me'),
      stored('lib/one.jar', 'first'),
      stored('lib/deep/two.txt', 'second'),
      stored('docs/', ''),
    ]);
    const response = await explode('libs/bundle/archive.zip', archive);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      repo: 'libs',
      path: '/bundle',
      files: 3,
      size: 18,
      atomic: false,
    });
    expect(await text('libs/bundle/readme.txt')).toBe('read me');
    expect(await text('libs/bundle/lib/deep/two.txt')).toBe('second');
    expect(await text('libs/bundle/archive.zip')).toBe(404);
    const docs = await depot.request('/artifactory/api/storage/libs/bundle/docs');
    expect(docs.status).toBe(200);
    expect((await docs.json()).children).toEqual([]);
  });

  it('deploys tar and tar.gz, dropping a leading ./, and sets the PUT’s properties', async () => {
    const entries: [string, TarEntry][] = [
      ['./', { type: 'directory' }],
      ['./a.txt', 'from tar'],
      ['./sub/b.txt', 'nested'],
    ];
    const plain = await explode('libs/t1/x.tar', await tarOf(entries), {
      'x-explode-archive-atomic': 'true',
    });
    expect(plain.status).toBe(201);
    expect((await plain.json()).atomic).toBe(true);
    expect(await text('libs/t1/a.txt')).toBe('from tar');
    const gz = await explode('libs/t2/x.tar.gz;team=core', await tarOf(entries, true));
    expect(gz.status).toBe(201);
    expect(await text('libs/t2/sub/b.txt')).toBe('nested');
    const props = await (
      await depot.request('/artifactory/api/storage/libs/t2/sub/b.txt?properties')
    ).json();
    expect(props.properties).toEqual({ team: ['core'] });
    const tgz = await explode('libs/t3/x.tgz', await tarOf(entries, true));
    expect(tgz.status).toBe(201);
  });

  it('verifies the archive against the checksums sent with it', async () => {
    const archive = craftZip([stored('c.txt', 'checked')]);
    const nodes = await nodeCount('libs');
    const blobs = blobCount();
    const wrong = await explode('libs/ck/a.zip', archive, { 'x-checksum-sha256': '0'.repeat(64) });
    expect(wrong.status).toBe(409);
    await expectNothingKept('libs', nodes, blobs);
    const sha256 = createHash('sha256').update(archive).digest('hex');
    const right = await explode('libs/ck/a.zip', archive, { 'x-checksum-sha256': sha256 });
    expect(right.status).toBe(201);
  });

  it('refuses what is not an archive it can read', async () => {
    const unknown = await explode('libs/x/file.rar', Buffer.from('rar'));
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).errors[0].message).toBe(
      ARCHIVE_MESSAGES.unsupportedDeployType('file.rar'),
    );
    const garbage = await explode('libs/x/bad.zip', Buffer.from('this is not a zip at all'));
    expect(garbage.status).toBe(400);
    expect((await garbage.json()).errors[0].message).toMatch(/^The archive could not be read: /);
    expect(tempFiles()).toEqual([]);
  });

  it('refuses an entry whose content does not match its CRC-32', async () => {
    const archive = craftZip([stored('ok.txt', 'fine'), stored('bad.txt', 'AAAA')]);
    archive.write('BBBB', archive.indexOf('AAAA')); // corrupt the stored content
    const nodes = await nodeCount('libs');
    const blobs = blobCount();
    const response = await explode('libs/crc/a.zip', archive, {
      'x-explode-archive-atomic': 'true',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0].message).toBe(
      ARCHIVE_MESSAGES.entryChecksum('bad.txt'),
    );
    await expectNothingKept('libs', nodes, blobs);
  });
});

describe('zip-slip', () => {
  const slips: [string, string][] = [
    ['/etc/evil.txt', 'absolute paths are not allowed'],
    ['../evil.txt', "'..' segments are not allowed"],
    ['a/../../evil.txt', "'..' segments are not allowed"],
    ['a\\..\\..\\evil.txt', 'it contains a backslash'],
    ['evil\u0000.txt', 'it contains a NUL character'],
    ['C:/evil.txt', 'drive letters are not allowed'],
    ['c:evil.txt', 'drive letters are not allowed'],
  ];

  it('refuses each kind of escaping zip entry with nothing deployed', async () => {
    for (const [name, reason] of slips) {
      const nodes = await nodeCount('libs');
      const blobs = blobCount();
      // A good entry first: it is staged, then thrown away with the rest.
      const archive = craftZip([stored('good.txt', `good before ${name}`), stored(name, 'evil')]);
      const response = await explode('libs/slip/a.zip', archive);
      expect(response.status, name).toBe(400);
      const shown = name.replace('\u0000', '\\u0000');
      expect((await response.json()).errors[0].message, name).toBe(
        ARCHIVE_MESSAGES.badEntryName(shown, reason),
      );
      await expectNothingKept('libs', nodes, blobs);
      expect(await text('libs/slip/good.txt')).toBe(404);
    }
  });

  it('refuses escaping tar entries and links with nothing deployed', async () => {
    const cases: [string, TarEntry, string][] = [
      [
        '/abs/evil.txt',
        'x',
        ARCHIVE_MESSAGES.badEntryName('/abs/evil.txt', 'absolute paths are not allowed'),
      ],
      [
        '../evil.txt',
        'x',
        ARCHIVE_MESSAGES.badEntryName('../evil.txt', "'..' segments are not allowed"),
      ],
      [
        'C:\\evil.txt',
        'x',
        ARCHIVE_MESSAGES.badEntryName('C:\\evil.txt', 'it contains a backslash'),
      ],
      [
        'link-to-etc',
        { type: 'symlink', linkname: '/etc/passwd' },
        ARCHIVE_MESSAGES.unsupportedEntryType('link-to-etc', 'symlink'),
      ],
    ];
    for (const [name, entry, message] of cases) {
      const nodes = await nodeCount('libs');
      const blobs = blobCount();
      const archive = await tarOf(
        [
          ['fine.txt', 'fine'],
          [name, entry],
        ],
        true,
      );
      const response = await explode('libs/tslip/a.tgz', archive);
      expect(response.status, name).toBe(400);
      expect((await response.json()).errors[0].message).toBe(message);
      await expectNothingKept('libs', nodes, blobs);
    }
  });

  it('refuses an archive in which a path is both a file and a folder', async () => {
    const archive = craftZip([stored('x', 'a file'), stored('x/y.txt', 'inside the file')]);
    const response = await explode('libs/clash/a.zip', archive);
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0].message).toBe(ARCHIVE_MESSAGES.entryClash('clash/x'));
    expect(tempFiles()).toEqual([]);
  });
});

describe('repository rules per entry', () => {
  it('applies include and exclude patterns to every entry, refusing the whole archive', async () => {
    const archive = craftZip([stored('ok.txt', 'ok'), stored('keys/app.secret', 'secret')]);
    const response = await explode('strict/drop/a.zip', archive);
    expect(response.status).toBe(403);
    expect(await nodeCount('strict')).toBe(0);
    expect(tempFiles()).toEqual([]);
  });

  it('atomic: a clash with what is stored deploys nothing', async () => {
    await depot.request('/artifactory/libs/atomic/taken', { method: 'PUT', body: 'a file' });
    const nodes = await nodeCount('libs');
    const blobs = blobCount();
    const archive = craftZip([stored('first.txt', 'first'), stored('taken/inner.txt', 'clash')]);
    const response = await explode('libs/atomic/a.zip', archive, {
      'x-explode-archive-atomic': 'true',
    });
    expect(response.status).toBe(409);
    expect((await response.json()).errors[0].message).toBe(
      "'atomic/taken' is a file: it cannot hold 'atomic/taken/inner.txt'",
    );
    expect(await text('libs/atomic/first.txt')).toBe(404);
    await expectNothingKept('libs', nodes, blobs);
  });

  it('not atomic: files before a clash stay, as separate deploys would', async () => {
    await depot.request('/artifactory/libs/loose/taken', { method: 'PUT', body: 'a file' });
    const archive = craftZip([stored('first.txt', 'first'), stored('taken/inner.txt', 'clash')]);
    const response = await explode('libs/loose/a.zip', archive);
    expect(response.status).toBe(409);
    expect(await text('libs/loose/first.txt')).toBe('first');
    expect(await text('libs/loose/taken/inner.txt')).toBe(404);
    expect(tempFiles()).toEqual([]);
  });

  it('removes what it spooled when the client goes away mid-upload', async () => {
    const nodes = await nodeCount('libs');
    const upload = http.request(`${depot.base}/artifactory/libs/cut/a.zip`, {
      method: 'PUT',
      headers: {
        authorization: basic('admin', TEST_ADMIN_PASSWORD),
        'x-explode-archive': 'true',
        'content-length': String(10 * 1024 * 1024),
      },
    });
    upload.on('error', () => undefined); // the cut itself
    upload.write(Buffer.alloc(1024 * 1024));
    expect(await eventually(() => tempFiles().length === 1)).toBe(true);
    upload.destroy();
    expect(await eventually(() => tempFiles().length === 0)).toBe(true);
    expect(await nodeCount('libs')).toBe(nodes);
  });

  it('needs an admin', async () => {
    const response = await fetch(`${depot.base}/artifactory/libs/anon/a.zip`, {
      method: 'PUT',
      headers: { 'x-explode-archive': 'true' },
      body: craftZip([stored('a.txt', 'a')]) as unknown as BodyInit,
    });
    expect(response.status).toBe(401);
  });
});

describe('archive bombs', () => {
  /** Runs `work` while sampling this process's RSS (the server runs in it); answers the peak growth. */
  async function rssGrowth(work: () => Promise<void>): Promise<number> {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      await work();
    } finally {
      clearInterval(sampler);
    }
    return Math.max(peak, process.memoryUsage().rss) - before;
  }

  it('refuses a zip of 2 GiB of zeros within bounded memory, keeping nothing', async () => {
    const bomb = craftZip([
      stored('decoy.txt', 'hello'),
      { name: 'zeros.bin', data: zerosDeflated(2048) },
    ]);
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    const nodes = await nodeCount('empty');
    const blobs = blobCount();
    let status = 0;
    let message = '';
    const growth = await rssGrowth(async () => {
      const response = await explode('empty/bomb/a.zip', bomb);
      status = response.status;
      message = (await response.json()).errors[0].message;
    });
    expect(status).toBe(413);
    expect(message).toBe(ARCHIVE_MESSAGES.ratioTooHigh('zeros.bin', LIMITS.maxRatio));
    expect(growth).toBeLessThan(200 * 1024 * 1024);
    await expectNothingKept('empty', nodes, blobs);
  });

  it('does not trust sizes in the headers: a bomb claiming 1 KiB is still stopped', async () => {
    const liar = craftZip([{ name: 'small.txt', data: zerosDeflated(256), claimedSize: 1024 }]);
    const blobs = blobCount();
    const response = await explode('empty/liar/a.zip', liar);
    expect(response.status).toBe(413);
    expect((await response.json()).errors[0].message).toBe(
      ARCHIVE_MESSAGES.ratioTooHigh('small.txt', LIMITS.maxRatio),
    );
    await expectNothingKept('empty', 0, blobs);
  });

  it('refuses a gzipped tar that expands too far, by its whole-stream ratio', async () => {
    const blobs = blobCount();
    const bomb = gzippedTarOf('zeros.bin', Buffer.alloc(1024 * 1024), 256);
    const response = await explode('empty/tbomb/a.tar.gz', bomb);
    expect(response.status).toBe(413);
    expect((await response.json()).errors[0].message).toBe(
      ARCHIVE_MESSAGES.ratioTooHigh('zeros.bin', LIMITS.maxRatio),
    );
    await expectNothingKept('empty', 0, blobs);
  });

  it('refuses more bytes than the limit, counted as they stream', async () => {
    // Numbered log lines compress about 10 times: under the ratio, 70 MiB of them over the
    // 64 MB limit. Streamed, in 1 MiB blocks, never built whole.
    const block = Buffer.alloc(1024 * 1024, 'x');
    let at = 0;
    for (let i = 0; at + 64 <= block.length; i++) {
      at += block.write(
        `line ${String(i).padStart(10, '0')} of a long build log, step ${i % 97}\n`,
        at,
      );
    }
    const gzipped = gzippedTarOf('build.log', block, 70);
    const blobs = blobCount();
    const response = await explode('empty/big/a.tgz', gzipped);
    expect(response.status).toBe(413);
    expect((await response.json()).errors[0].message).toBe(
      ARCHIVE_MESSAGES.tooManyBytes(LIMITS.maxSizeMb),
    );
    await expectNothingKept('empty', 0, blobs);
  });

  it('refuses more entries than the limit', async () => {
    const archive = craftZip(
      Array.from({ length: LIMITS.maxEntries + 1 }, (_, i) => stored(`f${i}.txt`, `file ${i}`)),
    );
    const response = await explode('empty/many/a.zip', archive);
    expect(response.status).toBe(413);
    expect((await response.json()).errors[0].message).toBe(
      ARCHIVE_MESSAGES.tooManyEntries(LIMITS.maxEntries),
    );
    await expectNothingKept('empty', 0, blobCount());
  });
});
