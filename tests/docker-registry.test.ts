import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { basic, changeNotificationsArrived, TEST_ADMIN_PASSWORD } from './helpers/test-app.ts';
import { DOCKER_HUB_HINT } from '../server/formats/docker/docker-hub.ts';

/**
 * The Docker/OCI registry protocol over real HTTP on loopback (docs/docker.md): what the
 * real clients do is in docker-clients.test.ts; this file holds the protocol's edges.
 */
let depot: HttpDepot;

const PERMISSIONS = '/artifactory/api/v2/security/permissions';
const as = (name: string) => ({ authorization: basic(name, `${name}-pass-1`) });
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const digestOf = (data: Buffer | string) => `sha256:${sha(data)}`;
const sha512Of = (data: Buffer | string) =>
  `sha512:${createHash('sha512').update(data).digest('hex')}`;
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

async function grant(name: string, repositories: string[], users: Record<string, string[]>) {
  const response = await depot.request(`${PERMISSIONS}/${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ repo: { repositories, actions: { users, groups: {} } } }),
  });
  expect(response.status, await response.text()).toBeLessThan(300);
}

/** Pushes a blob in one POST, as admin unless told otherwise. */
async function pushBlob(
  name: string,
  content: Buffer | string,
  headers: Record<string, string> = {},
) {
  const response = await depot.request(`/v2/${name}/blobs/uploads/?digest=${digestOf(content)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', ...headers },
    body: typeof content === 'string' ? content : new Uint8Array(content),
  });
  expect(response.status, await response.text()).toBe(201);
}

/** An OCI image manifest naming a config and layers (each pushed first by the caller). */
function imageManifest(config: string, layers: string[], extra: object = {}) {
  const descriptor = (mediaType: string, content: string) => ({
    mediaType,
    digest: digestOf(content),
    size: Buffer.byteLength(content),
  });
  return JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: descriptor('application/vnd.oci.image.config.v1+json', config),
    layers: layers.map((layer) => descriptor('application/vnd.oci.image.layer.v1.tar', layer)),
    ...extra,
  });
}

async function pushImage(
  name: string,
  tag: string,
  config: string,
  layers: string[],
  headers = {},
) {
  for (const blob of [config, ...layers]) await pushBlob(name, blob);
  const manifest = imageManifest(config, layers);
  const response = await depot.request(`/v2/${name}/manifests/${tag}`, {
    method: 'PUT',
    headers: { 'content-type': OCI_MANIFEST, ...headers },
    body: manifest,
  });
  expect(response.status, await response.text()).toBe(201);
  return { manifest, digest: digestOf(manifest) };
}

const errorCode = async (response: Response) =>
  ((await response.json()) as { errors: { code: string }[] }).errors[0].code;

beforeAll(async () => {
  depot = await startHttpDepot({ DEPOT_GC_GRACE_SECONDS: '0' });
  const { repositories, users } = depot.services;
  for (const key of ['docker-local', 'docker-secret'])
    await repositories.create({ key, rclass: 'local', packageType: 'docker' } as never);
  await repositories.create({
    key: 'docker-virtual',
    rclass: 'virtual',
    packageType: 'docker',
    repositories: ['docker-local'],
    defaultDeploymentRepo: 'docker-local',
  } as never);
  for (const name of ['reader', 'pusher', 'nobody'])
    await users.create({ name, email: `${name}@example.com`, password: `${name}-pass-1` });
  expect((await depot.request(`${PERMISSIONS}/Anything`, { method: 'DELETE' })).status).toBe(200);
  await grant('docker-readers', ['docker-local'], {
    anonymous: ['read'],
    reader: ['read'],
    pusher: ['read', 'write'],
  });
});
afterAll(() => depot?.close());

describe('version check and authentication', () => {
  it('answers /v2/ to a signed-in caller and challenges one without credentials', async () => {
    const ok = await depot.request('/v2/');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('docker-distribution-api-version')).toBe('registry/2.0');
    const anonymous = await fetch(`${depot.base}/v2/`);
    expect(anonymous.status).toBe(401);
    expect(await errorCode(anonymous)).toBe('UNAUTHORIZED');
    expect(anonymous.headers.get('www-authenticate')).toBe(
      `Bearer realm="${depot.base}/v2/token",service="${depot.base.slice(7)}"`,
    );
    const wrong = await depot.request('/v2/', {
      headers: { authorization: basic('reader', 'nope') },
    });
    expect(wrong.status).toBe(401);
  });

  it('issues tokens for exactly the requested scopes the caller may use', async () => {
    const scope = 'repository:docker-local/app:pull,push,delete';
    const token = async (headers: Record<string, string>) => {
      const response = await depot.request(
        `/v2/token?service=depot&scope=${scope}&scope=repository:docker-secret/x:pull&scope=registry:catalog:*`,
        { headers },
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as { token: string; expires_in: number };
      expect(body.expires_in).toBe(300);
      return JSON.parse(Buffer.from(body.token.split('.')[1], 'base64url').toString()).access;
    };
    expect(await token(as('reader'))).toEqual([
      { type: 'repository', name: 'docker-local/app', actions: ['pull'] },
      { type: 'repository', name: 'docker-secret/x', actions: [] },
      { type: 'registry', name: 'catalog', actions: ['*'] },
    ]);
    expect((await token(as('pusher')))[0].actions).toEqual(['pull', 'push']);
    expect((await token({}))[0].actions).toEqual(['pull', 'push', 'delete']);
    const anonymous = await fetch(`${depot.base}/v2/token?scope=${scope}`);
    expect(((await anonymous.json()) as { token: string }).token).toBeTruthy();
  });

  it('lets a token do what it grants and challenges for the rest', async () => {
    const response = await depot.request('/v2/token?scope=repository:docker-local/tok:pull', {
      headers: as('pusher'),
    });
    const { token } = (await response.json()) as { token: string };
    const bearer = { authorization: `Bearer ${token}` };
    const post = await depot.request('/v2/docker-local/tok/blobs/uploads/', {
      method: 'POST',
      headers: bearer,
    });
    expect(post.status).toBe(401);
    expect(post.headers.get('www-authenticate')).toContain(
      'scope="repository:docker-local/tok:push"',
    );
    const tags = await depot.request('/v2/docker-local/tok/tags/list', { headers: bearer });
    expect(await errorCode(tags)).toBe('NAME_UNKNOWN');
    const forged = await depot.request('/v2/docker-local/tok/tags/list', {
      headers: { authorization: `Bearer ${token.slice(0, -4)}abcd` },
    });
    expect(forged.status).toBe(401);
  });
});

