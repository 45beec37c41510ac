import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpDepot } from './helpers/http-depot.ts';
import { npmRegistry, npmRepository, startNpmTopology } from './helpers/npm-topology.ts';
import { npmCli, npmrc, packTarball, publishDocument, type NpmCli } from './helpers/npm-cli.ts';
import { startScriptedUpstream } from './helpers/scripted-upstream.ts';
import { NPM_MESSAGES } from '../server/formats/npm/messages.ts';
import { basic, TEST_ADMIN_PASSWORD } from './helpers/test-app.ts';

/**
 * npm against Depot with the real npm CLI: publish to a virtual repository (landing in its
 * local member), install through the virtual whose remote member proxies a second Depot,
 * view, dist-tag, deprecate, unpublish, login, whoami and search; and the refusals.
 */
let depot: HttpDepot;
let upstream: HttpDepot;
let cli: NpmCli;
let upstreamCli: NpmCli;
let token: string;

const registry = npmRegistry;

/** The login call exactly as `npm login --auth-type=legacy` sends it. */
async function login(server: HttpDepot, name: string, password: string) {
  return fetch(`${registry(server, 'npm-local')}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password, type: 'user' }),
  });
}

beforeAll(async () => {
  ({ depot, upstream } = await startNpmTopology());
  const answer = await login(depot, 'admin', TEST_ADMIN_PASSWORD);
  token = ((await answer.json()) as { token: string }).token;
  cli = npmCli(
    npmrc(registry(depot, 'npm'), {
      [registry(depot, 'npm')]: `_authToken=${token}`,
      [registry(depot, 'npm-local')]: `_authToken=${token}`,
    }),
  );
  const upstreamAuth = Buffer.from(`admin:${TEST_ADMIN_PASSWORD}`).toString('base64');
  upstreamCli = npmCli(
    npmrc(registry(upstream, 'npm-upstream'), {
      [registry(upstream, 'npm-upstream')]: `_auth=${upstreamAuth}`,
    }),
  );
}, 60_000);

afterAll(async () => {
  cli?.close();
  upstreamCli?.close();
  await Promise.all([depot?.close(), upstream?.close()]);
});

describe('npm with the real npm CLI', () => {
  it('signs in with npm login’s call and knows the user by the token (whoami)', async () => {
    expect(token).toMatch(/^eyJ/);
    const { stdout } = await cli.npm(['whoami']);
    expect(stdout.trim()).toBe('admin');
    const refused = await login(depot, 'admin', 'wrong-password');
    expect(refused.status).toBe(401);
  });

  it('signs in with `npm login` itself, its prompts answered, and the token it keeps works', async () => {
    const fresh = npmCli(npmrc(registry(depot, 'npm'), {}));
    try {
      // The legacy login: npm's prompts for name and password (the web login is below).
      const wrong = await fresh.npmAnswering(['login', '--auth-type=legacy'], {
        'Username:': 'admin',
        'Password:': 'wrong-password',
      });
      expect(wrong.code).not.toBe(0);
      expect(wrong.output).toContain('401');
      const signedIn = await fresh.npmAnswering(['login', '--auth-type=legacy'], {
        'Username:': 'admin',
        'Password:': TEST_ADMIN_PASSWORD,
      });
      expect(signedIn.code, signedIn.output).toBe(0);
      expect(signedIn.output).toContain('Logged in');
      const kept = readFileSync(join(fresh.home, '.npmrc'), 'utf8');
      expect(kept).toMatch(/:_authToken=eyJ/);
      expect(kept).not.toContain(TEST_ADMIN_PASSWORD);
      expect((await fresh.npm(['whoami'])).stdout.trim()).toBe('admin');
      // `npm adduser` of an existing user signs in the same way; Depot makes no users for npm.
      const added = await fresh.npmAnswering(['adduser', '--auth-type=legacy'], {
        'Username:': 'admin',
        'Password:': TEST_ADMIN_PASSWORD,
        'Email (this will be public):': 'admin@example.com',
      });
      expect(added.code, added.output).toBe(0);
      const stranger = await fresh.npmAnswering(['adduser', '--auth-type=legacy'], {
        'Username:': 'newcomer',
        'Password:': 'newcomer-pass-1',
        'Email (this will be public):': 'newcomer@example.com',
      });
      expect(stranger.code).not.toBe(0);
    } finally {
      fresh.close();
    }
  });

  it('signs in with `npm login` on the web, approved in the console, and once only', async () => {
    const fresh = npmCli(npmrc(registry(depot, 'npm'), {}));
    const adminHeaders = { authorization: basic('admin', TEST_ADMIN_PASSWORD) };
    const consoleCall = (method: string, path: string) =>
      depot.request(`/ui/api/v1${path}`, { method, headers: adminHeaders });
    try {
      let loginId: string | undefined;
      let approval: Promise<Response> | undefined;
      const signedIn = await fresh.npmWatching(['login'], (output) => {
        // npm prints the login URL (no browser here) and polls until it is approved.
        const match = /\/ui\/npm-login\/([A-Za-z0-9_-]+)/.exec(output);
        if (!match || loginId) return;
        loginId = match[1];
        approval = (async () => {
          const asked = await consoleCall('GET', `/npm/login/${loginId}`);
          expect(await asked.json()).toMatchObject({ repoKey: 'npm', state: 'pending' });
          return consoleCall('POST', `/npm/login/${loginId}/approve`);
        })();
      });
      expect(signedIn.code, signedIn.output).toBe(0);
      expect(signedIn.output).toContain('Logged in');
      expect((await approval!).status).toBe(200);
      const kept = readFileSync(join(fresh.home, '.npmrc'), 'utf8');
      expect(kept).toMatch(/:_authToken=eyJ/);
      expect((await fresh.npm(['whoami'])).stdout.trim()).toBe('admin');
      // The page's id is spent: a second approval finds nothing to approve.
      const again = await consoleCall('POST', `/npm/login/${loginId}/approve`);
      expect(again.status).toBe(404);

      // Denied in the console: npm stops without a token.
      const denier = npmCli(npmrc(registry(depot, 'npm'), {}));
      try {
        let denied = false;
        const refused = await denier.npmWatching(['login'], (output) => {
          const match = /\/ui\/npm-login\/([A-Za-z0-9_-]+)/.exec(output);
          if (!match || denied) return;
          denied = true;
          void consoleCall('POST', `/npm/login/${match[1]}/deny`);
        });
        expect(refused.code).not.toBe(0);
        expect(readFileSync(join(denier.home, '.npmrc'), 'utf8')).not.toContain('_authToken');
      } finally {
        denier.close();
      }
    } finally {
      fresh.close();
    }
  });

  it("answers npm's web login calls: 202 until approved, the token once, 404 for unknown ids", async () => {
    const started = await depot.request('/artifactory/api/npm/npm/-/v1/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(started.status).toBe(200);
    const { loginUrl, doneUrl } = (await started.json()) as { loginUrl: string; doneUrl: string };
    expect(loginUrl).toMatch(new RegExp(`^${depot.base}/ui/npm-login/[A-Za-z0-9_-]{32}$`));
    expect(doneUrl).toMatch(
      new RegExp(`^${depot.base}/artifactory/api/npm/npm/-/v1/done/[A-Za-z0-9_-]{32}$`),
    );
    const loginId = loginUrl.split('/').at(-1)!;
    expect(doneUrl).not.toContain(loginId);
    const waiting = await fetch(doneUrl);
    expect(waiting.status).toBe(202);
    expect(waiting.headers.get('retry-after')).toBe('1');
    // Anonymous callers cannot approve; the signed-in user can.
    const anonymous = await fetch(`${depot.base}/ui/api/v1/npm/login/${loginId}/approve`, {
      method: 'POST',
    });
    expect(anonymous.status).toBe(401);
    const approved = await depot.request(`/ui/api/v1/npm/login/${loginId}/approve`, {
      method: 'POST',
      headers: { authorization: basic('admin', TEST_ADMIN_PASSWORD) },
    });
    expect(approved.status).toBe(200);
    const done = await fetch(doneUrl);
    expect(done.status).toBe(200);
    const { token } = (await done.json()) as { token: string };
    const whoami = await depot.request('/artifactory/api/npm/npm/-/whoami', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await whoami.json()).toEqual({ username: 'admin' });
    expect((await fetch(doneUrl)).status).toBe(404);
    // Whether a repository exists is not told to whoever starts a login.
    const unknownRepo = await fetch(`${depot.base}/artifactory/api/npm/no-such-repo/-/v1/login`, {
      method: 'POST',
    });
    expect(unknownRepo.status).toBe(200);
  });

  it('publishes plain and scoped packages through the virtual into its local member', async () => {
    const demo = cli.packageDir(
      { name: 'depot-demo', version: '1.0.0', description: 'A demo package', keywords: ['demo'] },
      '# depot-demo\n\nThe readme.\n',
    );
    await cli.npm(['publish'], demo);
    writeFileSync(
      join(demo, 'package.json'),
      JSON.stringify({ name: 'depot-demo', version: '1.1.0', description: 'A demo package' }),
    );
    await cli.npm(['publish'], demo);
    const scoped = cli.packageDir({ name: '@acme/tool', version: '0.3.0' });
    await cli.npm(['publish', '--access', 'public'], scoped);

    const info = await depot.request(
      '/artifactory/api/storage/npm-local/depot-demo/-/depot-demo-1.1.0.tgz',
    );
    expect(info.status).toBe(200);
    const scopedInfo = await depot.request(
      '/artifactory/api/storage/npm-local/@acme/tool/-/tool-0.3.0.tgz',
    );
    expect(scopedInfo.status).toBe(200);
  });

  it('installs from local and remote members through the virtual, with the lockfile on Depot', async () => {
    const lib = upstreamCli.packageDir({ name: 'upstream-lib', version: '2.0.0' });
    await upstreamCli.npm(['publish'], lib);

    const project = join(cli.home, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        version: '1.0.0',
        private: true,
        dependencies: { 'depot-demo': '^1.0.0', '@acme/tool': '0.3.0', 'upstream-lib': '2.x' },
      }),
    );
    await cli.npm(['install'], project);
    const installed = (name: string) =>
      JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'));
    expect(installed('depot-demo').version).toBe('1.1.0');
    expect(installed('@acme/tool').version).toBe('0.3.0');
    expect(installed('upstream-lib').version).toBe('2.0.0');
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
    expect(lock.packages['node_modules/upstream-lib'].resolved).toBe(
      `${registry(depot, 'npm')}upstream-lib/-/upstream-lib-2.0.0.tgz`,
    );
    // The remote member cached the upstream's document and tarball.
    const cached = await depot.request(
      '/artifactory/api/storage/npm-remote/upstream-lib/-/upstream-lib-2.0.0.tgz',
    );
    expect(cached.status).toBe(200);
  });

  it('lets npm reuse a document for a minute, and still finds a version published meanwhile', async () => {
    const fresh = cli.packageDir({ name: 'fresh-pkg', version: '1.0.0' });
    await cli.npm(['publish'], fresh);
    const project = cli.packageDir({ name: 'fresh-consumer', version: '0.0.0', private: true });
    await cli.npm(['install', 'fresh-pkg@1.0.0'], project);
    const answer = await depot.request('/artifactory/api/npm/npm/fresh-pkg', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.headers.get('cache-control')).toBe('private, max-age=60');
    // 1.1.0 appears while npm's cached document still lacks it: npm asks again for it.
    writeFileSync(
      join(fresh, 'package.json'),
      JSON.stringify({ name: 'fresh-pkg', version: '1.1.0' }),
    );
    await cli.npm(['publish'], fresh);
    await cli.npm(['install', 'fresh-pkg@1.1.0'], project);
    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules', 'fresh-pkg', 'package.json'), 'utf8'),
    );
    expect(installed.version).toBe('1.1.0');
  });

  it('views versions, moves dist-tags and deprecates', async () => {
    const versions = await cli.npm(['view', 'depot-demo', 'versions', '--json']);
    expect(JSON.parse(versions.stdout)).toEqual(['1.0.0', '1.1.0']);
    await cli.npm(['dist-tag', 'add', 'depot-demo@1.0.0', 'stable']);
    const tags = await cli.npm(['dist-tag', 'ls', 'depot-demo']);
    expect(tags.stdout).toContain('stable: 1.0.0');
    expect(tags.stdout).toContain('latest: 1.1.0');
    // The local repository answers from its package row, the virtual from its packument.
    const local = await depot.request(
      '/artifactory/api/npm/npm-local/-/package/depot-demo/dist-tags',
      {
        headers: { authorization: basic('admin', TEST_ADMIN_PASSWORD) },
      },
    );
    expect(await local.json()).toEqual({ latest: '1.1.0', stable: '1.0.0' });
    await cli.npm(['dist-tag', 'rm', 'depot-demo', 'stable']);
    expect((await cli.npm(['dist-tag', 'ls', 'depot-demo'])).stdout).not.toContain('stable');

    await cli.npm(['deprecate', 'depot-demo@1.0.0', 'use 1.1 instead']);
    const deprecated = await cli.npm(['view', 'depot-demo@1.0.0', 'deprecated']);
    expect(deprecated.stdout.trim()).toBe('use 1.1 instead');
    const view = await cli.npm(['view', 'depot-demo', '--json']);
    expect(JSON.parse(view.stdout)).toMatchObject({
      name: 'depot-demo',
      description: 'A demo package',
      'dist-tags': { latest: '1.1.0' },
    });
  });

  it('searches the packages of the repository', async () => {
    const { stdout } = await cli.npm(['search', 'demo', '--json']);
    const found = JSON.parse(stdout) as { name: string; version: string; description: string }[];
    expect(found).toEqual([
      expect.objectContaining({
        name: 'depot-demo',
        version: '1.1.0',
        description: 'A demo package',
      }),
    ]);
  });

  it('unpublishes one version, then the whole package', async () => {
    await cli.npm(['unpublish', 'depot-demo@1.0.0']);
    const versions = await cli.npm(['view', 'depot-demo', 'versions', '--json']);
    expect(JSON.parse(versions.stdout)).toEqual(['1.1.0']);
    const gone = await depot.request(
      '/artifactory/api/storage/npm-local/depot-demo/-/depot-demo-1.0.0.tgz',
    );
    expect(gone.status).toBe(404);
    await cli.npm(['unpublish', '@acme/tool', '--force']);
    const missing = await depot.request('/artifactory/api/npm/npm-local/@acme%2ftool');
    expect(missing.status).toBe(404);
  });

  it('refuses a republish of an existing version, as the npm CLI shows', async () => {
    const again = cli.packageDir({ name: 'depot-demo', version: '1.1.0' });
    const failure = await cli.npm(['publish'], again).catch((error: { stderr: string }) => error);
    expect((failure as { stderr: string }).stderr).toContain(
      'You cannot publish over the previously published versions: 1.1.0.',
    );
  });
});

async function publishRaw(name: string, document: unknown) {
  return depot.request(`/artifactory/api/npm/npm-local/${name.replace('/', '%2f')}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(document),
  });
}

