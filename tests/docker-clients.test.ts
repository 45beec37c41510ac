import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDistributionRegistry,
  type DistributionRegistry,
} from './helpers/distribution-registry.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { startApacheWith } from './helpers/apache.ts';
import { startNginxWith } from './helpers/nginx.ts';
import { freePort } from './helpers/server-process.ts';
import { TEST_ADMIN_PASSWORD } from './helpers/test-app.ts';

/**
 * The Docker registry with the real clients (docs/docker.md): Debian's buildah builds images
 * from a scratch root filesystem made here (no network), podman and skopeo push them to a
 * local Docker repository and pull them back, by tag and by digest, through the Bearer token
 * flow; buildah pushes a multi-architecture index; an OCI artifact naming an image as its
 * `subject` is listed by the referrers API.
 */
const run = promisify(execFile);
let depot: HttpDepot;
let work: string;
let host: string;

const CREDS = `admin:${TEST_ADMIN_PASSWORD}`;
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

// Only what the clients need: none of the machine's registries, credentials or storage.
const clientEnv = () => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: work,
  CONTAINERS_REGISTRIES_CONF: join(work, 'registries.conf'),
  CONTAINERS_CONF: join(work, 'containers.conf'),
  CONTAINERS_STORAGE_CONF: join(work, 'storage.conf'),
  REGISTRY_AUTH_FILE: join(work, 'auth.json'),
  XDG_RUNTIME_DIR: join(work, 'run'),
});
const storage = () => [
  '--root',
  join(work, 'storage'),
  '--runroot',
  join(work, 'run'),
  '--storage-driver',
  'vfs',
];