describe("Docker's OAuth2 token requests", () => {
  const SCOPE = 'repository:docker-local/oauth:pull,push';
  const ask = (fields: Record<string, string>) =>
    fetch(`${depot.base}/v2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'depot-tests', service: 'depot', ...fields }),
    });
  const accessOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).access;
  const oauthError = async (response: Response) => {
    expect(response.status).toBe(400);
    return ((await response.json()) as { error: string }).error;
  };

  it('grants a password request its permitted scopes, with a refresh token when offline', async () => {
    const answer = await ask({
      grant_type: 'password',
      username: 'reader',
      password: 'reader-pass-1',
      access_type: 'offline',
      scope: SCOPE,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const body = (await answer.json()) as {
      access_token: string;
      refresh_token: string;
      scope: string;
      expires_in: number;
    };
    expect(body.scope).toBe(SCOPE);
    expect(body.expires_in).toBeGreaterThan(0);
    expect(accessOf(body.access_token)).toEqual([
      { type: 'repository', name: 'docker-local/oauth', actions: ['pull'] },
    ]);
    const tags = await fetch(`${depot.base}/v2/docker-local/oauth/tags/list`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(await errorCode(tags)).toBe('NAME_UNKNOWN');

    const refreshed = await ask({
      grant_type: 'refresh_token',
      refresh_token: body.refresh_token,
      scope: SCOPE,
    });
    expect(refreshed.status).toBe(200);
    const again = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(accessOf(again.access_token)).toEqual(accessOf(body.access_token));
    expect(again.refresh_token).toBe(body.refresh_token);
    // Neither kind of token passes for the other.
    const asRegistryToken = await fetch(`${depot.base}/v2/docker-local/oauth/tags/list`, {
      headers: { authorization: `Bearer ${body.refresh_token}` },
    });
    expect(asRegistryToken.status).toBe(401);
    expect(
      await oauthError(
        await ask({ grant_type: 'refresh_token', refresh_token: body.access_token }),
      ),
    ).toBe('invalid_grant');
  });

  it('answers no refresh token unless asked, and refuses what the specification refuses', async () => {
    const online = await ask({
      grant_type: 'password',
      username: 'pusher',
      password: 'pusher-pass-1',
      scope: SCOPE,
    });
    const body = (await online.json()) as { access_token: string; refresh_token?: string };
    expect(body.refresh_token).toBeUndefined();
    expect(accessOf(body.access_token)[0].actions).toEqual(['pull', 'push']);
    expect(
      await oauthError(
        await ask({ grant_type: 'password', username: 'pusher', password: 'wrong' }),
      ),
    ).toBe('invalid_grant');
    expect(await oauthError(await ask({ grant_type: 'authorization_code', code: 'x' }))).toBe(
      'unsupported_grant_type',
    );
    const noClient = await fetch(`${depot.base}/v2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&username=pusher&password=pusher-pass-1',
    });
    expect(await oauthError(noClient)).toBe('invalid_request');
  });

  it('refuses a refresh token of a user who was deleted since', async () => {
    await depot.services.users.create({
      name: 'leaver',
      email: 'leaver@example.com',
      password: 'leaver-pass-1',
    });
    const answer = await ask({
      grant_type: 'password',
      username: 'leaver',
      password: 'leaver-pass-1',
      access_type: 'offline',
    });
    const { refresh_token } = (await answer.json()) as { refresh_token: string };
    await depot.services.users.deleteMany(['leaver'], { name: 'admin' });
    expect(await oauthError(await ask({ grant_type: 'refresh_token', refresh_token }))).toBe(
      'invalid_grant',
    );
  });
});

