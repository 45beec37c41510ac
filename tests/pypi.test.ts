import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { buildSdist, buildWheel } from './helpers/python-dists.ts';
import { TEST_ADMIN_PASSWORD } from './helpers/test-app.ts';

const adminBasic = () => `Basic ${Buffer.from(`admin:${TEST_ADMIN_PASSWORD}`).toString('base64')}`;

const run = promisify(execFile);

/**
 * PyPI against Depot with the real clients: Debian's twine uploads wheels and sdists, pip
 * installs through a virtual repository whose remote member proxies a second Depot.
 */
let depot: HttpDepot;
let upstream: HttpDepot;
let work: string;

const pypiBase = (server: HttpDepot, key: string) => `${server.base}/artifactory/api/pypi/${key}`;
/** The index URL with credentials in it, as pip takes them. */
const indexUrl = (server: HttpDepot, key: string) =>
  pypiBase(server, key).replace('://', `://admin:${TEST_ADMIN_PASSWORD}@`) + '/simple';

// Only what the clients need: nothing of the machine's pip or twine configuration.
const clientEnv = () => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: work,
  PIP_CONFIG_FILE: '/dev/null',
  PIP_NO_INPUT: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
});

async function pypiRepository(server: HttpDepot, key: string, rclass: string, extra = {}) {
  await server.services.repositories.create({
    key,
    rclass,
    packageType: 'pypi',
    ...extra,
  } as never);
}

/** Writes distributions to disk and uploads them with twine. */
async function twineUpload(
  server: HttpDepot,
  repoKey: string,
  dists: { filename: string; content: Buffer }[],
) {
  const dir = mkdtempSync(join(work, 'dist-'));
  for (const dist of dists) writeFileSync(join(dir, dist.filename), dist.content);
  return run(
    'twine',
    [
      'upload',
      '--non-interactive',
      '--disable-progress-bar',
      '--repository-url',
      pypiBase(server, repoKey),
      '-u',
      'admin',
      '-p',
      TEST_ADMIN_PASSWORD,
      ...dists.map((d) => join(dir, d.filename)),
    ],
    { env: clientEnv(), timeout: 120_000 },
  );
}

async function pipInstall(requirements: string[]) {
  const target = mkdtempSync(join(work, 'site-'));
  await run(
    'python3',
    [
      '-m',
      'pip',
      'install',
      '--no-cache-dir',
      '--target',
      target,
      '--index-url',
      indexUrl(depot, 'pypi'),
      ...requirements,
    ],
    { env: clientEnv(), timeout: 120_000 },
  );
  return readdirSync(target).sort();
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'depot-pypi-'));
  [depot, upstream] = await Promise.all([startHttpDepot(), startHttpDepot()]);
  await pypiRepository(upstream, 'pypi-upstream', 'local');
  await pypiRepository(depot, 'pypi-local', 'local');
  await pypiRepository(depot, 'pypi-remote', 'remote', {
    url: pypiBase(upstream, 'pypi-upstream'),
    username: 'admin',
    password: TEST_ADMIN_PASSWORD,
  });
  await pypiRepository(depot, 'pypi', 'virtual', {
    repositories: ['pypi-local', 'pypi-remote'],
    defaultDeploymentRepo: 'pypi-local',
  });
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
}, 60_000);

afterAll(async () => {
  await Promise.all([depot?.close(), upstream?.close()]);
  rmSync(work, { recursive: true, force: true });
});

