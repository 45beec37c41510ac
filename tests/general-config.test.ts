import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packTarball, publishDocument } from './helpers/npm-cli.ts';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  adminAuth,
  consoleSession,
  createRepository,
  deployFile,
  startTestDepot,
  TEST_ADMIN_PASSWORD,
  type TestDepot,
} from './helpers/test-app.ts';

const GENERAL = '/ui/api/v1/ui/generalConfig';
const BASE = 'https://depot.example.com/';

let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'npm-local', 'local', { packageType: 'npm' });
  await createRepository(depot, 'libs-release', 'local', { packageType: 'maven' });
  await createRepository(depot, 'docker-local', 'local', { packageType: 'docker' });
  await createRepository(depot, 'generic-local', 'local');
  const tarball = await packTarball({
    'package.json': JSON.stringify({ name: 'left-pad', version: '1.0.0' }),
  });
  const published = await depot.app.inject({
    method: 'PUT',
    url: '/artifactory/api/npm/npm-local/left-pad',
    headers: { ...adminAuth(), 'content-type': 'application/json' },
    payload: publishDocument('left-pad', '1.0.0', tarball),
  });
  expect(published.statusCode, published.body).toBeLessThan(300);
});
afterAll(() => depot?.close());

const setGeneral = (document: object) =>
  depot.app.inject({ method: 'PUT', url: GENERAL, headers: adminAuth(), payload: document });

async function tarballUrl() {
  const response = await depot.app.inject({
    url: '/artifactory/api/npm/npm-local/left-pad',
    headers: { ...adminAuth(), host: 'internal-host:8082' },
  });
  expect(response.statusCode).toBe(200);
  return response.json().versions['1.0.0'].dist.tarball as string;
}

async function mavenSettings() {
  const response = await depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/mavenSettings',
    headers: { ...adminAuth(), host: 'internal-host:8082' },
    payload: {
      release: 'libs-release',
      snapshot: 'libs-release',
      pluginRelease: 'libs-release',
      pluginSnapshot: 'libs-release',
    },
  });
  expect(response.statusCode).toBe(200);
  return response.json().settings as string;
}