async function client(command: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout } = await run(command, args, {
      env: { ...clientEnv(), ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout.trim();
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stderr}\n${stdout}`);
  }
}
const buildah = (...args: string[]) => client('buildah', [...storage(), ...args]);
const podman = (...args: string[]) =>
  client('podman', [
    ...storage(),
    '--events-backend',
    'none',
    '--cgroup-manager',
    'cgroupfs',
    ...args,
  ]);
const skopeo = (...args: string[]) => client('skopeo', args);
/** skopeo with every request sent to `proxy`: how a test names a host no DNS knows. */
const skopeoVia = (proxy: string, ...args: string[]) =>
  client('skopeo', args, { HTTP_PROXY: proxy, HTTPS_PROXY: proxy });

/** An image built from a scratch root filesystem of a few small files, kept in local storage. */
async function buildImage(name: string, arch: string, text: string) {
  const rootfs = mkdtempSync(join(work, 'rootfs-'));
  mkdirSync(join(rootfs, 'etc'));
  writeFileSync(join(rootfs, 'hello.txt'), text);
  writeFileSync(join(rootfs, 'etc', 'motd'), `built for ${arch}\n`);
  const container = await buildah('from', '--pull-never', 'scratch');
  await buildah('copy', container, rootfs, '/');
  await buildah(
    'config',
    '--arch',
    arch,
    '--os',
    'linux',
    '--label',
    `depot.test=${name}`,
    '--cmd',
    '/hello.txt',
    container,
  );
  await buildah('commit', '--format', 'oci', container, `localhost/${name}`);
  await buildah('rm', container);
}

const remote = (path: string) => `docker://${host}/${path}`;

/** The digest of a manifest in Depot, as its registry answers it. */
async function digestInDepot(path: string, tag: string) {
  const response = await depot.request(`/v2/${path}/manifests/${tag}`, {
    method: 'HEAD',
    headers: {
      accept: 'application/vnd.oci.image.manifest.v1+json, application/vnd.oci.image.index.v1+json',
    },
  });
  expect(response.status).toBe(200);
  return response.headers.get('docker-content-digest')!;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'depot-docker-'));
  mkdirSync(join(work, 'run'), { mode: 0o700 });
  writeFileSync(join(work, 'registries.conf'), 'unqualified-search-registries = []\n');
  writeFileSync(join(work, 'containers.conf'), '');
  writeFileSync(join(work, 'auth.json'), '{"auths": {}}');
  writeFileSync(
    join(work, 'storage.conf'),
    `[storage]\ndriver = "vfs"\nrunroot = "${join(work, 'run')}"\ngraphroot = "${join(work, 'storage')}"\n`,
  );
  depot = await startHttpDepot();
  host = depot.base.replace('http://', '');
  for (const key of ['docker-local', 'docker-copies'])
    await depot.services.repositories.create({
      key,
      rclass: 'local',
      packageType: 'docker',
    } as never);
  await buildImage('app', 'amd64', 'hello from depot\n');
}, 120_000);
afterAll(async () => {
  await depot?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('podman, skopeo and buildah against a local Docker repository', () => {
  let pushedDigest: string;

  it('podman pushes an image and pulls it back by tag and by digest', async () => {
    await podman(
      'push',
      '--tls-verify=false',
      '--creds',
      CREDS,
      'localhost/app',
      remote('docker-local/app:1.0'),
    );
    pushedDigest = await digestInDepot('docker-local/app', '1.0');
    const raw = await skopeo(
      'inspect',
      '--raw',
      '--tls-verify=false',
      '--creds',
      CREDS,
      remote('docker-local/app:1.0'),
    );
    expect(`sha256:${sha(raw)}`).toBe(pushedDigest);
    await podman('rmi', 'localhost/app');
    await podman('pull', '--tls-verify=false', '--creds', CREDS, `${host}/docker-local/app:1.0`);
    await podman(
      'pull',
      '--tls-verify=false',
      '--creds',
      CREDS,
      `${host}/docker-local/app@${pushedDigest}`,
    );
    const digests = await podman(
      'image',
      'inspect',
      '--format',
      '{{.Digest}}',
      `${host}/docker-local/app:1.0`,
    );
    expect(digests).toBe(pushedDigest);
  });

  it('skopeo copies the image between repositories and pulls it by digest', async () => {
    await skopeo(
      'copy',
      '--src-tls-verify=false',
      '--dest-tls-verify=false',
      '--src-creds',
      CREDS,
      '--dest-creds',
      CREDS,
      remote('docker-local/app:1.0'),
      remote('docker-copies/app:copied'),
    );
    expect(await digestInDepot('docker-copies/app', 'copied')).toBe(pushedDigest);
    const layout = join(work, 'pulled');
    await skopeo(
      'copy',
      '--src-tls-verify=false',
      '--src-creds',
      CREDS,
      remote(`docker-copies/app@${pushedDigest}`),
      `oci:${layout}:pulled`,
    );
    const index = JSON.parse(await skopeo('inspect', '--raw', `oci:${layout}:pulled`)) as {
      layers: unknown[];
    };
    expect(index.layers).toHaveLength(1);
    const tags = await skopeo(
      'list-tags',
      '--tls-verify=false',
      '--creds',
      CREDS,
      remote('docker-copies/app'),
    );
    expect(JSON.parse(tags).Tags).toEqual(['copied']);
  });

  it('refuses a Docker schema 1 manifest skopeo pushes, naming why, and keeps no tag', async () => {
    const pushed = skopeo(
      'copy',
      '--format',
      'v2s1',
      '--src-tls-verify=false',
      '--dest-tls-verify=false',
      '--src-creds',
      CREDS,
      '--dest-creds',
      CREDS,
      remote('docker-local/app:1.0'),
      remote('docker-copies/app:schema1'),
    );
    await expect(pushed).rejects.toThrow(/Docker schema 1 manifests are not accepted/);
    const head = await depot.request('/v2/docker-copies/app/manifests/schema1', {
      method: 'HEAD',
    });
    expect(head.status).toBe(404);
  });

  it('buildah pushes a multi-architecture index that skopeo copies whole', async () => {
    await buildImage('app-amd64', 'amd64', 'hello from amd\n');
    await buildImage('app-arm64', 'arm64', 'hello from arm\n');
    await buildah('manifest', 'create', 'localhost/multi');
    await buildah('manifest', 'add', 'localhost/multi', 'localhost/app-amd64');
    await buildah('manifest', 'add', 'localhost/multi', 'localhost/app-arm64');
    await buildah(
      'manifest',
      'push',
      '--all',
      '--tls-verify=false',
      '--creds',
      CREDS,
      'localhost/multi',
      remote('docker-local/multi:1'),
    );
    const index = await depot.request('/v2/docker-local/multi/manifests/1', {
      headers: { accept: 'application/vnd.oci.image.index.v1+json' },
    });
    const body = (await index.json()) as { manifests: { platform: { architecture: string } }[] };
    expect(body.manifests.map((m) => m.platform.architecture).sort()).toEqual(['amd64', 'arm64']);
    await skopeo(
      'copy',
      '--all',
      '--src-tls-verify=false',
      '--dest-tls-verify=false',
      '--src-creds',
      CREDS,
      '--dest-creds',
      CREDS,
      remote('docker-local/multi:1'),
      remote('docker-copies/multi:1'),
    );
    expect(await digestInDepot('docker-copies/multi', '1')).toBe(
      await digestInDepot('docker-local/multi', '1'),
    );
  });

  it('lists an artifact attached to the pushed image through the referrers API', async () => {
    const push = async (content: string) => {
      const response = await depot.request(
        `/v2/docker-local/app/blobs/uploads/?digest=sha256:${sha(content)}`,
        { method: 'POST', body: content },
      );
      expect(response.status).toBe(201);
    };
    await push('{}');
    await push('an sbom');
    const subject = await depot.request(`/v2/docker-local/app/manifests/${pushedDigest}`);
    const subjectBytes = Buffer.from(await subject.arrayBuffer());
    const sbom = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      artifactType: 'application/spdx+json',
      config: {
        mediaType: 'application/vnd.oci.empty.v1+json',
        digest: `sha256:${sha('{}')}`,
        size: 2,
      },
      layers: [{ mediaType: 'application/spdx+json', digest: `sha256:${sha('an sbom')}`, size: 7 }],
      subject: {
        mediaType: subject.headers.get('content-type'),
        digest: pushedDigest,
        size: subjectBytes.length,
      },
    });
    const put = await depot.request(`/v2/docker-local/app/manifests/sha256:${sha(sbom)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
      body: sbom,
    });
    expect(put.status).toBe(201);
    const referrers = await depot.request(`/v2/docker-local/app/referrers/${pushedDigest}`);
    const listed = (await referrers.json()) as {
      manifests: { digest: string; artifactType: string }[];
    };
    expect(listed.manifests).toEqual([
      expect.objectContaining({
        digest: `sha256:${sha(sbom)}`,
        artifactType: 'application/spdx+json',
      }),
    ]);
  });
});

describe('behind nginx configured as Depot generates it (docs/docker.md, "Reverse proxy")', () => {
  const ADMIN = { authorization: `Basic ${Buffer.from(CREDS).toString('base64')}` };
  /** The documentation's first example (a sub domain per repository). */
  const documented = JSON.parse(
    /<!-- reverse-proxy-example -->\s*```json\n([\s\S]*?)```/.exec(
      readFileSync(new URL('../docs/docker.md', import.meta.url), 'utf8'),
    )![1]!,
  ) as Record<string, unknown>;

  /**
   * Saves the documented settings with this test's ports and Depot's address (HTTP: the
   * test has no certificate), and starts nginx with exactly what Depot generates for them.
   */
  async function proxyAs(change: Record<string, unknown>, webServer: 'nginx' | 'apache' = 'nginx') {
    const httpPort = await freePort();
    const saved = await depot.request('/ui/api/v1/ui/reverseProxies/crud', {
      method: 'PUT',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...documented,
        internalHostname: '127.0.0.1',
        internalPort: Number(new URL(depot.base).port),
        useHttp: true,
        httpPort,
        useHttps: false,
        ...change,
      }),
    });
    expect(saved.status, await saved.text()).toBe(200);
    const generated = await depot.request(
      `/artifactory/api/system/configuration/reverseProxy/${webServer}`,
      { headers: ADMIN },
    );
    expect(generated.status).toBe(200);
    const start = webServer === 'nginx' ? startNginxWith : startApacheWith;
    const server = await start(
      await generated.text(),
      `http://127.0.0.1:${httpPort}/artifactory/api/system/ping`,
    );
    return { httpPort, stop: server.stop };
  }

  /** Pushes the image with skopeo to `image`, pulls it back, and finds it in docker-local. */
  async function pushAndPull(
    image: string,
    tag: string,
    via: (...args: string[]) => Promise<string>,
  ) {
    await via(
      'copy',
      '--dest-tls-verify=false',
      '--dest-creds',
      CREDS,
      'containers-storage:localhost/behind-proxy',
      `docker://${image}:${tag}`,
    );
    const stored = await digestInDepot('docker-local/behind-proxy', tag);
    const layout = join(work, `via-${tag}`);
    await via(
      'copy',
      '--src-tls-verify=false',
      '--src-creds',
      CREDS,
      `docker://${image}@${stored}`,
      `oci:${layout}:pulled`,
    );
    expect(`sha256:${sha(await skopeo('inspect', '--raw', `oci:${layout}:pulled`))}`).toBe(stored);
    const tags = await via(
      'list-tags',
      '--tls-verify=false',
      '--creds',
      CREDS,
      `docker://${image}`,
    );
    expect(JSON.parse(tags).Tags).toContain(tag);
  }

  beforeAll(async () => {
    await buildImage('behind-proxy', 'amd64', 'hello through nginx\n');
  }, 120_000);

  it('pushes and pulls at a port of the repository', async () => {
    const repoPort = await freePort();
    const proxy = await proxyAs({
      dockerReverseProxyMethod: 'portPerRepo',
      reverseProxyRepositories: [{ repoKey: 'docker-local', port: repoPort }],
    });
    try {
      await pushAndPull(`127.0.0.1:${repoPort}/behind-proxy`, 'by-port', skopeo);
    } finally {
      await proxy.stop();
    }
  });

  it('pushes and pulls at a port of the repository behind Apache httpd', async () => {
    const repoPort = await freePort();
    const proxy = await proxyAs(
      {
        dockerReverseProxyMethod: 'portPerRepo',
        reverseProxyRepositories: [{ repoKey: 'docker-local', port: repoPort }],
      },
      'apache',
    );
    try {
      await pushAndPull(`127.0.0.1:${repoPort}/behind-proxy`, 'by-apache-port', skopeo);
    } finally {
      await proxy.stop();
    }
  });

  it('pushes and pulls at a sub domain of the repository', async () => {
    const proxy = await proxyAs({ dockerReverseProxyMethod: 'subDomain' });
    try {
      const host = `docker-local.${documented.serverName as string}:${proxy.httpPort}`;
      const via = (...args: string[]) => skopeoVia(`http://127.0.0.1:${proxy.httpPort}`, ...args);
      await pushAndPull(`${host}/behind-proxy`, 'by-sub-domain', via);
    } finally {
      await proxy.stop();
    }
  });

  it('pushes and pulls at a sub domain of the repository behind Apache httpd', async () => {
    const proxy = await proxyAs({ dockerReverseProxyMethod: 'subDomain' }, 'apache');
    try {
      const host = `docker-local.${documented.serverName as string}:${proxy.httpPort}`;
      const via = (...args: string[]) => skopeoVia(`http://127.0.0.1:${proxy.httpPort}`, ...args);
      await pushAndPull(`${host}/behind-proxy`, 'by-apache-sub-domain', via);
    } finally {
      await proxy.stop();
    }
  });
});

describe('a remote Docker repository proxying a registry', () => {
  let upstream: DistributionRegistry | undefined;
  let upstreamDigest: string;

  beforeAll(async () => {
    upstream = await startDistributionRegistry();
    await buildImage('proxied', 'amd64', 'hello through the proxy\n');
    // A single name upstream is Docker Hub's `library/` namespace, as clients write it.
    await skopeo(
      'copy',
      '--dest-tls-verify=false',
      'containers-storage:localhost/proxied',
      `docker://${upstream.host}/library/proxied:1`,
    );
    upstreamDigest = `sha256:${sha(await skopeo('inspect', '--raw', '--tls-verify=false', `docker://${upstream.host}/library/proxied:1`))}`;
    await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
    await depot.services.repositories.create({
      key: 'docker-remote',
      rclass: 'remote',
      packageType: 'docker',
      url: upstream.base,
      // Every pull of a tag asks the upstream again: with it stopped, the cache answers.
      retrievalCachePeriodSecs: 0,
    } as never);
  }, 120_000);
  afterAll(async () => {
    await upstream?.remove();
  });

  const pull = (name: string, layout: string) =>
    skopeo(
      'copy',
      '--src-tls-verify=false',
      '--src-creds',
      CREDS,
      remote(name),
      `oci:${join(work, layout)}:pulled`,
    );

  /** A registry listing as admin: its names and its `Link` to the next page. */
  async function listing(path: string) {
    const response = await depot.request(path, {
      headers: { authorization: `Basic ${Buffer.from(CREDS).toString('base64')}` },
    });
    expect(response.status, path).toBe(200);
    const body = (await response.json()) as { tags?: string[]; repositories?: string[] };
    return { names: body.tags ?? body.repositories, link: response.headers.get('link') };
  }

  it("lists the upstream's tags, page by page in Depot's own links, and its catalog", async () => {
    // More tags and another image upstream, as a client pushes them (anonymous there).
    const manifestUrl = `${upstream!.base}/v2/library/proxied/manifests`;
    const tagged = await fetch(`${manifestUrl}/1`, {
      headers: {
        accept:
          'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json',
      },
    });
    const manifest = Buffer.from(await tagged.arrayBuffer());
    for (const tag of ['2', '3', '4']) {
      const put = await fetch(`${manifestUrl}/${tag}`, {
        method: 'PUT',
        headers: { 'content-type': tagged.headers.get('content-type')! },
        body: new Uint8Array(manifest),
      });
      expect(put.status).toBe(201);
    }
    await skopeo(
      'copy',
      '--src-tls-verify=false',
      '--dest-tls-verify=false',
      `docker://${upstream!.host}/library/proxied:1`,
      `docker://${upstream!.host}/team/other:1`,
    );

    expect((await listing('/v2/docker-remote/proxied/tags/list')).names).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
    // This upstream answers whole lists whatever `n` says: Depot pages them.
    const first = await listing('/v2/docker-remote/proxied/tags/list?n=2');
    expect(first.names).toEqual(['1', '2']);
    expect(first.link).toBe('</v2/docker-remote/proxied/tags/list?n=2&last=2>; rel="next"');
    const second = await listing('/v2/docker-remote/proxied/tags/list?n=2&last=2');
    expect(second.names).toEqual(['3', '4']);
    expect(second.link).toBeNull();
    const atApiPath = await listing('/artifactory/api/docker/docker-remote/v2/_catalog');
    expect(atApiPath.names).toEqual(['library/proxied', 'team/other']);
    expect((await listing('/v2/_catalog')).names).toEqual(
      expect.arrayContaining(['docker-remote/library/proxied', 'docker-remote/team/other']),
    );
  });

  it('pulls through the remote, caches the manifest and layers, and serves them with the upstream stopped', async () => {
    await pull('docker-remote/proxied:1', 'through-remote');
    const pulled = await skopeo('inspect', '--raw', `oci:${join(work, 'through-remote')}:pulled`);
    expect(`sha256:${sha(pulled)}`).toBe(upstreamDigest);
    const { layers, config } = JSON.parse(pulled) as {
      layers: { digest: string }[];
      config: { digest: string };
    };
    const repo = await depot.services.artifacts.repository('docker-remote');
    const manifest = await depot.services.artifacts.findNode(repo.id, 'proxied/1/manifest.json');
    expect(manifest?.sha256).toBe(upstreamDigest.slice('sha256:'.length));
    for (const { digest } of [config, ...layers]) {
      const hex = digest.slice('sha256:'.length);
      const cached = await depot.services.artifacts.findNode(
        repo.id,
        `proxied/_blobs/sha256__${hex}`,
      );
      expect(cached?.sha256).toBe(hex);
    }
    const properties = await depot.request(
      '/artifactory/api/storage/docker-remote/proxied/1/manifest.json?properties',
    );
    expect(
      ((await properties.json()) as { properties: Record<string, string[]> }).properties,
    ).toMatchObject({
      'docker.repoName': ['proxied'],
      'docker.manifest': ['1'],
      'docker.manifest.digest': [upstreamDigest],
    });

    await upstream!.stop();
    await pull('docker-remote/proxied:1', 'from-cache');
    const again = await skopeo('inspect', '--raw', `oci:${join(work, 'from-cache')}:pulled`);
    expect(`sha256:${sha(again)}`).toBe(upstreamDigest);
    await pull(`docker-remote/proxied@${upstreamDigest}`, 'by-digest');
    await depot.services.repositories.create({
      key: 'docker-all',
      rclass: 'virtual',
      packageType: 'docker',
      repositories: ['docker-local', 'docker-remote'],
      defaultDeploymentRepo: 'docker-local',
    } as never);
    await pull('docker-all/proxied:1', 'through-virtual');
    const virtual = await skopeo('inspect', '--raw', `oci:${join(work, 'through-virtual')}:pulled`);
    expect(`sha256:${sha(virtual)}`).toBe(upstreamDigest);
  });

  it('lists what the cache holds while the upstream is stopped', async () => {
    // The test before pulled tag 1 and stopped the upstream.
    expect((await listing('/v2/docker-remote/proxied/tags/list')).names).toEqual(['1']);
    const page = await listing('/v2/docker-remote/proxied/tags/list?n=1');
    expect(page).toEqual({ names: ['1'], link: null });
    expect((await listing('/artifactory/api/docker/docker-remote/v2/_catalog')).names).toEqual([
      'proxied',
    ]);
  });

  it('follows an upstream Bearer challenge with the repository credentials', async () => {
    // Depot's own registry is an upstream that challenges: a remote of its docker-local.
    await skopeo(
      'copy',
      '--src-tls-verify=false',
      '--dest-tls-verify=false',
      '--src-creds',
      CREDS,
      '--dest-creds',
      CREDS,
      remote('docker-local/app:1.0'),
      remote('docker-local/team/app:1.0'),
    );
    for (const [key, password] of [
      ['docker-token-remote', TEST_ADMIN_PASSWORD],
      ['docker-wrong-password', 'not the password'],
    ])
      await depot.services.repositories.create({
        key,
        rclass: 'remote',
        packageType: 'docker',
        url: `${depot.base}/artifactory/api/docker/docker-local`,
        username: 'admin',
        password,
      } as never);
    await pull('docker-token-remote/team/app:1.0', 'through-token');
    const pulled = await skopeo('inspect', '--raw', `oci:${join(work, 'through-token')}:pulled`);
    expect(`sha256:${sha(pulled)}`).toBe(await digestInDepot('docker-local/team/app', '1.0'));
    const refused = await depot.request('/v2/docker-wrong-password/team/app/manifests/1.0', {
      headers: { accept: 'application/vnd.oci.image.manifest.v1+json' },
    });
    expect(refused.status).toBe(502);
  });
});