describe('PyPI with twine and pip', () => {
  it('takes a wheel and an sdist from twine', async () => {
    const demo = {
      name: 'depot-demo-py',
      version: '1.0.0',
      requiresPython: '>=3.8',
      requiresDist: ['upstream-lib>=2'],
    };
    await twineUpload(depot, 'pypi-local', [await buildWheel(demo), await buildSdist(demo)]);
    const info = await depot.request(
      '/artifactory/api/storage/pypi-local/depot-demo-py/1.0.0/depot_demo_py-1.0.0-py3-none-any.whl?properties',
    );
    expect(
      ((await info.json()) as { properties: Record<string, string[]> }).properties,
    ).toMatchObject({
      'pypi.name': ['depot-demo-py'],
      'pypi.version': ['1.0.0'],
      'pypi.requires_python': ['>=3.8'],
    });
  });

  it('serves PEP 503 HTML with hashes and Requires-Python, and PEP 691 JSON', async () => {
    const html = await depot.request('/artifactory/api/pypi/pypi-local/simple/depot-demo-py/');
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await html.text();
    expect(page).toMatch(
      /<a href="http:\/\/127\.0\.0\.1:\d+\/artifactory\/api\/pypi\/pypi-local\/packages\/depot-demo-py\/1\.0\.0\/depot_demo_py-1\.0\.0-py3-none-any\.whl#sha256=[0-9a-f]{64}" data-requires-python="&gt;=3\.8">depot_demo_py-1\.0\.0-py3-none-any\.whl<\/a>/,
    );
    expect(page).toContain('>depot_demo_py-1.0.0.tar.gz</a>');
    const json = await depot.request('/artifactory/api/pypi/pypi-local/simple/depot-demo-py/', {
      headers: { accept: 'application/vnd.pypi.simple.v1+json' },
    });
    expect(json.headers.get('content-type')).toMatch(/^application\/vnd\.pypi\.simple\.v1\+json/);
    const body = (await json.json()) as {
      name: string;
      files: { filename: string; hashes: object }[];
    };
    expect(body.name).toBe('depot-demo-py');
    expect(body.files.map((f) => f.filename).sort()).toEqual([
      'depot_demo_py-1.0.0-py3-none-any.whl',
      'depot_demo_py-1.0.0.tar.gz',
    ]);
    // Other spellings of the name lead to the normalized page.
    const other = await depot.request('/artifactory/api/pypi/pypi-local/simple/Depot_Demo.Py/', {
      redirect: 'manual',
    });
    expect(other.status).toBe(301);
    expect(other.headers.get('location')).toMatch(/\/simple\/depot-demo-py\/$/);
    const root = await (await depot.request('/artifactory/api/pypi/pypi-local/simple/')).text();
    expect(root).toContain('>depot-demo-py</a>');
  });

  it("answers PEP 691's latest+json with JSON, and HTML to browsers and to latest+html", async () => {
    const page = '/artifactory/api/pypi/pypi-local/simple/depot-demo-py/';
    const asked = async (accept: string) =>
      (await depot.request(page, { headers: { accept } })).headers.get('content-type');
    for (const accept of [
      'application/vnd.pypi.simple.latest+json',
      'application/vnd.pypi.simple.latest+json, application/vnd.pypi.simple.latest+html;q=0.2',
    ]) {
      expect(await asked(accept), accept).toMatch(/^application\/vnd\.pypi\.simple\.v1\+json/);
    }
    const json = await depot.request('/artifactory/api/pypi/pypi-local/simple/', {
      headers: { accept: 'application/vnd.pypi.simple.latest+json' },
    });
    expect(await json.json()).toMatchObject({
      meta: { 'api-version': '1.0' },
      projects: expect.arrayContaining([{ name: 'depot-demo-py' }]),
    });
    for (const accept of [
      'text/html,application/xhtml+xml,*/*;q=0.8',
      '*/*',
      'application/vnd.pypi.simple.latest+html, application/vnd.pypi.simple.latest+json;q=0.5',
    ]) {
      expect(await asked(accept), accept).toMatch(/^text\/html/);
    }
  });

  it('indexes a distribution deployed by path as an upload, from the metadata inside it', async () => {
    const meta = { name: 'path-put-py', version: '2.1.0', requiresPython: '>=3.9' };
    const dists = [await buildWheel(meta), await buildSdist(meta)];
    for (const dist of dists) {
      const put = await depot.request(
        `/artifactory/pypi-local/path-put-py/2.1.0/${dist.filename}`,
        {
          method: 'PUT',
          body: new Uint8Array(dist.content),
          headers: { authorization: adminBasic() },
        },
      );
      expect(put.status).toBe(201);
    }
    const props = await depot.request(
      `/artifactory/api/storage/pypi-local/path-put-py/2.1.0/${dists[1]!.filename}?properties`,
    );
    expect(((await props.json()) as { properties: object }).properties).toMatchObject({
      'pypi.name': ['path-put-py'],
      'pypi.version': ['2.1.0'],
      'pypi.summary': ['The path-put-py test package'],
      'pypi.requires_python': ['>=3.9'],
    });
    const page = await (
      await depot.request('/artifactory/api/pypi/pypi-local/simple/path-put-py/')
    ).text();
    expect(page).toContain('data-requires-python="&gt;=3.9">path_put_py-2.1.0.tar.gz</a>');
    // The package browser's index holds the version, with the description from the body.
    const version = await depot.services.db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['p.name', 'v.version', 'v.description', 'v.readme', 'v.readme_filename'])
      .where('p.name', '=', 'path-put-py')
      .executeTakeFirstOrThrow();
    expect(version).toEqual({
      name: 'path-put-py',
      version: '2.1.0',
      description: 'The path-put-py test package',
      readme: '# path-put-py',
      readme_filename: 'text/markdown',
    });
    // A file that is no distribution is stored as any file, unindexed.
    const notes = await depot.request('/artifactory/pypi-local/path-put-py/NOTES.txt', {
      method: 'PUT',
      body: 'notes',
      headers: { authorization: adminBasic() },
    });
    expect(notes.status).toBe(201);
  });

  it('installs an sdist with pip: pip downloads it from Depot, builds it and installs it', async () => {
    const sourceOnly = { name: 'depot-source-only', version: '0.3.0' };
    await twineUpload(depot, 'pypi-local', [await buildSdist(sourceOnly, { installable: true })]);
    // No wheel of it anywhere: pip must take the .tar.gz the simple page links.
    const installed = await pipInstall(['depot-source-only==0.3.0']);
    expect(installed).toEqual(
      expect.arrayContaining(['depot_source_only', 'depot_source_only-0.3.0.dist-info']),
    );
    const stats = await depot.request(
      '/artifactory/api/storage/pypi-local/depot-source-only/0.3.0/depot_source_only-0.3.0.tar.gz?stats',
    );
    expect(((await stats.json()) as { downloadCount: number }).downloadCount).toBe(1);
  });

  it('installs with pip through the virtual, the dependency from the remote member', async () => {
    await twineUpload(upstream, 'pypi-upstream', [
      await buildWheel({ name: 'upstream-lib', version: '2.1.0' }),
    ]);
    const installed = await pipInstall(['depot-demo-py==1.0.0']);
    expect(installed).toEqual(
      expect.arrayContaining([
        'depot_demo_py',
        'depot_demo_py-1.0.0.dist-info',
        'upstream_lib',
        'upstream_lib-2.1.0.dist-info',
      ]),
    );
    const cached = await depot.request(
      '/artifactory/api/storage/pypi-remote/upstream-lib/2.1.0/upstream_lib-2.1.0-py3-none-any.whl',
    );
    expect(cached.status).toBe(200);
  });
});

