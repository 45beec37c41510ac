import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuth,
  basic,
  createRepository,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';
import { startReceiver, until, type Receiver } from './helpers/webhook-receiver.ts';

/**
 * Docker's webhook events (docs/webhooks.md, docs/docker.md "Events"): a tag pushed, deleted
 * and promoted reaches a loopback receiver in JFrog's docker payload shape, and a refused
 * change emits nothing.
 */
let depot: TestDepot;
let receiver: Receiver;

const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const sha = (data: string) => createHash('sha256').update(data).digest('hex');
const digestOf = (data: string) => `sha256:${sha(data)}`;
const descriptor = (mediaType: string, content: string, extra: object = {}) => ({
  mediaType,
  digest: digestOf(content),
  size: Buffer.byteLength(content),
  ...extra,
});

beforeAll(async () => {
  depot = await startTestDepot({
    DEPOT_WEBHOOK_POLL_MS: '50',
    DEPOT_WEBHOOK_RETRY_BASE_MS: '50',
    DEPOT_WEBHOOK_TIMEOUT_MS: '2000',
  });
  receiver = await startReceiver();
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.1'] });
  for (const key of ['dev-docker', 'prod-docker'])
    await createRepository(depot, key, 'local', { packageType: 'docker' });
  await depot.services.users.create({
    name: 'viewer',
    email: 'viewer@example.com',
    password: 'viewer-pass-1',
  });
  const subscribed = await api('POST', '/event/api/v1/subscriptions', {
    key: 'docker-hooks',
    description: 'Docker tags',
    enabled: true,
    event_filter: {
      domain: 'docker',
      event_types: ['pushed', 'deleted', 'promoted'],
      criteria: { anyLocal: false, anyRemote: false, repoKeys: ['dev-docker'] },
    },
    handlers: [{ handler_type: 'webhook', url: `${receiver.url}/docker`, secret: 'docker-s3' }],
  });
  expect(subscribed.statusCode, subscribed.body).toBe(201);
});

afterAll(async () => {
  await receiver?.close();
  await depot?.close();
});

function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return depot.app.inject({ method, url, headers: adminAuth(), payload: payload as never });
}

async function pushBlob(name: string, content: string) {
  const response = await depot.app.inject({
    method: 'POST',
    url: `/v2/${name}/blobs/uploads/?digest=${digestOf(content)}`,
    headers: { ...adminAuth(), 'content-type': 'application/octet-stream' },
    payload: content,
  });
  expect(response.statusCode, response.body).toBe(201);
}

async function putManifest(name: string, reference: string, manifest: string, type: string) {
  return depot.app.inject({
    method: 'PUT',
    url: `/v2/${name}/manifests/${reference}`,
    headers: { ...adminAuth(), 'content-type': type },
    payload: manifest,
  });
}

/** An image for linux on `architecture`, pushed under `tag` (or only by digest). */
async function pushImage(name: string, architecture: string, tag?: string) {
  const config = JSON.stringify({ architecture, os: 'linux', rootfs: { type: 'layers' } });
  const layer = `layer of ${name} for ${architecture}`;
  for (const blob of [config, layer]) await pushBlob(name, blob);
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: descriptor('application/vnd.oci.image.config.v1+json', config),
    layers: [descriptor('application/vnd.oci.image.layer.v1.tar', layer)],
  });
  const response = await putManifest(name, tag ?? digestOf(manifest), manifest, OCI_MANIFEST);
  expect(response.statusCode, response.body).toBe(201);
  return manifest;
}

const docker = (type: string) =>
  receiver.requests.filter(
    (r) => r.path === '/hook/docker' && (r.json as { event_type?: string }).event_type === type,
  );