const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

describe('npm refusals lose nothing', () => {
  it('refuses a tarball whose package.json disagrees with the document', async () => {
    const tarball = await packTarball({
      'package.json': JSON.stringify({ name: 'other-name', version: '1.0.0' }),
    });
    const response = await publishRaw('liar', publishDocument('liar', '1.0.0', tarball));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toBe(
      "The tarball's package.json is other-name@1.0.0, but the document publishes liar@1.0.0",
    );
    const stored = await depot.request('/artifactory/api/storage/npm-local/liar');
    expect(stored.status).toBe(404);
    expect((await depot.request('/artifactory/api/npm/npm-local/liar')).status).toBe(404);
  });

  it('refuses a version string that is not a version', async () => {
    const tarball = await packTarball({
      'package.json': JSON.stringify({ name: 'badver', version: 'one' }),
    });
    const response = await publishRaw('badver', publishDocument('badver', 'one', tarball));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toBe('Invalid version: "one"');
  });

  it('refuses a tarball that does not match its checksum, and one that is not gzip', async () => {
    const tarball = await packTarball({
      'package.json': JSON.stringify({ name: 'tampered', version: '1.0.0' }),
    });
    const document = publishDocument('tampered', '1.0.0', tarball);
    document.versions['1.0.0'].dist.shasum = '0'.repeat(40);
    const response = await publishRaw('tampered', document);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toBe(
      'The tarball does not match the checksum the document gives (dist.shasum)',
    );
    const garbage = Buffer.from('not a tarball');
    const broken = await publishRaw('tampered', publishDocument('tampered', '1.0.0', garbage));
    expect(broken.status).toBe(400);
    expect(await errorOf(broken)).toMatch(/^The package tarball could not be read/);
    expect((await depot.request('/artifactory/api/storage/npm-local/tampered')).status).toBe(404);
  });

  it('refuses a name that npm would refuse, and a URL that names another package', async () => {
    const tarball = await packTarball({
      'package.json': JSON.stringify({ name: 'Bad Name', version: '1.0.0' }),
    });
    const bad = await publishRaw('Bad%20Name', publishDocument('Bad Name', '1.0.0', tarball));
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatch(/^Invalid package name 'Bad Name'/);
    const elsewhere = await publishRaw('some-name', publishDocument('liar', '1.0.0', tarball));
    expect(elsewhere.status).toBe(400);
    expect(await errorOf(elsewhere)).toBe(
      "The package name in the URL ('some-name') and in the document ('liar') disagree",
    );
  });

  it('refuses a deploy without the Deploy permission', async () => {
    await depot.services.users.create({
      name: 'viewer',
      email: 'v@example.com',
      password: 'viewer-pass-1',
      groups: ['readers'],
    });
    const tarball = await packTarball({
      'package.json': JSON.stringify({ name: 'sneaky', version: '1.0.0' }),
    });
    const response = await depot.request('/artifactory/api/npm/npm-local/sneaky', {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        authorization: basic('viewer', 'viewer-pass-1'),
      },
      body: JSON.stringify(publishDocument('sneaky', '1.0.0', tarball)),
    });
    expect(response.status).toBe(403);
    expect((await depot.request('/artifactory/api/storage/npm-local/sneaky')).status).toBe(404);
  });
});