describe('the general configuration base URL', () => {
  it("is the address npm tarballs and Set Me Up name, else the request's own", async () => {
    expect(await tarballUrl()).toBe(
      'http://internal-host:8082/artifactory/api/npm/npm-local/left-pad/-/left-pad-1.0.0.tgz',
    );
    expect(await mavenSettings()).toContain(
      '<url>http://internal-host:8082/artifactory/libs-release</url>',
    );

    expect((await setGeneral({ baseUrl: BASE, offlineMode: false })).statusCode).toBe(200);
    expect(await tarballUrl()).toBe(
      'https://depot.example.com/artifactory/api/npm/npm-local/left-pad/-/left-pad-1.0.0.tgz',
    );
    expect(await mavenSettings()).toContain(
      '<url>https://depot.example.com/artifactory/libs-release</url>',
    );
    const login = await depot.app.inject({
      method: 'POST',
      url: '/artifactory/api/npm/npm-local/-/v1/login',
      headers: { host: 'internal-host:8082' },
    });
    expect(login.json().loginUrl).toMatch(/^https:\/\/depot\.example\.com\/ui\/npm-login\//);

    // Emptied, each answer names its request's address again.
    expect((await setGeneral({ baseUrl: '', offlineMode: false })).statusCode).toBe(200);
    expect(await tarballUrl()).toMatch(/^http:\/\/internal-host:8082\//);
  });

  it('gives the package document a new ETag when the base URL changes its tarball URLs', async () => {
    const documentFor = (etag?: string) =>
      depot.app.inject({
        url: '/artifactory/api/npm/npm-local/left-pad',
        headers: {
          ...adminAuth(),
          host: 'internal-host:8082',
          ...(etag ? { 'if-none-match': etag } : {}),
        },
      });
    const before = await documentFor();
    const etag = before.headers.etag as string;
    expect((await documentFor(etag)).statusCode).toBe(304);

    expect((await setGeneral({ baseUrl: BASE, offlineMode: false })).statusCode).toBe(200);
    // A client revalidating its cached copy hears the new URLs, not "not modified".
    const after = await documentFor(etag);
    expect(after.statusCode).toBe(200);
    expect(after.json().versions['1.0.0'].dist.tarball).toMatch(/^https:\/\/depot\.example\.com\//);
    expect((await documentFor(after.headers.etag as string)).statusCode).toBe(304);
    expect((await setGeneral({ baseUrl: '', offlineMode: false })).statusCode).toBe(200);
  });

  it('refuses what is not an http or https address, naming the field, and keeps the old one', async () => {
    expect((await setGeneral({ baseUrl: BASE, offlineMode: false })).statusCode).toBe(200);
    for (const baseUrl of [
      'ftp://depot.example.com',
      'depot.example.com',
      'https://a b',
      'https://x/?q=1',
    ]) {
      const refused = await setGeneral({ baseUrl, offlineMode: false });
      expect(refused.statusCode, baseUrl).toBe(400);
      expect(refused.json().errors[0]).toMatchObject({
        field: 'baseUrl',
        message: 'Enter a URL starting with http:// or https://, without query or fragment',
      });
    }
    expect((await depot.app.inject({ url: GENERAL, headers: adminAuth() })).json().baseUrl).toBe(
      BASE,
    );
    expect((await setGeneral({ baseUrl: '', offlineMode: false })).statusCode).toBe(200);
  });
});

describe("the base URL in Docker's token realm", () => {
  const challenge = async () => {
    const refused = await depot.app.inject({
      url: '/v2/docker-local/app/manifests/1',
      headers: { host: 'internal-host:8082' },
    });
    expect(refused.statusCode).toBe(401);
    return refused.headers['www-authenticate'] as string;
  };

  it('names the base URL as the realm, else the address the request came to', async () => {
    expect(await challenge()).toContain('realm="http://internal-host:8082/v2/token"');
    expect((await setGeneral({ baseUrl: BASE })).statusCode).toBe(200);
    try {
      expect(await challenge()).toContain('realm="https://depot.example.com/v2/token"');
    } finally {
      await setGeneral({ baseUrl: '' });
    }
  });
});

describe('server name and custom message', () => {
  const footer = async () =>
    (await depot.app.inject({ url: '/ui/api/v1/ui/auth/screen/footer' })).json();

  it('answers the name and, when turned on, the banner to everyone, visitors too', async () => {
    expect(await footer()).toMatchObject({ serverName: 'Depot' });
    expect((await footer()).customMessage).toBeUndefined();
    const saved = await setGeneral({
      serverName: 'Build Farm',
      customMessageEnabled: true,
      customMessage: 'Maintenance on Saturday',
      customMessageColor: '#aa3300',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await footer()).toMatchObject({
      serverName: 'Build Farm',
      customMessage: { message: 'Maintenance on Saturday', color: '#aa3300' },
    });
    // Hidden again, the text is kept for next time.
    expect((await setGeneral({ customMessageEnabled: false })).statusCode).toBe(200);
    expect((await footer()).customMessage).toBeUndefined();
    expect(
      (await depot.app.inject({ url: GENERAL, headers: adminAuth() })).json().customMessage,
    ).toBe('Maintenance on Saturday');
    await setGeneral({ serverName: '' });
    expect(await footer()).toMatchObject({ serverName: 'Depot' });
  });

  it('refuses a colour that is not #rrggbb, with a plain message, and audits each change', async () => {
    const refused = await setGeneral({ customMessageColor: 'red' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({
      field: 'customMessageColor',
      message: 'Enter a colour as # and six hexadecimal digits',
    });
    const trail = await depot.services.entities.audit('general-settings');
    expect(trail.map((entry) => entry.actor)).toContain('admin');
    expect(JSON.stringify(trail)).toContain('Build Farm');
  });
});

describe("the console's file upload limit", () => {
  const MB = 1024 * 1024;
  const tmpFiles = () => readdirSync(join(depot.config.filestoreDir, '_tmp'));

  it('refuses a larger console deploy with 413, declared or chunked, and stores nothing', async () => {
    expect((await setGeneral({ fileUploadMaxSizeMb: 1 })).statusCode).toBe(200);
    const session = await consoleSession(depot, 'admin', TEST_ADMIN_PASSWORD);
    const big = Buffer.alloc(MB + 1, 1);
    try {
      const declared = await depot.app.inject({
        method: 'PUT',
        url: '/artifactory/generic-local/big/declared.bin',
        headers: session.headers,
        payload: big,
      });
      expect(declared.statusCode).toBe(413);
      expect(declared.json().errors[0].message).toBe(
        "The file is larger than the console's upload limit of 1 MB (File Upload In UI Max Size in the General Configuration)",
      );
      const chunked = await depot.app.inject({
        method: 'PUT',
        url: '/artifactory/generic-local/big/chunked.bin',
        headers: { ...session.headers, 'transfer-encoding': 'chunked' },
        payload: Readable.from([big.subarray(0, MB), big.subarray(MB)]),
      });
      expect(chunked.statusCode).toBe(413);
      for (const name of ['declared.bin', 'chunked.bin']) {
        const stored = await depot.app.inject({
          url: `/artifactory/generic-local/big/${name}`,
          headers: adminAuth(),
        });
        expect(stored.statusCode, name).toBe(404);
      }
      expect(tmpFiles()).toEqual([]);

      // At the limit it is taken; scripts and clients (basic auth, tokens) are not limited.
      const atLimit = await depot.app.inject({
        method: 'PUT',
        url: '/artifactory/generic-local/big/fits.bin',
        headers: session.headers,
        payload: big.subarray(0, MB),
      });
      expect(atLimit.statusCode, atLimit.body).toBe(201);
      await deployFile(depot, 'generic-local', 'big/scripted.bin', big);
    } finally {
      await setGeneral({ fileUploadMaxSizeMb: 100 });
    }
  });
});

describe('folder download limits', () => {
  it("apply the general configuration's limits to the next download", async () => {
    await deployFile(depot, 'generic-local', 'two/a.txt');
    await deployFile(depot, 'generic-local', 'two/b.txt');
    const download = () =>
      depot.app.inject({
        url: '/artifactory/api/archive/download/generic-local/two?archiveType=zip',
        headers: adminAuth(),
      });
    expect((await download()).statusCode).toBe(200);
    expect((await setGeneral({ folderDownloadMaxFiles: 1 })).statusCode).toBe(200);
    try {
      const refused = await download();
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors[0].message).toBe(
        "Folder 'generic-local/two' has 2 files, more than the 1 a folder download may hold",
      );
    } finally {
      await setGeneral({ folderDownloadMaxFiles: 5000 });
    }
  });
});

describe('trash can retention', () => {
  it("is the general configuration's, and the purge honours it", async () => {
    await deployFile(depot, 'generic-local', 'trash/old.txt');
    const deleted = await depot.app.inject({
      method: 'DELETE',
      url: '/artifactory/generic-local/trash/old.txt',
      headers: adminAuth(),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await setGeneral({ trashcanRetentionDays: 2 })).statusCode).toBe(200);
    const days = (n: number) => new Date(Date.now() + n * 86_400_000);
    expect(await depot.services.trash.purgeExpired(days(1))).toBe(0);
    expect(await depot.services.trash.purgeExpired(days(3))).toBe(1);
    // The trash can's own call reads and writes the same fields.
    const trashcan = await depot.app.inject({
      url: '/ui/api/v1/ui/trashcan',
      headers: adminAuth(),
    });
    expect(trashcan.json()).toEqual({ enabled: true, retentionPeriodDays: 2 });
    await setGeneral({ trashcanRetentionDays: 14 });
  });
});
