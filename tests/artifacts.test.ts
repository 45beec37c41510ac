import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from './helpers/test-app.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';

let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot();
  await depot.services.repositories.create({
    key: 'generic-local',
    rclass: 'local',
    packageType: 'generic',
  });
  await depot.services.repositories.create({
    key: 'strict-local',
    rclass: 'local',
    packageType: 'generic',
    includesPattern: 'org/**',
    excludesPattern: '**/*.tmp',
  });
  await depot.services.repositories.create({
    key: 'proxy',
    rclass: 'remote',
    packageType: 'generic',
    url: 'http://127.0.0.1:9/',
  });
  await depot.services.repositories.create({
    key: 'generic',
    rclass: 'virtual',
    packageType: 'generic',
    repositories: ['generic-local'],
    defaultDeploymentRepo: 'generic-local',
  });
});
afterAll(() => depot?.close());

const sha = (kind: string, data: string | Buffer) => createHash(kind).update(data).digest('hex');
const put = (path: string, body: string, headers: Record<string, string> = {}) =>
  depot.request(`/artifactory/${path}`, { method: 'PUT', body, headers });
const get = (path: string, headers: Record<string, string> = {}) =>
  depot.request(`/artifactory/${path}`, { headers });

/** Every blob file in the filestore, and whether temp files were left behind. */
function filestoreFiles() {
  const root = join(depot.config.home, 'filestore');
  const blobs: string[] = [];
  for (const a of readdirSync(root).filter((d) => d !== '_tmp')) {
    for (const b of readdirSync(join(root, a))) blobs.push(...readdirSync(join(root, a, b)));
  }
  return { blobs, temp: readdirSync(join(root, '_tmp')) };
}