describe('docker events', () => {
  it('offers the docker domain with its three event types', async () => {
    const response = await api('GET', '/event/api/v1/domains');
    const domains = response.json() as { key: string; event_types: { key: string }[] }[];
    const dockerDomain = domains.find((d) => d.key === 'docker');
    expect(dockerDomain?.event_types.map((t) => t.key)).toEqual(['pushed', 'deleted', 'promoted']);
  });

  it('reports a tag pushed, with its image, tag, manifest file and platform', async () => {
    const manifest = await pushImage('dev-docker/team/app', 'amd64', '1.0');
    await until(() => docker('pushed').length === 1, 'the pushed event');
    const [event] = docker('pushed');
    expect(event!.headers['x-depot-event']).toBe('docker.pushed');
    expect(event!.json).toMatchObject({
      domain: 'docker',
      event_type: 'pushed',
      subscription_key: 'docker-hooks',
      source: 'jfrog/admin',
      data: {
        repo_key: 'dev-docker',
        path: 'team/app/1.0/manifest.json',
        name: 'manifest.json',
        sha256: sha(manifest),
        size: Buffer.byteLength(manifest),
        image_name: 'team/app',
        tag: '1.0',
        platforms: [{ architecture: 'amd64', os: 'linux' }],
      },
    });
  });

  it('reports an index pushed by tag once, with every platform it names', async () => {
    const amd = await pushImage('dev-docker/multi', 'amd64');
    const arm = await pushImage('dev-docker/multi', 'arm64');
    const platformOf = (architecture: string) => ({ architecture, os: 'linux' });
    const index = JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_INDEX,
      manifests: [
        descriptor(OCI_MANIFEST, amd, { platform: platformOf('amd64') }),
        descriptor(OCI_MANIFEST, arm, { platform: platformOf('arm64') }),
      ],
    });
    const pushed = await putManifest('dev-docker/multi', 'latest', index, OCI_INDEX);
    expect(pushed.statusCode, pushed.body).toBe(201);
    await until(
      () => docker('pushed').some((r) => (r.json.data as { tag: string }).tag === 'latest'),
      'the index pushed event',
    );
    const events = docker('pushed').filter(
      (r) => (r.json.data as { image_name: string }).image_name === 'multi',
    );
    // The platform images pushed by digest are no tags: only the index's tag is reported.
    expect(events).toHaveLength(1);
    expect(events[0]!.json.data).toMatchObject({
      path: 'multi/latest/list.manifest.json',
      name: 'list.manifest.json',
      platforms: [platformOf('amd64'), platformOf('arm64')],
    });
  });

  it('names the platform of an image whose config is named by a sha512 digest', async () => {
    const name = 'dev-docker/long';
    const sha512Of = (data: string) => `sha512:${createHash('sha512').update(data).digest('hex')}`;
    const config = JSON.stringify({
      architecture: 's390x',
      os: 'linux',
      rootfs: { type: 'layers' },
    });
    const layer = 'a layer of an image whose config is named by sha512';
    const pushed = await depot.app.inject({
      method: 'POST',
      url: `/v2/${name}/blobs/uploads/?digest=${sha512Of(config)}`,
      headers: { ...adminAuth(), 'content-type': 'application/octet-stream' },
      payload: config,
    });
    expect(pushed.statusCode, pushed.body).toBe(201);
    await pushBlob(name, layer);
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: sha512Of(config),
        size: Buffer.byteLength(config),
      },
      layers: [descriptor('application/vnd.oci.image.layer.v1.tar', layer)],
    });
    const stored = await putManifest(name, '5.1', manifest, OCI_MANIFEST);
    expect(stored.statusCode, stored.body).toBe(201);
    const mine = () =>
      docker('pushed').filter((r) => (r.json.data as { image_name: string }).image_name === 'long');
    await until(() => mine().length === 1, 'the pushed event of the sha512 image');
    expect(mine()[0]!.json.data).toMatchObject({
      path: 'long/5.1/manifest.json',
      tag: '5.1',
      platforms: [{ architecture: 's390x', os: 'linux' }],
    });
  });

  it('emits nothing for a push that is refused', async () => {
    const before = await depot.db
      .selectFrom('event_outbox')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('domain', '=', 'docker')
      .executeTakeFirstOrThrow();
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: descriptor('application/vnd.oci.image.config.v1+json', '{"never":"pushed"}'),
      layers: [],
    });
    const refused = await putManifest('dev-docker/team/app', '2.0', manifest, OCI_MANIFEST);
    expect(refused.statusCode).toBe(400);
    const after = await depot.db
      .selectFrom('event_outbox')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('domain', '=', 'docker')
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('reports a promotion in the source repository, and the tag pulls from the target', async () => {
    const promoted = await api('POST', '/artifactory/api/docker/dev-docker/v2/promote', {
      targetRepo: 'prod-docker',
      dockerRepository: 'multi',
      tag: 'latest',
      targetTag: 'stable',
      copy: true,
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    await until(() => docker('promoted').length === 1, 'the promoted event');
    expect(docker('promoted')[0]!.json.data).toMatchObject({
      repo_key: 'dev-docker',
      path: 'multi/latest/list.manifest.json',
      image_name: 'multi',
      tag: 'latest',
      target_repo_key: 'prod-docker',
      target_tag: 'stable',
    });
    // The index and the platform images it names are all in the target now.
    const index = await api('GET', '/v2/prod-docker/multi/manifests/stable');
    expect(index.statusCode).toBe(200);
    const entries = (index.json() as { manifests: { digest: string }[] }).manifests;
    for (const entry of entries) {
      const image = await api('GET', `/v2/prod-docker/multi/manifests/${entry.digest}`);
      expect(image.statusCode).toBe(200);
      const layers = (image.json() as { layers: { digest: string }[] }).layers;
      const blob = await api('GET', `/v2/prod-docker/multi/blobs/${layers[0]!.digest}`);
      expect(blob.statusCode).toBe(200);
    }
    const props = await api(
      'GET',
      '/artifactory/api/storage/prod-docker/multi/stable/list.manifest.json?properties',
    );
    expect(props.json()).toMatchObject({ properties: { 'docker.manifest': ['stable'] } });
    // A copy leaves the source where it was.
    expect((await api('GET', '/v2/dev-docker/multi/manifests/latest')).statusCode).toBe(200);
  });

  it('moves a tag by default, and refuses a caller without the rights, changing nothing', async () => {
    const denied = await depot.app.inject({
      method: 'POST',
      url: '/artifactory/api/docker/dev-docker/v2/promote',
      headers: { authorization: basic('viewer', 'viewer-pass-1') },
      payload: { targetRepo: 'prod-docker', dockerRepository: 'team/app', tag: '1.0' },
    });
    expect(denied.statusCode).toBe(403);
    expect((await api('GET', '/v2/prod-docker/team/app/manifests/1.0')).statusCode).toBe(404);
    const unknown = await api('POST', '/artifactory/api/docker/dev-docker/v2/promote', {
      targetRepo: 'prod-docker',
      dockerRepository: 'team/app',
      tag: '9.9',
    });
    expect(unknown.statusCode).toBe(404);
    const moved = await api('POST', '/artifactory/api/docker/dev-docker/v2/promote', {
      targetRepo: 'prod-docker',
      dockerRepository: 'team/app',
      tag: '1.0',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await api('GET', '/v2/prod-docker/team/app/manifests/1.0')).statusCode).toBe(200);
    expect((await api('GET', '/v2/dev-docker/team/app/manifests/1.0')).statusCode).toBe(404);
    await until(() => docker('promoted').length === 2, 'the second promoted event');
  });

  it('reports a tag deleted, and a digest deleted once per tag it held', async () => {
    const twice = await pushImage('dev-docker/twice', 'amd64', 'a');
    const again = await putManifest('dev-docker/twice', 'b', twice, OCI_MANIFEST);
    expect(again.statusCode).toBe(201);
    const byTag = await api('DELETE', '/v2/dev-docker/multi/manifests/latest');
    expect(byTag.statusCode, byTag.body).toBe(202);
    const byDigest = await api('DELETE', `/v2/dev-docker/twice/manifests/${digestOf(twice)}`);
    expect(byDigest.statusCode, byDigest.body).toBe(202);
    await until(() => docker('deleted').length === 3, 'three deleted events');
    const deleted = docker('deleted').map(
      (r) => r.json.data as { image_name: string; tag: string },
    );
    expect(deleted.map((d) => `${d.image_name}:${d.tag}`).sort()).toEqual([
      'multi:latest',
      'twice:a',
      'twice:b',
    ]);
    expect(docker('deleted')[0]!.json.data).toMatchObject({
      repo_key: 'dev-docker',
      path: 'multi/latest/list.manifest.json',
      platforms: [
        { architecture: 'amd64', os: 'linux' },
        { architecture: 'arm64', os: 'linux' },
      ],
    });
  });
});