describe('npm documents', () => {
  it('answers the abbreviated form when asked, with ETags and 304', async () => {
    const url = '/artifactory/api/npm/npm/depot-demo';
    const accept = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';
    const first = await depot.request(url, { headers: { accept } });
    expect(first.headers.get('content-type')).toMatch(/^application\/vnd\.npm\.install-v1\+json/);
    const body = (await first.json()) as { versions: Record<string, Record<string, unknown>> };
    expect(Object.keys(body.versions['1.1.0']!).sort()).toEqual(['dist', 'name', 'version']);
    const etag = first.headers.get('etag')!;
    const again = await depot.request(url, { headers: { accept, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const full = await depot.request(url);
    expect(full.headers.get('etag')).not.toBe(etag);
    const document = (await full.json()) as Record<string, unknown>;
    expect(document.readme).toBe('# depot-demo\n\nThe readme.\n');
    const dist = (document.versions as Record<string, { dist: { tarball: string } }>)['1.1.0']!;
    expect(dist.dist.tarball).toBe(`${registry(depot, 'npm')}depot-demo/-/depot-demo-1.1.0.tgz`);
  });

  it('indexes a tarball deployed by path, and forgets a version whose file is deleted', async () => {
    const tarball = await packTarball({
      'package.json': JSON.stringify({ name: 'by-path', version: '3.1.4' }),
      'README.md': 'by path',
    });
    const put = await depot.request('/artifactory/npm-local/by-path/-/by-path-3.1.4.tgz', {
      method: 'PUT',
      body: new Uint8Array(tarball),
    });
    expect(put.status).toBe(201);
    const document = (await (
      await depot.request('/artifactory/api/npm/npm-local/by-path')
    ).json()) as { 'dist-tags': Record<string, string>; readme: string };
    expect(document['dist-tags']).toEqual({ latest: '3.1.4' });
    expect(document.readme).toBe('by path');

    const misplaced = await depot.request('/artifactory/npm-local/by-path/-/by-path-9.9.9.tgz', {
      method: 'PUT',
      body: new Uint8Array(tarball),
    });
    expect(misplaced.status).toBe(400);

    await depot.request('/artifactory/npm-local/by-path/-/by-path-3.1.4.tgz', { method: 'DELETE' });
    expect((await depot.request('/artifactory/api/npm/npm-local/by-path')).status).toBe(404);
  });

  it('indexes a tarball that arrives by restore from the trash, or by copy', async () => {
    const restored = await depot.request(
      '/artifactory/api/trash/restore/npm-local/by-path/-/by-path-3.1.4.tgz',
      { method: 'POST' },
    );
    expect(restored.status).toBe(200);
    const back = await depot.request('/artifactory/api/npm/npm-local/by-path');
    expect(back.status).toBe(200);

    await npmRepository(depot, 'npm-copy', 'local');
    const copied = await depot.request(
      '/artifactory/api/copy/npm-local/by-path?to=/npm-copy/by-path',
      { method: 'POST' },
    );
    expect(copied.status).toBe(200);
    const document = (await (
      await depot.request('/artifactory/api/npm/npm-copy/by-path')
    ).json()) as { versions: Record<string, { dist: { tarball: string } }> };
    expect(document.versions['3.1.4']!.dist.tarball).toBe(
      `${registry(depot, 'npm-copy')}by-path/-/by-path-3.1.4.tgz`,
    );
  });
});

describe('npm audit without an upstream to ask', () => {
  it('is a 404 that says why, for a local repository', async () => {
    const answer = await depot.request(
      '/artifactory/api/npm/npm-local/-/npm/v1/security/advisories/bulk',
      {
        method: 'POST',
        headers: {
          authorization: basic('admin', TEST_ADMIN_PASSWORD),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ 'depot-demo': ['1.1.0'] }),
      },
    );
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { errors: { message: string }[] }).errors[0]!.message).toBe(
      NPM_MESSAGES.noAdvisories('npm-local'),
    );
  });
});