describe('deploy', () => {
  it('stores a file and answers with Artifactory JSON', async () => {
    const content = 'hello depot\n';
    const response = await put('generic-local/org/acme/tool/1.0/tool-1.0.txt', content, {
      'X-Checksum-Sha1': sha('sha1', content),
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({
      repo: 'generic-local',
      path: '/org/acme/tool/1.0/tool-1.0.txt',
      createdBy: 'admin',
      downloadUri: `${depot.base}/artifactory/generic-local/org/acme/tool/1.0/tool-1.0.txt`,
      mimeType: 'text/plain',
      size: String(content.length),
      checksums: { sha1: sha('sha1', content), sha256: sha('sha256', content) },
      originalChecksums: { sha1: sha('sha1', content) },
    });
    expect(Date.parse(body.created)).not.toBeNaN();
  });

  it('refuses a checksum mismatch with 409 and keeps nothing', async () => {
    const before = filestoreFiles();
    const response = await put('generic-local/bad.bin', 'some bytes', {
      'X-Checksum-Sha256': sha('sha256', 'other bytes'),
    });
    expect(response.status).toBe(409);
    expect((await response.json()).errors[0].message).toMatch(
      /^Checksum mismatch: the client sent SHA256/,
    );
    expect((await get('generic-local/bad.bin')).status).toBe(404);
    expect(filestoreFiles()).toEqual(before);
    expect(filestoreFiles().temp).toEqual([]);
  });

  it('verifies an MD5 the client sends', async () => {
    const wrong = await put('generic-local/m.txt', 'md5 me', {
      'X-Checksum-Md5': sha('md5', 'not me'),
    });
    expect(wrong.status).toBe(409);
    const right = await put('generic-local/m.txt', 'md5 me', {
      'X-Checksum-Md5': sha('md5', 'md5 me'),
    });
    expect(right.status).toBe(201);
    expect((await right.json()).checksums.md5).toBe(sha('md5', 'md5 me'));
  });

  it('stores the same content once, whatever its paths', async () => {
    const content = `shared content ${Date.now()}`;
    await put('generic-local/a/copy1.bin', content);
    await put('generic-local/b/copy2.bin', content);
    expect(filestoreFiles().blobs.filter((name) => name === sha('sha256', content))).toHaveLength(
      1,
    );
  });

  it('deploys by checksum alone, and answers 404 for unknown content', async () => {
    const content = 'deploy me twice';
    await put('generic-local/first.txt', content);
    const again = await put('generic-local/second.txt', '', {
      'X-Checksum-Deploy': 'true',
      'X-Checksum-Sha1': sha('sha1', content),
    });
    expect(again.status).toBe(201);
    expect(await (await get('generic-local/second.txt')).text()).toBe(content);
    const unknown = await put('generic-local/third.txt', '', {
      'X-Checksum-Deploy': 'true',
      'X-Checksum-Sha256': sha('sha256', 'never stored'),
    });
    expect(unknown.status).toBe(404);
  });

  it('sets properties from ;key=value matrix parameters', async () => {
    const response = await put(
      'generic-local/builds/app.zip;build.name=app;build.number=42;os=linux,mac',
      'zip',
    );
    expect(response.status).toBe(201);
    expect((await response.json()).path).toBe('/builds/app.zip');
    const rows = await depot.db
      .selectFrom('node_properties')
      .innerJoin('nodes', 'nodes.id', 'node_properties.node_id')
      .select(['key', 'value'])
      .where('nodes.path', '=', 'builds/app.zip')
      .orderBy('key')
      .orderBy('value')
      .execute();
    expect(rows).toEqual([
      { key: 'build.name', value: 'app' },
      { key: 'build.number', value: '42' },
      { key: 'os', value: 'linux' },
      { key: 'os', value: 'mac' },
    ]);
  });

  it('enforces include and exclude patterns', async () => {
    expect((await put('strict-local/org/x/ok.jar', 'ok')).status).toBe(201);
    const outside = await put('strict-local/com/x/no.jar', 'no');
    expect(outside.status).toBe(403);
    expect((await outside.json()).errors[0].message).toBe(
      "The path 'com/x/no.jar' is not allowed by the include and exclude patterns of repository 'strict-local'",
    );
    expect((await put('strict-local/org/x/scratch.tmp', 'no')).status).toBe(403);
  });

  it('deploys through a virtual repository to its default deployment repository', async () => {
    expect((await put('generic/via/virtual.txt', 'virtual')).status).toBe(201);
    expect(await (await get('generic-local/via/virtual.txt')).text()).toBe('virtual');
    const remote = await put('proxy/x.txt', 'x');
    expect(remote.status).toBe(400);
  });

  it('refuses a file over a folder and a folder under a file, keeping no blob', async () => {
    // A small body's path is checked by its blob's preclaim, a large one's before it is read.
    for (const body of ['file over folder', 'large '.repeat(20_000)]) {
      const before = filestoreFiles();
      const overFolder = await put('generic-local/org', body);
      expect(overFolder.status).toBe(409);
      expect(await overFolder.text()).toContain("A folder exists at 'org'");
      const underFile = await put('generic-local/org/acme/tool/1.0/tool-1.0.txt/inner', body);
      expect(underFile.status).toBe(409);
      expect(await underFile.text()).toContain("'org/acme/tool/1.0/tool-1.0.txt' is a file");
      expect(filestoreFiles()).toEqual(before);
      const rows = await depot.db
        .selectFrom('blobs')
        .select('sha256')
        .where('sha256', '=', sha('sha256', body))
        .execute();
      expect(rows).toEqual([]);
    }
  });

  it.each([
    ['a .. segment', 'generic-local/a/../../etc/passwd'],
    ['an encoded .. segment', 'generic-local/a/%2e%2e/%2e%2e/etc/passwd'],
    ['a backslash', 'generic-local/a%5C..%5Cx'],
    ['a NUL byte', 'generic-local/a%00b'],
    ['a 10,000-character path', `generic-local/${'x'.repeat(10000)}`],
  ])('refuses a path with %s (400, nothing written)', async (_case, path) => {
    const before = filestoreFiles();
    const response = await put(path, 'evil');
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(filestoreFiles()).toEqual(before);
    expect(existsSync(join(depot.config.home, 'etc'))).toBe(false);
  });

  it('keeps one whole version when 20 clients PUT different content to one path at once', async () => {
    const contents = Array.from({ length: 20 }, (_, i) => `version ${i} `.repeat(1000 + i));
    const answers = await Promise.all(
      contents.map((content) => put('generic-local/race/file.bin', content)),
    );
    expect(answers.map((a) => a.status)).toEqual(contents.map(() => 201));
    const final = await get('generic-local/race/file.bin');
    const body = await final.text();
    expect(contents).toContain(body);
    expect(final.headers.get('x-checksum-sha256')).toBe(sha('sha256', body));
    expect(final.headers.get('x-checksum-sha1')).toBe(sha('sha1', body));
  });

  it('lets only admins deploy until permission targets exist', async () => {
    await depot.services.users.create({
      name: 'reader',
      email: 'r@example.com',
      password: 'reader-pass-1',
      groups: [],
    });
    const response = await fetch(`${depot.base}/artifactory/generic-local/nope.txt`, {
      method: 'PUT',
      headers: { authorization: basic('reader', 'reader-pass-1') },
      body: 'nope',
    });
    expect(response.status).toBe(403);
  });
});

describe('download', () => {
  const path = 'generic-local/org/acme/tool/1.0/tool-1.0.txt';

  it('serves content with ETag, Last-Modified, checksums and content type', async () => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello depot\n');
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(response.headers.get('etag')).toBe(`"${sha('sha1', 'hello depot\n')}"`);
    expect(Date.parse(response.headers.get('last-modified')!)).not.toBeNaN();
    expect(response.headers.get('accept-ranges')).toBe('bytes');
  });

  it('answers HEAD with headers only', async () => {
    const response = await depot.request(`/artifactory/${path}`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('12');
    expect(await response.text()).toBe('');
  });

  it('answers If-None-Match with 304', async () => {
    const etag = (await get(path)).headers.get('etag')!;
    expect((await get(path, { 'If-None-Match': etag })).status).toBe(304);
  });

  it('serves byte ranges', async () => {
    const part = await get(path, { Range: 'bytes=6-10' });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('depot');
    expect(part.headers.get('content-range')).toBe('bytes 6-10/12');
    expect(await (await get(path, { Range: 'bytes=-3' })).text()).toBe('ot\n');
    expect((await get(path, { Range: 'bytes=50-60' })).status).toBe(416);
  });

  it('answers .sha1, .sha256 and .md5 from the stored checksums', async () => {
    expect(await (await get(`${path}.sha1`)).text()).toBe(sha('sha1', 'hello depot\n'));
    expect(await (await get(`${path}.sha256`)).text()).toBe(sha('sha256', 'hello depot\n'));
    expect(await (await get(`${path}.md5`)).text()).toBe(sha('md5', 'hello depot\n'));
    expect((await get(path)).headers.get('x-checksum-md5')).toBe(sha('md5', 'hello depot\n'));
  });

  it('answers a folder with an HTML listing', async () => {
    const response = await get('generic-local/org/acme/');
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<a href="tool/">tool/</a>');
    const root = await (await get('generic-local/')).text();
    expect(root).toContain('<a href="org/">org/</a>');
  });

  it('sandboxes active content and sends it as an attachment', async () => {
    await put('generic-local/evil.html', '<script>alert(document.cookie)</script>');
    const response = await get('generic-local/evil.html');
    expect(response.headers.get('content-security-policy')).toBe('sandbox');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('escapes names in folder listings', async () => {
    await put('generic-local/x/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E.txt', 'x');
    const html = await (await get('generic-local/x/')).text();
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;.txt');
  });

  it('answers 404 for a missing file and an unknown repository', async () => {
    expect((await get('generic-local/nothing/here.txt')).status).toBe(404);
    expect((await get('no-such-repo/file.txt')).status).toBe(404);
  });

  it('asks anonymous callers to authenticate', async () => {
    const response = await fetch(`${depot.base}/artifactory/${path}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="Depot"');
  });
});

describe('delete', () => {
  it('deletes a file, then a folder with everything below it', async () => {
    expect(
      (await depot.request('/artifactory/generic-local/a/copy1.bin', { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await get('generic-local/a/copy1.bin')).status).toBe(404);
    expect(
      (await depot.request('/artifactory/generic-local/org', { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await get('generic-local/org/acme/tool/1.0/tool-1.0.txt')).status).toBe(404);
    expect(
      (await depot.request('/artifactory/generic-local/org', { method: 'DELETE' })).status,
    ).toBe(404);
  });
});