describe('push and pull', () => {
  it('refuses digests of other algorithms as unsupported and malformed ones as invalid', async () => {
    const sha384 = `sha384:${createHash('sha384').update('other').digest('hex')}`;
    const push = await depot.request(`/v2/docker-local/algo/blobs/uploads/?digest=${sha384}`, {
      method: 'POST',
      body: 'other',
    });
    expect(push.status).toBe(405);
    expect(await errorCode(push)).toBe('UNSUPPORTED');
    const pull = await depot.request(`/v2/docker-local/algo/blobs/${sha384}`);
    expect(await errorCode(pull)).toBe('UNSUPPORTED');
    const manifest = await depot.request(`/v2/docker-local/algo/manifests/${sha384}`);
    expect(await errorCode(manifest)).toBe('UNSUPPORTED');
    const shortSha512 = await depot.request('/v2/docker-local/algo/blobs/sha512:abcd');
    expect(await errorCode(shortSha512)).toBe('DIGEST_INVALID');
    const malformed = await depot.request('/v2/docker-local/algo/blobs/uploads/?digest=sha256:zz', {
      method: 'POST',
      body: 'other',
    });
    expect(malformed.status).toBe(400);
    expect(await errorCode(malformed)).toBe('DIGEST_INVALID');
    const repo = await depot.services.artifacts.repository('docker-local');
    expect(await depot.services.artifacts.findNode(repo.id, 'algo')).toBeUndefined();
  });

  it('pushes an image by tag and pulls it by tag and digest, with HEAD and Range', async () => {
    const { manifest, digest } = await pushImage('docker-local/web', 'v1', '{"a":1}', [
      'layer-one',
      'layer-two',
    ]);
    const byTag = await depot.request('/v2/docker-local/web/manifests/v1');
    expect(byTag.status).toBe(200);
    expect(byTag.headers.get('content-type')).toBe(OCI_MANIFEST);
    expect(byTag.headers.get('docker-content-digest')).toBe(digest);
    expect(await byTag.text()).toBe(manifest);
    const head = await depot.request(`/v2/docker-local/web/manifests/${digest}`, {
      method: 'HEAD',
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(manifest)));
    const range = await depot.request(`/v2/docker-local/web/blobs/${digestOf('layer-two')}`, {
      headers: { range: 'bytes=2-4' },
    });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe('bytes 2-4/9');
    expect(await range.text()).toBe('yer');
    const blobHead = await depot.request(`/v2/docker-local/web/blobs/${digestOf('layer-one')}`, {
      method: 'HEAD',
    });
    expect(blobHead.headers.get('content-length')).toBe('9');
    expect(blobHead.headers.get('docker-content-digest')).toBe(digestOf('layer-one'));
  });

  it('lays the image out as Artifactory does, with its docker properties', async () => {
    const { digest } = await pushImage('docker-local/layout', '1.0', '{"b":2}', ['only-layer']);
    const listing = await depot.request('/artifactory/api/storage/docker-local/layout/1.0?list');
    const files = ((await listing.json()) as { files: { uri: string }[] }).files
      .map((f) => f.uri)
      .sort();
    expect(files).toEqual(
      ['/manifest.json', `/sha256__${sha('{"b":2}')}`, `/sha256__${sha('only-layer')}`].sort(),
    );
    const props = await depot.request(
      '/artifactory/api/storage/docker-local/layout/1.0/manifest.json?properties',
    );
    const { properties } = (await props.json()) as { properties: Record<string, string[]> };
    expect(properties['docker.repoName']).toEqual(['layout']);
    expect(properties['docker.manifest']).toEqual(['1.0']);
    expect(properties['docker.manifest.digest']).toEqual([digest]);
    const uploads = await depot.request(
      '/artifactory/api/storage/docker-local/layout/_uploads?list',
    );
    expect(((await uploads.json()) as { files?: unknown[] }).files ?? []).toEqual([]);
  });

  it('pushes in chunks, resumes after a dropped connection, and reports and cancels uploads', async () => {
    const content = Buffer.from('0123456789abcdefghij');
    const start = await depot.request('/v2/docker-local/chunky/blobs/uploads/', { method: 'POST' });
    expect(start.status).toBe(202);
    const location = start.headers.get('location')!;
    expect(start.headers.get('docker-upload-uuid')).toBeTruthy();
    const first = await depot.request(location, {
      method: 'PATCH',
      headers: { 'content-range': '0-7', 'content-type': 'application/octet-stream' },
      body: new Uint8Array(content.subarray(0, 8)),
    });
    expect(first.status).toBe(202);
    expect(first.headers.get('range')).toBe('0-7');
    // A chunk whose connection drops part way: what arrived stays, the status says how much.
    const aborter = new AbortController();
    const dropped = new ReadableStream({
      start(controller) {
        controller.enqueue(content.subarray(8, 12));
      },
      pull() {
        return new Promise((resolve) => setTimeout(resolve, 50)).then(() => aborter.abort());
      },
    });
    await depot.request(location, { method: 'PATCH', body: dropped, signal: aborter.signal }).then(
      () => undefined,
      () => undefined,
    );
    // The server takes the dropped request's bytes in its own time: poll (a generous deadline,
    // since a loaded CI machine once needed more than 5 s; the figure is not what is tested).
    let status = await depot.request(location);
    for (
      const deadline = Date.now() + 30000;
      status.headers.get('range') !== '0-11' && Date.now() < deadline;
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await depot.request(location);
    }
    expect(status.status).toBe(204);
    expect(status.headers.get('range')).toBe('0-11');
    const wrongStart = await depot.request(location, {
      method: 'PATCH',
      headers: { 'content-range': '4-9' },
      body: new Uint8Array(content.subarray(4, 10)),
    });
    expect(wrongStart.status).toBe(416);
    expect(await errorCode(wrongStart)).toBe('BLOB_UPLOAD_INVALID');
    const rest = await depot.request(`${location}?digest=${digestOf(content)}`, {
      method: 'PUT',
      headers: { 'content-range': '12-19' },
      body: new Uint8Array(content.subarray(12)),
    });
    expect(rest.status, await rest.text()).toBe(201);
    expect(rest.headers.get('docker-content-digest')).toBe(digestOf(content));
    const pulled = await depot.request(`/v2/docker-local/chunky/blobs/${digestOf(content)}`);
    expect(await pulled.text()).toBe(content.toString());
    const gone = await depot.request(location);
    expect(await errorCode(gone)).toBe('BLOB_UPLOAD_UNKNOWN');

    const cancelled = await depot.request('/v2/docker-local/chunky/blobs/uploads/', {
      method: 'POST',
    });
    const cancelAt = cancelled.headers.get('location')!;
    expect((await depot.request(cancelAt, { method: 'DELETE' })).status).toBe(204);
    expect((await depot.request(cancelAt)).status).toBe(404);
  });

  it('refuses a wrong digest with DIGEST_INVALID and keeps nothing', async () => {
    const before = readdirSync(join(depot.config.filestoreDir, '_uploads')).length;
    const monolithic = await depot.request(
      `/v2/docker-local/bad/blobs/uploads/?digest=${digestOf('other')}`,
      {
        method: 'POST',
        body: 'the content',
      },
    );
    expect(monolithic.status).toBe(400);
    expect(await errorCode(monolithic)).toBe('DIGEST_INVALID');
    const start = await depot.request('/v2/docker-local/bad/blobs/uploads/', { method: 'POST' });
    const location = start.headers.get('location')!;
    await depot.request(location, { method: 'PATCH', body: 'chunked content' });
    const finish = await depot.request(`${location}?digest=${digestOf('other')}`, {
      method: 'PUT',
    });
    expect(await errorCode(finish)).toBe('DIGEST_INVALID');
    expect(existsSync(depot.services.filestore.pathOf(sha('the content')))).toBe(false);
    expect(existsSync(depot.services.filestore.pathOf(sha('chunked content')))).toBe(false);
    expect(readdirSync(join(depot.config.filestoreDir, '_uploads')).length).toBe(before);
    const head = await depot.request(`/v2/docker-local/bad/blobs/${digestOf('the content')}`, {
      method: 'HEAD',
    });
    expect(head.status).toBe(404);
    const wrongManifest = await depot.request(`/v2/docker-local/bad/manifests/${digestOf('x')}`, {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST },
      body: imageManifest('{}', []),
    });
    expect(await errorCode(wrongManifest)).toBe('DIGEST_INVALID');
  });

  it('refuses a manifest naming a blob the image does not hold', async () => {
    await pushBlob('docker-local/missing', '{"c":3}');
    const response = await depot.request('/v2/docker-local/missing/manifests/v1', {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST },
      body: imageManifest('{"c":3}', ['never-pushed']),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { code: string; detail: unknown }[] };
    expect(body.errors[0]).toMatchObject({
      code: 'MANIFEST_BLOB_UNKNOWN',
      detail: { digest: digestOf('never-pushed') },
    });
    expect((await depot.request('/v2/docker-local/missing/manifests/v1')).status).toBe(404);
    const invalid = await depot.request('/v2/docker-local/missing/manifests/v2', {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST },
      body: '{"schemaVersion": 2, "config": 5}',
    });
    expect(await errorCode(invalid)).toBe('MANIFEST_INVALID');
  });

  it('mounts a blob from another repository the caller may read', async () => {
    await pushBlob('docker-local/source', 'shared-layer');
    const mount = await depot.request(
      `/v2/docker-local/target/blobs/uploads/?mount=${digestOf('shared-layer')}&from=docker-local/source`,
      { method: 'POST' },
    );
    expect(mount.status).toBe(201);
    expect(mount.headers.get('location')).toBe(
      `/v2/docker-local/target/blobs/${digestOf('shared-layer')}`,
    );
    expect(
      (await depot.request(`/v2/docker-local/target/blobs/${digestOf('shared-layer')}`)).status,
    ).toBe(200);
    // Not readable there: a plain upload starts instead.
    await pushBlob('docker-secret/hidden', 'secret-layer');
    const refused = await depot.request(
      `/v2/docker-local/target/blobs/uploads/?mount=${digestOf('secret-layer')}&from=docker-secret/hidden`,
      { method: 'POST', headers: as('pusher') },
    );
    expect(refused.status).toBe(202);
  });
});

