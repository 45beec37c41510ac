import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuth,
  basic,
  createRepository,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Docker images in the searches and the package list (docs/docker.md, "Search and
 * packages"): quick search by image and tag, package search by Artifactory's Docker fields,
 * property search and AQL on `docker.*`, and the package browser's images with their tags,
 * sizes and digests; a deleted tag leaves them, a reader sees only what they may read.
 */
let depot: TestDepot;

const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const digestOf = (data: string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;
const descriptor = (mediaType: string, content: string) => ({
  mediaType,
  digest: digestOf(content),
  size: Buffer.byteLength(content),
});

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  depot.app.inject({ method, url, headers: adminAuth(), payload: payload as never });

async function pushBlob(name: string, content: string) {
  const response = await depot.app.inject({
    method: 'POST',
    url: `/v2/${name}/blobs/uploads/?digest=${digestOf(content)}`,
    headers: { ...adminAuth(), 'content-type': 'application/octet-stream' },
    payload: content,
  });
  expect(response.statusCode, response.body).toBe(201);
}

/** A one-layer image pushed under `tag`; answers its manifest and its files' total size. */
async function pushImage(name: string, tag: string, layer: string) {
  const config = JSON.stringify({ architecture: 'amd64', os: 'linux', layer });
  for (const blob of [config, layer]) await pushBlob(name, blob);
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: descriptor('application/vnd.oci.image.config.v1+json', config),
    layers: [descriptor('application/vnd.oci.image.layer.v1.tar', layer)],
  });
  const response = await depot.app.inject({
    method: 'PUT',
    url: `/v2/${name}/manifests/${tag}`,
    headers: { ...adminAuth(), 'content-type': OCI_MANIFEST },
    payload: manifest,
  });
  expect(response.statusCode, response.body).toBe(201);
  return { manifest, size: [manifest, config, layer].reduce((n, s) => n + s.length, 0) };
}

let web: { manifest: string; size: number };

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'images-local', 'local', { packageType: 'docker' });
  await createRepository(depot, 'hidden-docker', 'local', { packageType: 'docker' });
  await depot.services.users.create({
    name: 'looker',
    email: 'looker@example.com',
    password: 'looker-pass-1',
  });
  // Without the default grant to everyone, `looker` reads only what `lookers` grants.
  const anything = await inject('DELETE', '/artifactory/api/v2/security/permissions/Anything');
  expect(anything.statusCode).toBe(200);
  const granted = await inject('PUT', '/artifactory/api/v2/security/permissions/lookers', {
    repo: {
      repositories: ['images-local'],
      actions: { users: { looker: ['read'] }, groups: {} },
    },
  });
  expect(granted.statusCode, granted.body).toBeLessThan(300);
  web = await pushImage('images-local/frontend/webapp', '2.1.0', 'web layer one');
  await pushImage('images-local/frontend/webapp', 'Latest', 'web layer two');
  await pushImage('images-local/tools/webber', '1.0', 'webber layer');
  await pushImage('hidden-docker/frontend/webapp', 'secret', 'hidden layer');
});
afterAll(() => depot?.close());

const quick = async (query: string, who = adminAuth()) => {
  const response = await depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/artifactsearch/quick',
    headers: who,
    payload: { query },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().results as { repoKey: string; path: string }[])
    .map((row) => `${row.repoKey}/${row.path}`)
    .sort();
};

describe('quick search', () => {
  it('finds an image by its name, or the last part of it, with every tag', async () => {
    const byLastPart = await quick('webapp');
    expect(byLastPart).toEqual([
      'hidden-docker/frontend/webapp/secret/manifest.json',
      'images-local/frontend/webapp/2.1.0/manifest.json',
      'images-local/frontend/webapp/Latest/manifest.json',
    ]);
    expect(await quick('frontend/web')).toEqual(byLastPart);
    // A trailing wildcard is added: `web` starts both images' names.
    expect(await quick('WEB')).toHaveLength(4);
  });

  it('finds a tag, and leaves out what the caller may not read', async () => {
    expect(await quick('2.1')).toEqual(['images-local/frontend/webapp/2.1.0/manifest.json']);
    expect(await quick('webapp', { authorization: basic('looker', 'looker-pass-1') })).toEqual([
      'images-local/frontend/webapp/2.1.0/manifest.json',
      'images-local/frontend/webapp/Latest/manifest.json',
    ]);
  });
});

