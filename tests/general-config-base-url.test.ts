import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packTarball, publishDocument } from './helpers/npm-cli.ts';
import { adminAuth, createRepository, startTestDepot, type TestDepot } from './helpers/test-app.ts';

const GENERAL = '/ui/api/v1/ui/generalConfig';
const BASE = 'https://depot.example.com/';

let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'npm-local', 'local', { packageType: 'npm' });
  await createRepository(depot, 'libs-release', 'local', { packageType: 'maven' });
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