describe('sha512 digests', () => {
  const LAYER = 'a layer named by sha512';
  const CHUNKED = Buffer.from('another sha512 layer, pushed in chunks');

  it('takes blobs under sha512 digests, monolithic, chunked and mounted, and serves them by it', async () => {
    const monolithic = await depot.request(
      `/v2/docker-local/long/blobs/uploads/?digest=${sha512Of(LAYER)}`,
      { method: 'POST', body: LAYER },
    );
    expect(monolithic.status, await monolithic.text()).toBe(201);
    expect(monolithic.headers.get('location')).toBe(
      `/v2/docker-local/long/blobs/${sha512Of(LAYER)}`,
    );
    expect(monolithic.headers.get('docker-content-digest')).toBe(sha512Of(LAYER));
    const pulled = await depot.request(`/v2/docker-local/long/blobs/${sha512Of(LAYER)}`);
    expect(pulled.status).toBe(200);
    expect(pulled.headers.get('docker-content-digest')).toBe(sha512Of(LAYER));
    expect(await pulled.text()).toBe(LAYER);
    // One content, one filestore blob: its sha256 names it too.
    const bySha256 = await depot.request(`/v2/docker-local/long/blobs/${digestOf(LAYER)}`, {
      method: 'HEAD',
    });
    expect(bySha256.headers.get('docker-content-digest')).toBe(digestOf(LAYER));

    const start = await depot.request('/v2/docker-local/long/blobs/uploads/', { method: 'POST' });
    const location = start.headers.get('location')!;
    await depot.request(location, {
      method: 'PATCH',
      body: new Uint8Array(CHUNKED.subarray(0, 9)),
    });
    const finish = await depot.request(`${location}?digest=${sha512Of(CHUNKED)}`, {
      method: 'PUT',
      body: new Uint8Array(CHUNKED.subarray(9)),
    });
    expect(finish.status, await finish.text()).toBe(201);
    const chunked = await depot.request(`/v2/docker-local/long/blobs/${sha512Of(CHUNKED)}`);
    expect(Buffer.from(await chunked.arrayBuffer()).equals(CHUNKED)).toBe(true);

    const mount = await depot.request(
      `/v2/docker-local/long-copy/blobs/uploads/?mount=${sha512Of(LAYER)}&from=docker-local/long`,
      { method: 'POST' },
    );
    expect(mount.status).toBe(201);
    const mounted = await depot.request(`/v2/docker-local/long-copy/blobs/${sha512Of(LAYER)}`);
    expect(await mounted.text()).toBe(LAYER);
    // Content never pushed under a sha512 digest is not known by one.
    const unknown = await depot.request(`/v2/docker-local/long/blobs/${sha512Of('never')}`);
    expect(unknown.status).toBe(404);
    expect(await errorCode(unknown)).toBe('BLOB_UNKNOWN');
  });

  it('stores manifests naming sha512 blobs, pushed by a sha512 digest, and serves them by it', async () => {
    const config = '{"sha512":true}';
    await pushBlob('docker-local/long', config);
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: digestOf(config),
        size: config.length,
      },
      layers: [
        {
          mediaType: 'application/vnd.oci.image.layer.v1.tar',
          digest: sha512Of(LAYER),
          size: LAYER.length,
        },
      ],
    });
    const pushed = await depot.request(`/v2/docker-local/long/manifests/${sha512Of(manifest)}`, {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST },
      body: manifest,
    });
    expect(pushed.status, await pushed.text()).toBe(201);
    expect(pushed.headers.get('docker-content-digest')).toBe(sha512Of(manifest));
    const byDigest = await depot.request(`/v2/docker-local/long/manifests/${sha512Of(manifest)}`);
    expect(byDigest.status).toBe(200);
    expect(byDigest.headers.get('docker-content-digest')).toBe(sha512Of(manifest));
    expect(await byDigest.text()).toBe(manifest);
    const tagged = await depot.request('/v2/docker-local/long/manifests/v1', {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST },
      body: manifest,
    });
    expect(tagged.status).toBe(201);
    const listing = await depot.request('/artifactory/api/storage/docker-local/long/v1?list');
    const files = ((await listing.json()) as { files: { uri: string }[] }).files.map((f) => f.uri);
    expect(files).toContain(`/sha256__${sha(LAYER)}`);

    const deleted = await depot.request(`/v2/docker-local/long/manifests/${sha512Of(manifest)}`, {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(202);
    const gone = await depot.request('/v2/docker-local/long/manifests/v1');
    expect(await errorCode(gone)).toBe('MANIFEST_UNKNOWN');
  });

  it('refuses content that does not have its sha512 digest, keeping nothing', async () => {
    const before = readdirSync(join(depot.config.filestoreDir, '_uploads')).length;
    const monolithic = await depot.request(
      `/v2/docker-local/long-bad/blobs/uploads/?digest=${sha512Of('other')}`,
      { method: 'POST', body: 'sha512 mismatch' },
    );
    expect(monolithic.status).toBe(400);
    expect(await errorCode(monolithic)).toBe('DIGEST_INVALID');
    const start = await depot.request('/v2/docker-local/long-bad/blobs/uploads/', {
      method: 'POST',
    });
    const location = start.headers.get('location')!;
    await depot.request(location, { method: 'PATCH', body: 'chunked sha512 mismatch' });
    const finish = await depot.request(`${location}?digest=${sha512Of('other')}`, {
      method: 'PUT',
    });
    expect(await errorCode(finish)).toBe('DIGEST_INVALID');
    expect((await depot.request(location)).status).toBe(404);
    for (const content of ['sha512 mismatch', 'chunked sha512 mismatch'])
      expect(existsSync(depot.services.filestore.pathOf(sha(content)))).toBe(false);
    expect(readdirSync(join(depot.config.filestoreDir, '_uploads')).length).toBe(before);
    const manifest = imageManifest('{}', []);
    const wrongManifest = await depot.request(
      `/v2/docker-local/long-bad/manifests/${sha512Of('x')}`,
      { method: 'PUT', headers: { 'content-type': OCI_MANIFEST }, body: manifest },
    );
    expect(await errorCode(wrongManifest)).toBe('DIGEST_INVALID');
    const naming = await depot.request('/v2/docker-local/long-bad/manifests/v1', {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST },
      body: JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        config: { mediaType: 'application/json', digest: sha512Of('nothing'), size: 7 },
        layers: [],
      }),
    });
    expect(await errorCode(naming)).toBe('MANIFEST_BLOB_UNKNOWN');
    const repo = await depot.services.artifacts.repository('docker-local');
    expect(await depot.services.artifacts.findNode(repo.id, 'long-bad')).toBeUndefined();
  });
});