describe('package search, property search and AQL', () => {
  it("offers Docker with Artifactory's image and tag fields", async () => {
    const fields = await inject('GET', '/ui/api/v1/ui/artifactsearch/pkg/fields/docker');
    expect(fields.statusCode).toBe(200);
    expect(fields.json().map((f: { id: string }) => f.id)).toEqual([
      'dockerV2Image',
      'dockerV2Tag',
      'repo',
    ]);
  });

  it('finds tags by image and tag', async () => {
    const search = await inject('POST', '/ui/api/v1/ui/artifactsearch/pkg', [
      { id: 'pkgType', values: ['docker'] },
      { id: 'dockerV2Image', values: ['frontend/web'] },
      { id: 'dockerV2Tag', values: ['2.1'] },
      { id: 'repo', values: ['images-local'] },
    ]);
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().results).toEqual([
      expect.objectContaining({
        repoKey: 'images-local',
        path: 'frontend/webapp/2.1.0/manifest.json',
        packageName: 'frontend/webapp',
        version: '2.1.0',
        packageType: 'docker',
      }),
    ]);
  });

  it('finds manifests by their docker.* properties', async () => {
    const byProperty = await inject('POST', '/ui/api/v1/ui/artifactsearch/property', {
      propertyKeyValues: [
        { key: 'docker.repoName', values: ['tools/webber'] },
        { key: 'docker.manifest', values: ['1.0'] },
      ],
    });
    expect(byProperty.statusCode, byProperty.body).toBe(200);
    expect(byProperty.json().results.map((r: { path: string }) => r.path)).toEqual([
      'tools/webber/1.0/manifest.json',
    ]);
    const aql = await depot.app.inject({
      method: 'POST',
      url: '/artifactory/api/search/aql',
      headers: { ...adminAuth(), 'content-type': 'text/plain' },
      payload: `items.find({"@docker.manifest.digest":"${digestOf(web.manifest)}"})`,
    });
    expect(aql.statusCode, aql.body).toBe(200);
    expect(aql.json().results).toEqual([
      expect.objectContaining({
        repo: 'images-local',
        path: 'frontend/webapp/2.1.0',
        name: 'manifest.json',
      }),
    ]);
  });
});

const PACKAGES = `query($filter: PackageFilter) {
  packages(filter: $filter) { edges { node { id name packageType versionsCount latestVersion modified } } }
}`;
const VERSIONS = `query($filter: VersionFilter!) {
  versions(filter: $filter) { edges { node { name size digest modified repos { name } } } }
}`;

async function graphQl(call: string, query: string, variables: object) {
  const response = await inject('POST', `/ui/api/v1/mds/${call}`, {
    graphQL: { query, variables },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe('the package list', () => {
  it('lists Docker images with their tags, sizes, digests and last modified', async () => {
    const { packages } = await graphQl('packages', PACKAGES, {
      filter: { packageTypeIn: ['docker'], name: 'frontend/*' },
    });
    const [image] = packages.edges.map((e: { node: unknown }) => e.node);
    expect(image).toMatchObject({
      id: 'docker://frontend/webapp',
      name: 'frontend/webapp',
      packageType: 'docker',
      versionsCount: 3,
    });
    expect(Number.isNaN(Date.parse(image.modified))).toBe(false);
    const { versions } = await graphQl('versions', VERSIONS, {
      filter: { packageId: 'docker://frontend/webapp', repos: ['images-local'] },
    });
    const tag = versions.edges
      .map((e: { node: { name: string } }) => e.node)
      .find((node: { name: string }) => node.name === '2.1.0');
    expect(tag).toMatchObject({
      size: web.size,
      digest: digestOf(web.manifest).slice('sha256:'.length),
      repos: [{ name: 'images-local' }],
    });
  });

  it('drops a deleted tag', async () => {
    const deleted = await inject('DELETE', '/v2/images-local/tools/webber/manifests/1.0');
    expect(deleted.statusCode, deleted.body).toBe(202);
    const { packages } = await graphQl('packages', PACKAGES, {
      filter: { packageTypeIn: ['docker'], name: 'tools/*' },
    });
    expect(packages.edges).toEqual([]);
  });
});