/** A multipart upload as twine sends it, for the refusals twine itself would never send. */
async function rawUpload(
  fields: Record<string, string>,
  file?: { filename: string; content: Buffer },
) {
  const form = new FormData();
  form.set(':action', 'file_upload');
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  if (file) form.set('content', new Blob([new Uint8Array(file.content)]), file.filename);
  return depot.request('/artifactory/api/pypi/pypi-local', { method: 'POST', body: form });
}

const messageOf = async (response: Response) =>
  ((await response.json()) as { errors: { message: string }[] }).errors[0]!.message;

describe('PyPI refusals lose nothing', () => {
  it('refuses a wheel with a bad file name', async () => {
    const wheel = await buildWheel({ name: 'oddly', version: '1.0' });
    const response = await rawUpload(
      { name: 'oddly', version: '1.0' },
      { filename: 'oddly.whl', content: wheel.content },
    );
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toMatch(/^Invalid distribution file name 'oddly\.whl'/);
    expect((await depot.request('/artifactory/api/storage/pypi-local/oddly')).status).toBe(404);
  });

  it('refuses a file of another project or version, and a version that is not PEP 440', async () => {
    const wheel = await buildWheel({ name: 'alpha', version: '1.0' });
    const mismatch = await rawUpload({ name: 'beta', version: '1.0' }, wheel);
    expect(mismatch.status).toBe(400);
    expect(await messageOf(mismatch)).toBe(
      "The file 'alpha-1.0-py3-none-any.whl' does not belong to beta 1.0",
    );
    const bad = await rawUpload({ name: 'alpha', version: 'one' }, wheel);
    expect(bad.status).toBe(400);
    expect(await messageOf(bad)).toBe("Invalid version 'one': not a PEP 440 version");
    expect((await depot.request('/artifactory/api/storage/pypi-local/alpha')).status).toBe(404);
  });

  it('refuses a second upload of the same file, as twine expects (409)', async () => {
    const wheel = await buildWheel({ name: 'depot-demo-py', version: '1.0.0' });
    const again = await rawUpload({ name: 'depot-demo-py', version: '1.0.0' }, wheel);
    expect(again.status).toBe(409);
    expect(await messageOf(again)).toBe(
      'File already exists: depot_demo_py-1.0.0-py3-none-any.whl',
    );
  });

  it('refuses a file that does not match its sha256_digest, and a form without a file', async () => {
    const wheel = await buildWheel({ name: 'gamma', version: '1.0' });
    const tampered = await rawUpload(
      { name: 'gamma', version: '1.0', sha256_digest: '0'.repeat(64) },
      wheel,
    );
    expect(tampered.status).toBe(409);
    expect(await messageOf(tampered)).toMatch(/^Checksum mismatch/i);
    const empty = await rawUpload({ name: 'gamma', version: '1.0' });
    expect(empty.status).toBe(400);
    expect(await messageOf(empty)).toBe("The upload has no file in its 'content' field");
    expect((await depot.request('/artifactory/api/storage/pypi-local/gamma')).status).toBe(404);
  });
});