describe('tags, catalog, deletes and referrers', () => {
  it('lists tags with n and last', async () => {
    for (const tag of ['a', 'b', 'c'])
      await pushImage('docker-local/tagged', tag, '{"t":1}', ['t-layer']);
    const page = await depot.request('/v2/docker-local/tagged/tags/list?n=2');
    expect(await page.json()).toEqual({ name: 'docker-local/tagged', tags: ['a', 'b'] });
    expect(page.headers.get('link')).toBe(
      '</v2/docker-local/tagged/tags/list?n=2&last=b>; rel="next"',
    );
    const next = await depot.request('/v2/docker-local/tagged/tags/list?n=2&last=b');
    expect(await next.json()).toEqual({ name: 'docker-local/tagged', tags: ['c'] });
  });

  it('filters the catalog by what the caller may read', async () => {
    await pushImage('docker-secret/private', 'v1', '{"s":1}', ['s-layer']);
    const names = async (headers: Record<string, string>) =>
      (
        (await (await depot.request('/v2/_catalog', { headers })).json()) as {
          repositories: string[];
        }
      ).repositories;
    const admin = await names({});
    expect(admin).toContain('docker-secret/private');
    expect(admin).toContain('docker-local/tagged');
    const reader = await names(as('reader'));
    expect(reader).toContain('docker-local/tagged');
    expect(reader).toContain('docker-virtual/tagged');
    expect(reader.some((name) => name.startsWith('docker-secret/'))).toBe(false);
    expect(await names(as('nobody'))).toEqual([]);
  });

  it('refuses DENIED to a signed-in user without read, and challenges anonymous callers', async () => {
    const denied = await depot.request('/v2/docker-local/tagged/manifests/a', {
      headers: as('nobody'),
    });
    expect(denied.status).toBe(403);
    expect(await errorCode(denied)).toBe('DENIED');
    const anonymous = await fetch(`${depot.base}/v2/docker-local/tagged/manifests/a`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain(
      'scope="repository:docker-local/tagged:pull"',
    );
    const noPush = await depot.request('/v2/docker-local/tagged/blobs/uploads/', {
      method: 'POST',
      headers: as('reader'),
    });
    expect(await errorCode(noPush)).toBe('DENIED');
  });

  it('allows anonymous pulls when anonymous access is on', async () => {
    await depot.services.securityConfig.update({ anonAccessEnabled: true });
    try {
      const token = await fetch(
        `${depot.base}/v2/token?scope=repository:docker-local/tagged:pull,push`,
      );
      const { access_token } = (await token.json()) as { access_token: string };
      const pulled = await fetch(`${depot.base}/v2/docker-local/tagged/manifests/a`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(pulled.status).toBe(200);
      const push = await fetch(`${depot.base}/v2/docker-local/tagged/blobs/uploads/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(push.status).toBe(401);
    } finally {
      await depot.services.securityConfig.update({ anonAccessEnabled: false });
    }
  });

  it('refuses a tag overwrite without delete permission, and allows an identical push', async () => {
    await pushImage('docker-local/guarded', 'v1', '{"g":1}', ['g-layer']);
    await pushBlob('docker-local/guarded', '{"g":2}', as('pusher'));
    const same = await depot.request('/v2/docker-local/guarded/manifests/v1', {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST, ...as('pusher') },
      body: imageManifest('{"g":1}', ['g-layer']),
    });
    expect(same.status).toBe(201);
    const over = await depot.request('/v2/docker-local/guarded/manifests/v1', {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST, ...as('pusher') },
      body: imageManifest('{"g":2}', ['g-layer']),
    });
    expect(over.status).toBe(403);
    expect(await errorCode(over)).toBe('DENIED');
    const fresh = await depot.request('/v2/docker-local/guarded/manifests/v2', {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST, ...as('pusher') },
      body: imageManifest('{"g":2}', ['g-layer']),
    });
    expect(fresh.status).toBe(201);
    const kept = await depot.request('/v2/docker-local/guarded/manifests/v1');
    expect(kept.headers.get('docker-content-digest')).toBe(
      digestOf(imageManifest('{"g":1}', ['g-layer'])),
    );
  });

  it('deletes a tag, then a manifest by digest', async () => {
    const { digest } = await pushImage('docker-local/doomed', 'one', '{"d":1}', ['d-layer']);
    await pushImage('docker-local/doomed', 'two', '{"d":1}', ['d-layer']);
    const noDelete = await depot.request('/v2/docker-local/doomed/manifests/one', {
      method: 'DELETE',
      headers: as('pusher'),
    });
    expect(noDelete.status).toBe(403);
    expect(
      (await depot.request('/v2/docker-local/doomed/manifests/one', { method: 'DELETE' })).status,
    ).toBe(202);
    expect((await depot.request('/v2/docker-local/doomed/manifests/one')).status).toBe(404);
    expect((await depot.request(`/v2/docker-local/doomed/manifests/${digest}`)).status).toBe(200);
    expect(
      (await depot.request(`/v2/docker-local/doomed/manifests/${digest}`, { method: 'DELETE' }))
        .status,
    ).toBe(202);
    const gone = await depot.request('/v2/docker-local/doomed/manifests/two');
    expect(await errorCode(gone)).toBe('MANIFEST_UNKNOWN');
  });

  it('deletes a pushed blob no manifest holds, with Delete, and refuses one a manifest names', async () => {
    const loose = 'a layer no manifest names';
    await pushBlob('docker-local/blobby', loose);
    const at = `/v2/docker-local/blobby/blobs/${digestOf(loose)}`;
    const noDelete = await depot.request(at, { method: 'DELETE', headers: as('pusher') });
    expect([noDelete.status, await errorCode(noDelete)]).toEqual([403, 'DENIED']);
    expect((await depot.request(at)).status).toBe(200);
    const deleted = await depot.request(at, { method: 'DELETE' });
    expect(deleted.status, await deleted.text()).toBe(202);
    expect(await errorCode(await depot.request(at))).toBe('BLOB_UNKNOWN');
    const again = await depot.request(at, { method: 'DELETE' });
    expect([again.status, await errorCode(again)]).toEqual([404, 'BLOB_UNKNOWN']);

    const { digest } = await pushImage('docker-local/blobby', 'v1', '{"b":1}', ['b-layer']);
    const layerAt = `/v2/docker-local/blobby/blobs/${digestOf('b-layer')}`;
    const held = await depot.request(layerAt, { method: 'DELETE' });
    expect(held.status).toBe(405);
    const { errors } = (await held.json()) as { errors: { code: string; message: string }[] };
    expect(errors[0]).toMatchObject({ code: 'UNSUPPORTED' });
    expect(errors[0]!.message).toContain('blobby/v1');
    expect((await depot.request(layerAt)).status).toBe(200);
    expect((await depot.request(`/v2/docker-local/blobby/manifests/${digest}`)).status).toBe(200);
  });

  it('tells whether a tag exists only to a caller who may read the image', async () => {
    await pushImage('docker-secret/hidden', 'v1', '{"h":1}', ['h-layer']);
    const statusOf = async (tag: string) => {
      const answer = await depot.request(`/v2/docker-secret/hidden/manifests/${tag}`, {
        method: 'DELETE',
        headers: as('nobody'),
      });
      return [answer.status, await errorCode(answer)];
    };
    expect(await statusOf('v1')).toEqual([403, 'DENIED']);
    expect(await statusOf('no-such-tag')).toEqual([403, 'DENIED']);
    expect((await depot.request('/v2/docker-secret/hidden/manifests/v1')).status).toBe(200);
  });

  it('answers repeated manifest HEADs and GETs before the full route as it does, never past a change', async () => {
    const first = await pushImage('docker-local/fast', 'v1', '{"f":1}', ['f-layer']);
    const issued = await depot.request(`/v2/token?scope=repository:docker-local/fast:pull`, {
      headers: as('reader'),
    });
    const { token } = (await issued.json()) as { token: string };
    const bearer = { authorization: `Bearer ${token}` };
    const fastPath = depot.manifestFastPath;
    const call = async (path: string, init: RequestInit = {}, headers: object = bearer) => {
      const before = fastPath.served;
      const response = await fetch(`${depot.base}${path}`, { ...init, headers: { ...headers } });
      return {
        status: response.status,
        fast: fastPath.served > before,
        headers: [...response.headers].filter(([name]) => name !== 'date' && name !== 'connection'),
        digest: response.headers.get('docker-content-digest'),
        body: await response.text(),
      };
    };
    const head = (tag: string, headers?: object) =>
      call(`/v2/docker-local/fast/manifests/${tag}`, { method: 'HEAD' }, headers);
    // The full route fills the caches the fast path peeks at; the repository row lives 5 s
    // there, so each full call starts from emptied caches: on a loaded machine a row kept
    // since the push could expire just between the two calls. On PostgreSQL the push's own
    // change notifications are let in first, or one arriving late would empty them again.
    const emptyCaches = async () => {
      await changeNotificationsArrived(depot);
      depot.services.tableChanges.changedAll();
    };

    await emptyCaches();
    const full = await head('v1');
    const fast = await head('v1');
    expect([full.status, full.fast, fast.status, fast.fast]).toEqual([200, false, 200, true]);
    expect(fast.headers).toEqual(full.headers);
    expect(fast.digest).toBe(first.digest);
    await emptyCaches();
    const byDigest = await call(`/v2/docker-local/fast/manifests/${first.digest}`);
    const again = await call(`/v2/docker-local/fast/manifests/${first.digest}`);
    expect([byDigest.fast, again.fast, again.body]).toEqual([false, true, first.manifest]);
    expect(again.headers).toEqual(byDigest.headers);
    // Basic credentials proved moments ago by the full route go the fast way too.
    await emptyCaches();
    await head('v1', as('reader'));
    expect((await head('v1', as('reader'))).fast).toBe(true);

    // A tag moved: the next HEAD names the new manifest.
    const moved = await pushImage('docker-local/fast', 'v1', '{"f":2}', ['f-layer']);
    await head('v1');
    expect((await head('v1')).digest).toBe(moved.digest);
    // A token for another image, and a caller whose read was taken away, are refused.
    const other = await depot.request(`/v2/token?scope=repository:docker-local/elsewhere:pull`, {
      headers: as('reader'),
    });
    const otherToken = ((await other.json()) as { token: string }).token;
    const wrongScope = await head('v1', { authorization: `Bearer ${otherToken}` });
    expect([wrongScope.status, wrongScope.fast]).toEqual([401, false]);
    await grant('docker-readers', ['docker-local'], {
      anonymous: ['read'],
      pusher: ['read', 'write'],
    });
    try {
      const refused = await head('v1');
      expect([refused.status, refused.fast]).toEqual([403, false]);
    } finally {
      await grant('docker-readers', ['docker-local'], {
        anonymous: ['read'],
        reader: ['read'],
        pusher: ['read', 'write'],
      });
    }
  });

  it('lists the referrers of a manifest, filtered by artifact type', async () => {
    const { digest } = await pushImage('docker-local/signed', 'v1', '{"i":1}', ['i-layer']);
    const subject = {
      mediaType: OCI_MANIFEST,
      digest,
      size: Buffer.byteLength(imageManifest('{"i":1}', ['i-layer'])),
    };
    await pushBlob('docker-local/signed', '{}');
    await pushBlob('docker-local/signed', 'signature-bytes');
    const signature = JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      artifactType: 'application/vnd.example.signature',
      config: { mediaType: 'application/vnd.oci.empty.v1+json', digest: digestOf('{}'), size: 2 },
      layers: [
        { mediaType: 'application/octet-stream', digest: digestOf('signature-bytes'), size: 15 },
      ],
      subject,
      annotations: { 'org.example.signer': 'ci' },
    });
    const put = await depot.request(`/v2/docker-local/signed/manifests/${digestOf(signature)}`, {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST },
      body: signature,
    });
    expect(put.status).toBe(201);
    expect(put.headers.get('oci-subject')).toBe(digest);
    const referrers = await depot.request(`/v2/docker-local/signed/referrers/${digest}`);
    expect(referrers.headers.get('content-type')).toBe('application/vnd.oci.image.index.v1+json');
    expect(await referrers.json()).toEqual({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [
        {
          mediaType: OCI_MANIFEST,
          digest: digestOf(signature),
          size: Buffer.byteLength(signature),
          artifactType: 'application/vnd.example.signature',
          annotations: { 'org.example.signer': 'ci' },
        },
      ],
    });
    const filtered = await depot.request(
      `/v2/docker-local/signed/referrers/${digest}?artifactType=application/other`,
    );
    expect(filtered.headers.get('oci-filters-applied')).toBe('artifactType');
    expect(((await filtered.json()) as { manifests: unknown[] }).manifests).toEqual([]);
  });

  it("pages a remote's tags as its upstream pages them, with what its cache holds", async () => {
    // The upstream is this Depot's docker-local, which pages tags lists itself.
    for (const tag of ['a', 'b', 'c', 'd', 'e'])
      await pushImage('docker-local/team/paged', tag, '{"paged":1}', ['paged-layer']);
    await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
    await depot.services.repositories.create({
      key: 'docker-mirror',
      rclass: 'remote',
      packageType: 'docker',
      url: `${depot.base}/artifactory/api/docker/docker-local`,
      username: 'admin',
      password: TEST_ADMIN_PASSWORD,
    } as never);
    expect((await depot.request('/v2/docker-mirror/team/paged/manifests/e')).status).toBe(200);
    // Gone upstream, still in the cache: listed.
    const deleted = await depot.request('/v2/docker-local/team/paged/manifests/e', {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(202);
    const pages: string[][] = [];
    for (let next: string | undefined = '/v2/docker-mirror/team/paged/tags/list?n=2'; next;) {
      const response = await depot.request(next);
      expect(response.status).toBe(200);
      pages.push(((await response.json()) as { tags: string[] }).tags);
      next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1];
      expect(pages.length).toBeLessThan(5);
    }
    expect(pages).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    const whole = await depot.request('/v2/docker-mirror/team/paged/tags/list');
    expect(((await whole.json()) as { tags: string[] }).tags).toEqual(['a', 'b', 'c', 'd', 'e']);
    const catalog = await depot.request('/artifactory/api/docker/docker-mirror/v2/_catalog');
    expect(((await catalog.json()) as { repositories: string[] }).repositories).toContain(
      'team/paged',
    );
  });
});

describe('a layer shared by images', () => {
  it('is stored once, counted once in the binaries and in a project quota', async () => {
    const shared = 'a shared base layer '.repeat(3000); // 60 000 bytes
    await depot.services.projects.create({
      project_key: 'imgs',
      display_name: 'Images',
      // The shared layer once, the rest with room to spare; the layer twice would not fit.
      storage_quota_bytes: 60_000 + 8_000,
    });
    await depot.services.repositories.create({
      key: 'imgs-docker',
      rclass: 'local',
      packageType: 'docker',
      projectKey: 'imgs',
    } as never);
    const summary = async () =>
      (
        (await (await depot.request('/artifactory/api/storageinfo')).json()) as {
          binariesSummary: { binariesCount: string; artifactsCount: string };
        }
      ).binariesSummary;
    const before = await summary();
    const first = await pushImage('imgs-docker/one', '1', '{"one":1}', [shared, 'layer one']);
    const second = await pushImage('imgs-docker/two', '1', '{"two":2}', [shared, 'layer two']);
    const after = await summary();
    const count = (text: string) => Number(text.replace(/,/g, ''));
    // Seven contents: the shared layer, two own layers, two configs, two manifests.
    expect(count(after.binariesCount) - count(before.binariesCount)).toBe(7);
    const repo = await depot.services.artifacts.repository('imgs-docker');
    const files = await sql<{
      path: string;
    }>`select path from nodes where repository_id = ${repo.id}
      and sha256 = ${sha(shared)} order by path`.execute(depot.services.db);
    expect(files.rows.map((row) => row.path)).toEqual([
      'one/1/' + 'sha256__' + sha(shared),
      'two/1/' + 'sha256__' + sha(shared),
    ]);
    expect(first.digest).not.toBe(second.digest);
    const storage = await depot.services.projects.storage('imgs');
    // Each content once: the project stores what the filestore holds for it.
    const contents = [shared, 'layer one', 'layer two', '{"one":1}', '{"two":2}'];
    const stored =
      contents.reduce((sum, content) => sum + Buffer.byteLength(content), 0) +
      Buffer.byteLength(first.manifest) +
      Buffer.byteLength(second.manifest);
    expect(storage.usedBytes).toBe(stored);
    // Its files, each counted, hold the shared layer twice (each image's tag folder).
    expect(storage.repositories[0]!.usedSpace).toBe(stored + 60_000);
    // A third image on the same layer still fits; a new layer of 8 000 bytes does not.
    await pushImage('imgs-docker/three', '1', '{"three":3}', [shared]);
    const over = await depot.request(
      `/v2/imgs-docker/four/blobs/uploads/?digest=${digestOf('x'.repeat(8000))}`,
      { method: 'POST', body: 'x'.repeat(8000) },
    );
    expect(over.status).toBe(413);
  });
});

describe('pulls of a layer through a remote, arriving while it downloads', () => {
  it('read the layer from the upstream once', async () => {
    const layer = Buffer.alloc(256 * 1024, 7);
    const digest = digestOf(layer);
    let gets = 0;
    // An upstream that sends the layer in a few pieces, so that pulls keep arriving during
    // the download and just as it is recorded.
    const upstream = createServer((request, response) => {
      if (request.url !== `/v2/library/shared/blobs/${digest}`)
        return response.writeHead(404).end();
      gets += 1;
      response.writeHead(200, { 'content-length': String(layer.length) });
      let sent = 0;
      const piece = () => {
        const next = layer.subarray(sent, sent + 64 * 1024);
        sent += next.length;
        if (sent >= layer.length) return response.end(next);
        response.write(next);
        setTimeout(piece, 10);
      };
      piece();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
      await depot.services.repositories.create({
        key: 'docker-single-flight',
        rclass: 'remote',
        packageType: 'docker',
        url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      } as never);
      // Pulls a few milliseconds apart, from before the download starts to after it ends.
      const pulls = [];
      for (let i = 0; i < 40; i++) {
        pulls.push(
          depot
            .request(`/v2/docker-single-flight/shared/blobs/${digest}`)
            .then(async (answer) => [answer.status, (await answer.arrayBuffer()).byteLength]),
        );
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      for (const pulled of await Promise.all(pulls)) expect(pulled).toEqual([200, layer.length]);
      expect(gets).toBe(1);
    } finally {
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});

describe('an upstream that limits pulls', () => {
  it('answers TOOMANYREQUESTS with the upstream Retry-After, and caches nothing', async () => {
    // A registry refusing every pull, as public registries do past their anonymous limit.
    const limited = createServer((_request, response) => {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '17' });
      response.end('{"errors":[{"code":"TOOMANYREQUESTS","message":"pull rate limit"}]}');
    });
    await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
    try {
      await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
      await depot.services.repositories.create({
        key: 'docker-limited',
        rclass: 'remote',
        packageType: 'docker',
        url: `http://127.0.0.1:${(limited.address() as AddressInfo).port}`,
      } as never);
      for (const path of ['manifests/1', `blobs/${digestOf('a layer')}`]) {
        const refused = await depot.request(`/v2/docker-limited/alpine/${path}`);
        expect(refused.status, path).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('17');
        const { errors } = (await refused.json()) as {
          errors: { code: string; message: string }[];
        };
        expect(errors[0]!.code).toBe('TOOMANYREQUESTS');
        expect(errors[0]!.message).toContain(
          `the upstream refused /v2/library/alpine/${path} with 429 Too Many Requests`,
        );
        // pulled anonymously: the hint says what to do
        expect(errors[0]!.message).toContain(DOCKER_HUB_HINT);
      }
      const repo = await depot.services.artifacts.repository('docker-limited');
      expect(
        await depot.services.artifacts.findNode(repo.id, 'alpine/1/manifest.json'),
      ).toBeFalsy();
    } finally {
      await new Promise((resolve) => limited.close(resolve));
    }
  });
});

describe('addresses and virtual repositories', () => {
  it('answers at /artifactory/api/docker/<repoKey>/v2/ with names inside the repository', async () => {
    const prefix = '/artifactory/api/docker/docker-local/v2';
    const tags = await depot.request(`${prefix}/tagged/tags/list`);
    expect(await tags.json()).toEqual({ name: 'tagged', tags: ['a', 'b', 'c'] });
    const anonymous = await fetch(`${depot.base}${prefix}/tagged/tags/list`);
    expect(anonymous.headers.get('www-authenticate')).toContain(
      `realm="${depot.base}${prefix}/token"`,
    );
    expect(anonymous.headers.get('www-authenticate')).toContain('scope="repository:tagged:pull"');
    const catalog = await depot.request(`${prefix}/_catalog`);
    const { repositories } = (await catalog.json()) as { repositories: string[] };
    expect(repositories).toContain('tagged');
    expect(repositories.every((name) => !name.startsWith('docker-local/'))).toBe(true);
  });

  it('pulls through a virtual repository and pushes to its deployment repository', async () => {
    const pulled = await depot.request('/v2/docker-virtual/tagged/manifests/a', {
      headers: as('reader'),
    });
    expect(pulled.status).toBe(200);
    await pushImage('docker-virtual/via-virtual', 'v1', '{"v":1}', ['v-layer']);
    expect((await depot.request('/v2/docker-local/via-virtual/manifests/v1')).status).toBe(200);
  });
});

/** Polls PostgreSQL until some session waits for a row lock (a deadline, not a sleep). */
async function untilSomeoneWaitsOnALock() {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
    const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting
      from pg_stat_activity where wait_event_type = 'Lock'`.execute(depot.db);
    if (rows[0].waiting > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the push never reached the blob row lock');
}

describe('garbage collection', () => {
  const collect = () => depot.services.garbageCollector.collect(0);
  const stored = (content: string) => existsSync(depot.services.filestore.pathOf(sha(content)));

  it('keeps what uploads and manifests hold, and removes layers no manifest names', async () => {
    await pushBlob('docker-local/gc', 'gc-layer');
    await collect();
    expect(stored('gc-layer')).toBe(true);
    const { digest } = await pushImage('docker-local/gc', 'v1', '{"gc":1}', ['gc-layer']);
    await collect();
    expect(stored('gc-layer')).toBe(true);
    const removed = await depot.request(`/v2/docker-local/gc/manifests/${digest}`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(202);
    await collect();
    expect(stored('gc-layer')).toBe(false);
    expect(stored('{"gc":1}')).toBe(false);
  });

  it('never takes a layer from a manifest written while it runs', async () => {
    for (let round = 0; round < 4; round++) {
      const layer = `race-layer-${round}`;
      await pushBlob('docker-local/race', layer);
      await pushBlob('docker-local/race', '{"race":1}');
      const manifest = imageManifest('{"race":1}', [layer]);
      const [, put] = await Promise.all([
        collect(),
        depot.request(`/v2/docker-local/race/manifests/r${round}`, {
          method: 'PUT',
          headers: { 'content-type': OCI_MANIFEST },
          body: manifest,
        }),
        collect(),
      ]);
      expect(put.status).toBe(201);
      await collect();
      expect(stored(layer)).toBe(true);
      const pulled = await depot.request(`/v2/docker-local/race/blobs/${digestOf(layer)}`);
      expect(await pulled.text()).toBe(layer);
    }
  });

  it('refuses a manifest whose layer a collection takes meanwhile, writing nothing', async () => {
    await pushBlob('docker-local/taken', 'taken-layer');
    await pushBlob('docker-local/taken', '{"taken":1}');
    const hex = sha('taken-layer');
    let put: Promise<Response> | undefined;
    // What a collection does once the layer's last file is gone, holding the blob's row
    // while the manifest's push arrives.
    await depot.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('nodes').where('sha256', '=', hex).execute();
      await sql`select sha256 from blobs where sha256 = ${hex} for update`.execute(tx);
      put = depot.request('/v2/docker-local/taken/manifests/v1', {
        method: 'PUT',
        headers: { 'content-type': OCI_MANIFEST },
        body: imageManifest('{"taken":1}', ['taken-layer']),
      });
      // On PostgreSQL the push runs beside this transaction: let it reach the blob's row lock.
      // (The embedded database runs one transaction at a time: the push waits for this one.)
      if (depot.config.databaseUrl) await untilSomeoneWaitsOnALock();
      await depot.services.filestore.remove(hex);
      await tx.deleteFrom('blobs').where('sha256', '=', hex).execute();
    });
    const answer = await put!;
    expect(answer.status).toBe(400);
    expect(await errorCode(answer)).toBe('MANIFEST_BLOB_UNKNOWN');
    expect((await depot.request('/v2/docker-local/taken/manifests/v1')).status).toBe(404);
  });

  it('keeps a blob an upload in progress completes after a collection removed its twin', async () => {
    const { digest } = await pushImage('docker-local/twin', 'v1', '{"twin":1}', ['twin-layer']);
    await depot.request(`/v2/docker-local/twin/manifests/${digest}`, { method: 'DELETE' });
    const start = await depot.request('/v2/docker-local/twin/blobs/uploads/', { method: 'POST' });
    const location = start.headers.get('location')!;
    await depot.request(location, { method: 'PATCH', body: 'twin-layer' });
    await collect();
    expect(stored('twin-layer')).toBe(false);
    const done = await depot.request(`${location}?digest=${digestOf('twin-layer')}`, {
      method: 'PUT',
    });
    expect(done.status).toBe(201);
    await collect();
    const pulled = await depot.request(`/v2/docker-local/twin/blobs/${digestOf('twin-layer')}`);
    expect(await pulled.text()).toBe('twin-layer');
  });
});

describe('the DockerV2Info view (POST /ui/api/v1/ui/views/dockerv2)', () => {
  const VIEW = '/ui/api/v1/ui/views/dockerv2';
  const view = (body: object, headers: Record<string, string> = {}) =>
    depot.request(VIEW, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const config = JSON.stringify({
    os: 'linux',
    architecture: 'arm64',
    config: { Labels: { 'org.opencontainers.image.title': 'viewed' } },
    history: [
      { created_by: 'ADD rootfs.tar /' },
      { created_by: 'ENV A=1', empty_layer: true },
      { created_by: 'RUN make install' },
    ],
  });

  it('answers a tag folder and its manifest with tag, digest, sizes, layers, labels and platform', async () => {
    const layers = ['view-layer-one', 'view-layer-2'];
    const { manifest, digest } = await pushImage('docker-local/team/viewed', '1.0', config, layers);
    const folder = await view({
      repoKey: 'docker-local',
      path: 'team/viewed/1.0',
      view: 'dockerv2',
    });
    expect(folder.status, await folder.clone().text()).toBe(200);
    const answer = await folder.json();
    expect(answer).toEqual({
      repoKey: 'docker-local',
      image: 'team/viewed',
      tag: '1.0',
      digest,
      mediaType: OCI_MANIFEST,
      kind: 'image',
      totalSize: Buffer.byteLength(config) + 14 + 12,
      layers: [
        {
          digest: digestOf(layers[0]),
          size: 14,
          mediaType: 'application/vnd.oci.image.layer.v1.tar',
          command: 'ADD rootfs.tar /',
        },
        {
          digest: digestOf(layers[1]),
          size: 12,
          mediaType: 'application/vnd.oci.image.layer.v1.tar',
          command: 'RUN make install',
        },
      ],
      labels: { 'org.opencontainers.image.title': 'viewed' },
      os: 'linux',
      architecture: 'arm64',
      platforms: [],
      pullCommand: `docker pull ${depot.base.slice('http://'.length)}/docker-local/team/viewed:1.0`,
    });
    expect(JSON.parse(manifest).layers).toHaveLength(2);
    const file = await view({ repoKey: 'docker-local', path: 'team/viewed/1.0/manifest.json' });
    expect(await file.json()).toEqual(answer);
  });

  it('offers the DockerV2Info tab on tag folders and manifests only, virtual ones too', async () => {
    const tabsOf = async (repoKey: string, path: string, type: string) => {
      const response = await depot.request('/ui/api/v1/ui/treebrowser/tabsAndActions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type, repoKey, path }),
      });
      expect(response.status).toBe(200);
      const { tabs } = (await response.json()) as { tabs: { name: string }[] };
      return tabs.some((tab) => tab.name === 'DockerV2Info');
    };
    await pushImage('docker-local/tabbed', 'v1', '{"tabbed":1}', ['tabbed-layer']);
    expect(await tabsOf('docker-local', 'tabbed/v1', 'folder')).toBe(true);
    expect(await tabsOf('docker-local', 'tabbed/v1/manifest.json', 'file')).toBe(true);
    expect(await tabsOf('docker-virtual', 'tabbed/v1', 'folder')).toBe(true);
    expect(await tabsOf('docker-local', 'tabbed', 'folder')).toBe(false);
    const layer = `tabbed/v1/sha256__${sha('tabbed-layer')}`;
    expect(await tabsOf('docker-local', layer, 'file')).toBe(false);
  });

  it('names no command when the history does not line up with the layers', async () => {
    await pushImage('docker-local/uneven', 'v1', '{"history":[{"created_by":"ADD x /"}]}', [
      'uneven-1',
      'uneven-2',
    ]);
    const answer = await (await view({ repoKey: 'docker-local', path: 'uneven/v1' })).json();
    expect(answer.layers.map((layer: { command?: string }) => layer.command)).toEqual([
      undefined,
      undefined,
    ]);
    expect(answer.labels).toEqual({});
  });

  it('lists the platforms of an index', async () => {
    const amd = await pushImage('docker-local/multi', 'amd64', '{"os":"linux"}', ['multi-a']);
    const arm = await pushImage('docker-local/multi', 'arm64', '{"os":"linux","x":1}', ['multi-b']);
    const entry = (pushed: { manifest: string; digest: string }, architecture: string) => ({
      mediaType: OCI_MANIFEST,
      digest: pushed.digest,
      size: Buffer.byteLength(pushed.manifest),
      platform: { os: 'linux', architecture },
    });
    const index = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [entry(amd, 'amd64'), entry(arm, 'arm64')],
    });
    const put = await depot.request('/v2/docker-local/multi/manifests/latest', {
      method: 'PUT',
      headers: { 'content-type': 'application/vnd.oci.image.index.v1+json' },
      body: index,
    });
    expect(put.status, await put.text()).toBe(201);
    const answer = await (await view({ repoKey: 'docker-local', path: 'multi/latest' })).json();
    expect(answer).toMatchObject({ kind: 'index', tag: 'latest', digest: digestOf(index) });
    expect(answer.platforms).toEqual([
      {
        ...entry(amd, 'amd64').platform,
        digest: amd.digest,
        size: entry(amd, '').size,
        mediaType: OCI_MANIFEST,
      },
      {
        ...entry(arm, 'arm64').platform,
        digest: arm.digest,
        size: entry(arm, '').size,
        mediaType: OCI_MANIFEST,
      },
    ]);
    expect(answer.totalSize).toBe(entry(amd, '').size + entry(arm, '').size);
  });

  it('needs read on the node, and refuses what is not a tag with a plain message', async () => {
    await pushImage('docker-secret/hidden', 'v1', '{"hidden":1}', ['hidden-layer']);
    const denied = await view({ repoKey: 'docker-secret', path: 'hidden/v1' }, as('reader'));
    expect(denied.status).toBe(403);
    expect(await denied.text()).not.toContain('hidden-layer');
    const image = await view({ repoKey: 'docker-local', path: 'team/viewed' });
    expect(image.status).toBe(400);
    expect((await image.json()).errors[0].message).toBe(
      'docker-local/team/viewed is not a Docker tag or its manifest',
    );
    const missing = await view({ repoKey: 'docker-local', path: 'team/viewed/9.9' });
    expect(missing.status).toBe(404);
  });
});