describe('a remote npm repository of a scripted upstream', () => {
  it("keeps the upstream's document for the retrieval cache period, and merges it under a local member's in a virtual", async () => {
    const upstreamHost = await startScriptedUpstream();
    try {
      const document = (versions: string[], latest: string, extraTags = {}) =>
        JSON.stringify({
          name: 'merged-pkg',
          'dist-tags': { latest, ...extraTags },
          versions: Object.fromEntries(
            versions.map((version) => [
              version,
              {
                name: 'merged-pkg',
                version,
                description: `upstream ${version}`,
                dist: { tarball: `${upstreamHost.base}/merged-pkg/-/merged-pkg-${version}.tgz` },
              },
            ]),
          ),
        });
      upstreamHost.file('/merged-pkg', document(['1.0.0', '2.0.0'], '2.0.0', { beta: '2.0.0' }));
      await npmRepository(depot, 'npm-cached', 'remote', {
        url: `${upstreamHost.base}/`,
        retrievalCachePeriodSecs: 3600,
      });
      await npmRepository(depot, 'npm-own', 'local');
      await npmRepository(depot, 'npm-merged', 'virtual', {
        repositories: ['npm-own', 'npm-cached'],
      });
      // the local member has 2.0.0 too (its own build) and a 1.5.0 the upstream lacks
      for (const version of ['1.5.0', '2.0.0']) {
        const tarball = await packTarball({
          'package.json': JSON.stringify({
            name: 'merged-pkg',
            version,
            description: `own ${version}`,
          }),
        });
        const published = await depot.request('/artifactory/api/npm/npm-own/merged-pkg', {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(
            publishDocument('merged-pkg', version, tarball, { description: `own ${version}` }),
          ),
        });
        expect(published.status, await published.text()).toBe(201);
      }

      const read = async (key: string) =>
        (await depot.request(`/artifactory/api/npm/${key}/merged-pkg`)).json();
      await read('npm-cached');
      await read('npm-cached');
      // within the period the document is answered from the cache: asked upstream once
      expect(upstreamHost.hits('/merged-pkg')).toBe(1);

      const merged = await read('npm-merged');
      expect(Object.keys(merged.versions).sort()).toEqual(['1.0.0', '1.5.0', '2.0.0']);
      // a version both have comes from the first member; the upstream's own tag is kept
      expect(merged.versions['2.0.0'].description).toBe('own 2.0.0');
      expect(merged.versions['1.0.0'].description).toBe('upstream 1.0.0');
      expect(merged['dist-tags']).toEqual({ latest: '2.0.0', beta: '2.0.0' });
      expect(merged.versions['1.0.0'].dist.tarball).toBe(
        `${registry(depot, 'npm-merged')}merged-pkg/-/merged-pkg-1.0.0.tgz`,
      );
      expect(upstreamHost.hits('/merged-pkg')).toBe(1);

      // The merge is kept by its members' documents: a publish into a member shows at once.
      const tarball = await packTarball({
        'package.json': JSON.stringify({ name: 'merged-pkg', version: '2.1.0' }),
      });
      const later = await depot.request('/artifactory/api/npm/npm-own/merged-pkg', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(publishDocument('merged-pkg', '2.1.0', tarball)),
      });
      expect(later.status, await later.text()).toBe(201);
      const remerged = await read('npm-merged');
      expect(Object.keys(remerged.versions).sort()).toEqual(['1.0.0', '1.5.0', '2.0.0', '2.1.0']);
      expect(remerged['dist-tags'].latest).toBe('2.1.0');

      // a zapped cache asks the upstream again at the next read
      const zapped = await depot.request('/ui/api/v1/ui/artifactactions/zap', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ repoKey: 'npm-cached', path: '' }),
      });
      expect(zapped.status, await zapped.text()).toBe(200);
      await read('npm-cached');
      expect(upstreamHost.hits('/merged-pkg')).toBe(2);
    } finally {
      await upstreamHost.close();
    }
  });

  it('fetches a tarball from another host without the upstream’s credentials, and asks the upstream for npm audit', async () => {
    const [registryHost, filesHost] = await Promise.all([
      startScriptedUpstream(),
      startScriptedUpstream(),
    ]);
    const consumer = npmCli(
      npmrc(registry(depot, 'npm-cdn'), { [registry(depot, 'npm-cdn')]: `_authToken=${token}` }),
    );
    try {
      const tarball = await packTarball({
        'package.json': JSON.stringify({ name: 'cdn-pkg', version: '1.0.0' }),
        'index.js': 'module.exports = "from the cdn";\n',
      });
      const dist = publishDocument('cdn-pkg', '1.0.0', tarball).versions['1.0.0'].dist;
      registryHost.file(
        '/cdn-pkg',
        JSON.stringify({
          name: 'cdn-pkg',
          'dist-tags': { latest: '1.0.0' },
          versions: {
            '1.0.0': {
              name: 'cdn-pkg',
              version: '1.0.0',
              dist: { ...dist, tarball: `${filesHost.base}/blobs/cdn-pkg-1.0.0.tgz` },
            },
          },
        }),
      );
      filesHost.file('/blobs/cdn-pkg-1.0.0.tgz', tarball);
      await npmRepository(depot, 'npm-cdn', 'remote', {
        url: `${registryHost.base}/`,
        username: 'mirror',
        password: 'mirror-secret',
      });

      const project = consumer.packageDir({
        name: 'cdn-consumer',
        version: '0.0.0',
        private: true,
      });
      await consumer.npm(['install', 'cdn-pkg'], project);
      const installed = readFileSync(join(project, 'node_modules', 'cdn-pkg', 'index.js'), 'utf8');
      expect(installed).toContain('from the cdn');
      expect(filesHost.hits('/blobs/cdn-pkg-1.0.0.tgz')).toBe(1);
      expect(filesHost.requests[0]!.headers.authorization).toBeUndefined();
      expect(registryHost.requests.every((r) => r.headers.authorization)).toBe(true);
      // Cached where any npm tarball is: the next install asks no upstream for it.
      const cached = await depot.request(
        '/artifactory/api/storage/npm-cdn/cdn-pkg/-/cdn-pkg-1.0.0.tgz',
      );
      expect(cached.status).toBe(200);

      // npm audit: its request goes to the upstream as npm sent it, the answer comes back.
      let asked: Record<string, string[]> = {};
      registryHost.handle('/-/npm/v1/security/advisories/bulk', (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const raw = Buffer.concat(chunks);
          const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
          asked = JSON.parse(body.toString('utf8'));
          response.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              'cdn-pkg': [
                {
                  id: 1001,
                  url: 'https://advisories.example/GHSA-test',
                  title: 'Prototype pollution in cdn-pkg',
                  severity: 'high',
                  vulnerable_versions: '<2.0.0',
                  cwe: ['CWE-1321'],
                  cvss: { score: 7.5, vectorString: null },
                },
              ],
            }),
          );
        });
      });
      const audit = await consumer.npm(['audit', '--json'], project).catch(
        (failure: { stdout: string }) => failure, // npm audit exits 1 when it finds something
      );
      expect(asked).toEqual({ 'cdn-pkg': ['1.0.0'] });
      const report = JSON.parse(audit.stdout) as {
        vulnerabilities: Record<string, { severity: string }>;
      };
      expect(report.vulnerabilities['cdn-pkg']).toMatchObject({ severity: 'high' });
    } finally {
      consumer.close();
      await Promise.all([registryHost.close(), filesHost.close()]);
    }
  });

  it('keeps the names of private packages out of what npm audit asks the upstream, in both request shapes', async () => {
    const upstreamHost = await startScriptedUpstream();
    const consumer = npmCli(
      npmrc(registry(depot, 'npm-audited'), {
        [registry(depot, 'npm-audited')]: `_authToken=${token}`,
      }),
    );
    try {
      const publicTarball = await packTarball({
        'package.json': JSON.stringify({ name: 'public-dep', version: '1.0.0' }),
      });
      const dist = publishDocument('public-dep', '1.0.0', publicTarball).versions['1.0.0'].dist;
      upstreamHost.file(
        '/public-dep',
        JSON.stringify({
          name: 'public-dep',
          'dist-tags': { latest: '1.0.0' },
          versions: {
            '1.0.0': {
              name: 'public-dep',
              version: '1.0.0',
              dist: { ...dist, tarball: `${upstreamHost.base}/public-dep/-/public-dep-1.0.0.tgz` },
            },
          },
        }),
      );
      upstreamHost.file('/public-dep/-/public-dep-1.0.0.tgz', publicTarball);
      // What the upstream is sent, unpacked, per path.
      const received = new Map<string, string>();
      const record = (path: string, answer: unknown) =>
        upstreamHost.handle(path, (request, response) => {
          const chunks: Buffer[] = [];
          request.on('data', (chunk: Buffer) => chunks.push(chunk));
          request.on('end', () => {
            const raw = Buffer.concat(chunks);
            const gzipped = request.headers['content-encoding'] === 'gzip';
            received.set(path, (gzipped ? gunzipSync(raw) : raw).toString('utf8'));
            response
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify(answer));
          });
        });
      const advisory = {
        id: 1002,
        url: 'https://advisories.example/GHSA-public',
        title: 'Command injection in public-dep',
        severity: 'critical',
        vulnerable_versions: '<2.0.0',
        cwe: ['CWE-78'],
        cvss: { score: 9.8, vectorString: null },
      };
      record('/-/npm/v1/security/advisories/bulk', { 'public-dep': [advisory] });
      record('/-/npm/v1/security/audits/quick', { advisories: {}, metadata: {} });

      await npmRepository(depot, 'npm-audit-remote', 'remote', { url: `${upstreamHost.base}/` });
      await npmRepository(depot, 'npm-private', 'local');
      await npmRepository(depot, 'npm-audited', 'virtual', {
        repositories: ['npm-private', 'npm-audit-remote'],
        defaultDeploymentRepo: 'npm-private',
      });
      const privateTarball = await packTarball({
        'package.json': JSON.stringify({
          name: 'acme-secret-ledger',
          version: '3.0.0',
          dependencies: { 'public-dep': '^1.0.0' },
        }),
      });
      const published = await depot.request('/artifactory/api/npm/npm-private/acme-secret-ledger', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          publishDocument('acme-secret-ledger', '3.0.0', privateTarball, {
            dependencies: { 'public-dep': '^1.0.0' },
          }),
        ),
      });
      expect(published.status, await published.text()).toBe(201);

      const project = consumer.packageDir({ name: 'audit-app', version: '0.0.0', private: true });
      await consumer.npm(['install', 'acme-secret-ledger'], project);
      const audit = await consumer.npm(['audit', '--json'], project).catch(
        (failure: { stdout: string }) => failure, // npm audit exits 1 when it finds something
      );
      const bulk = received.get('/-/npm/v1/security/advisories/bulk') ?? '';
      expect(JSON.parse(bulk)).toEqual({ 'public-dep': ['1.0.0'] });
      expect(bulk).not.toContain('acme-secret-ledger');
      const report = JSON.parse(audit.stdout) as {
        vulnerabilities: Record<string, { severity: string; via: unknown[] }>;
      };
      expect(report.vulnerabilities['public-dep']).toMatchObject({ severity: 'critical' });
      // The private package has no advisory of its own, only the one it inherits.
      expect(report.vulnerabilities['acme-secret-ledger']!.via).toEqual(['public-dep']);

      // npm 6's tree (and npm 7 to 9's fallback), gzipped as npm sends it: the private
      // name leaves every level, the public one stays.
      const tree = {
        name: 'acme-secret-ledger',
        version: '3.0.0',
        requires: { 'acme-secret-ledger': '^3.0.0', 'public-dep': '^1.0.0' },
        dependencies: {
          'acme-secret-ledger': {
            version: '3.0.0',
            requires: { 'public-dep': '^1.0.0' },
            dependencies: { 'public-dep': { version: '1.0.0' } },
          },
          'public-dep': { version: '1.0.0', requires: { 'acme-secret-ledger': '^3.0.0' } },
        },
      };
      const quick = await depot.request(
        '/artifactory/api/npm/npm-audited/-/npm/v1/security/audits/quick',
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-encoding': 'gzip',
          },
          body: gzipSync(JSON.stringify(tree)),
        },
      );
      expect(quick.status, await quick.text()).toBe(200);
      const sent = received.get('/-/npm/v1/security/audits/quick') ?? '';
      expect(sent).not.toContain('acme-secret-ledger');
      expect(JSON.parse(sent)).toEqual({
        requires: { 'public-dep': '^1.0.0' },
        dependencies: { 'public-dep': { version: '1.0.0', requires: {} } },
      });
      // A body that is not what it claims to be is the client's mistake, said plainly.
      const broken = await depot.request(
        '/artifactory/api/npm/npm-audited/-/npm/v1/security/advisories/bulk',
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-encoding': 'gzip',
          },
          body: 'not gzip',
        },
      );
      expect(broken.status).toBe(400);
    } finally {
      consumer.close();
      await upstreamHost.close();
    }
  });
});
