import { readFileSync } from 'node:fs';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNIPPET_SECRET, SNIPPET_USERNAME } from '../server/modules/set-me-up/placeholders.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/** Set Me Up's server side: what a user may use, generated settings, and the unlock. */
let depot: TestDepot;
const DEV = { authorization: basic('dev', 'dev-pass-12') };

const call = (
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
  headers: Record<string, string> = adminAuth(),
) => depot.app.inject({ method, url: `/ui/api/v1${url}`, headers, payload });

beforeAll(async () => {
  depot = await startTestDepot();
  for (const [key, packageType] of [
    ['libs-release', 'maven'],
    ['npm-local', 'npm'],
  ])
    await depot.services.repositories.create({ key, rclass: 'local', packageType } as never);
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-12',
    groups: ['readers'],
  });
  await depot.services.users.create({
    name: 'nobody',
    email: 'nobody@example.com',
    password: 'nobody-pass-1',
    groups: [],
  });
});
afterAll(() => depot.close());

describe('Set Me Up', () => {
  it('lists the repositories a user may read, and whether they may deploy there', async () => {
    const answer = (await call('GET', '/ui/setMeUp', undefined, DEV)).json();
    expect(answer.baseUrl).toBe('http://localhost:80/artifactory');
    expect(answer.repoKeyTypes).toEqual([
      expect.objectContaining({
        repoKey: 'libs-release',
        repoType: 'maven',
        canRead: true,
        canDeploy: false,
        isLocal: true,
      }),
      expect.objectContaining({ repoKey: 'npm-local', repoType: 'npm', canDeploy: false }),
    ]);
    const admin = (await call('GET', '/ui/setMeUp')).json();
    expect(admin.repoKeyTypes.every((r: { canDeploy: boolean }) => r.canDeploy)).toBe(true);
    const nobody = (
      await call('GET', '/ui/setMeUp', undefined, {
        authorization: basic('nobody', 'nobody-pass-1'),
      })
    ).json();
    expect(nobody.repoKeyTypes).toEqual([]);
  });

  it('generates a settings.xml and a distributionManagement that name the repository', async () => {
    const settings = (
      await call(
        'POST',
        '/ui/mavenSettings',
        {
          release: 'libs-release',
          snapshot: 'libs-release',
          pluginRelease: 'libs-release',
          pluginSnapshot: 'libs-release',
        },
        DEV,
      )
    ).json().settings as string;
    expect(XMLValidator.validate(settings)).toBe(true);
    expect(settings).toContain('<url>http://localhost:80/artifactory/libs-release</url>');
    expect(settings).toContain(`<username>${SNIPPET_USERNAME}</username>`);
    expect(settings).toContain(`<password>${SNIPPET_SECRET}</password>`);
    const pom = (
      await call('GET', '/ui/mavenDistributionManagement?repoKey=libs-release', undefined, DEV)
    ).json();
    expect(XMLValidator.validate(pom.distributionManagement)).toBe(true);
    const ivy = (
      await call(
        'POST',
        '/ui/ivySettings',
        { libsRepository: 'libs-release', m2Compatible: true },
        DEV,
      )
    ).json();
    expect(XMLValidator.validate(ivy.ivySettings)).toBe(true);
    const gradle = (
      await call(
        'POST',
        '/ui/gradleSettings',
        {
          pluginResolver: 'libs-release',
          libsResolver: 'libs-release',
          libsPublisher: 'libs-release',
        },
        DEV,
      )
    ).json();
    expect(gradle.buildGradle).toContain('url "http://localhost:80/artifactory/libs-release"');
    expect(gradle.gradleProperties).toContain(`depotPassword=${SNIPPET_SECRET}`);
  });

  it('names no repository the user may not read', async () => {
    const refused = await call(
      'POST',
      '/ui/ivySettings',
      { libsRepository: 'libs-release' },
      {
        authorization: basic('nobody', 'nobody-pass-1'),
      },
    );
    expect(refused.statusCode).toBe(404);
    expect(refused.json().errors[0].message).toBe("Repository 'libs-release' could not be found");
  });

  it('unlocks the API key with the password, and says so when there is none', async () => {
    const wrong = await call('POST', '/ui/setMeUp/unlock', { password: 'not-it' }, DEV);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].message).toBe('The password is incorrect, try again');
    const keyless = await call('POST', '/ui/setMeUp/unlock', { password: 'dev-pass-12' }, DEV);
    expect(keyless.json()).toEqual({ userName: 'dev' });
    const created = (await call('POST', '/ui/userApiKey', undefined, DEV)).json();
    const unlocked = await call('POST', '/ui/setMeUp/unlock', { password: 'dev-pass-12' }, DEV);
    expect(unlocked.json()).toEqual({ userName: 'dev', apiKey: created.apiKey });
    const anonymous = await call('POST', '/ui/setMeUp/unlock', { password: 'x' }, {});
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the reverse proxy for Docker (docs/docker.md, "Reverse proxy")', () => {
  const docs = readFileSync(new URL('../docs/docker.md', import.meta.url), 'utf8');
  /** Each documented example: its settings and the nginx configuration shown for them. */
  const examples = docs
    .split('<!-- reverse-proxy-example -->')
    .slice(1)
    .map((part) => {
      const [, settings, nginx] = /```json\n([\s\S]*?)```\s*```nginx\n([\s\S]*?)```/.exec(part)!;
      return { settings: JSON.parse(settings!) as Record<string, unknown>, nginx: nginx! };
    });
  const put = (body: object, headers = adminAuth()) =>
    depot.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/reverseProxies/crud',
      headers,
      payload: body,
    });
  const nginx = (headers = adminAuth()) =>
    depot.app.inject({
      method: 'GET',
      url: '/artifactory/api/system/configuration/reverseProxy/nginx',
      headers,
    });

  beforeAll(async () => {
    await depot.services.repositories.create({
      key: 'docker-local',
      rclass: 'local',
      packageType: 'docker',
    } as never);
    await depot.services.repositories.create({
      key: 'docker-remote',
      rclass: 'remote',
      packageType: 'docker',
      url: 'https://registry.example',
    } as never);
  });

  it('generates exactly the nginx configuration the documentation shows for its settings', async () => {
    expect(examples).toHaveLength(2);
    for (const example of examples) {
      const saved = await put(example.settings);
      expect(saved.statusCode, saved.body).toBe(200);
      const generated = await nginx();
      expect(generated.statusCode).toBe(200);
      expect(generated.headers['content-type']).toMatch(/^text\/plain/);
      expect(generated.body).toBe(example.nginx);
    }
    expect((await nginx({ authorization: basic('dev', 'dev-pass-12') })).statusCode).toBe(403);
  });

  it('generates exactly the Apache httpd configuration the documentation shows', async () => {
    const [, apache] = /<!-- reverse-proxy-apache-example -->\s*```apache\n([\s\S]*?)```/.exec(
      docs,
    )!;
    expect((await put(examples[0]!.settings)).statusCode).toBe(200);
    const generated = await depot.app.inject({
      method: 'GET',
      url: '/artifactory/api/system/configuration/reverseProxy/apache',
      headers: adminAuth(),
    });
    expect(generated.statusCode).toBe(200);
    expect(generated.headers['content-type']).toMatch(/^text\/plain/);
    expect(generated.body).toBe(apache);
    const asUser = await depot.app.inject({
      method: 'GET',
      url: '/artifactory/api/system/configuration/reverseProxy/apache',
      headers: { authorization: basic('dev', 'dev-pass-12') },
    });
    expect(asUser.statusCode).toBe(403);
    // The cases below start from the last example, as the nginx case leaves it.
    expect((await put(examples[1]!.settings)).statusCode).toBe(200);
  });

  it('refuses settings nginx could not serve, naming the field, and keeps what was saved', async () => {
    const base = examples[1]!.settings;
    const refusals: [object, string, string][] = [
      [
        { dockerReverseProxyMethod: 'subDomain', serverName: '' },
        'serverName',
        'The Sub Domain and Port methods need the public server name',
      ],
      [{ useHttp: false, useHttps: false }, 'useHttp', 'Use HTTP, HTTPS or both'],
      [{ useHttps: true, sslKey: '' }, 'sslKey', 'You must fill in this field'],
      [
        { reverseProxyRepositories: [{ repoKey: 'libs-release', port: 5003 }] },
        'reverseProxyRepositories',
        "'libs-release' is not a Docker repository",
      ],
      [
        { reverseProxyRepositories: [{ repoKey: 'docker-local', port: 443 }] },
        'reverseProxyRepositories',
        'Port 443 is used twice',
      ],
      [
        {
          reverseProxyRepositories: [
            { repoKey: 'docker-local', port: 5001 },
            { repoKey: 'docker-local', port: 5002 },
          ],
        },
        'reverseProxyRepositories',
        "'docker-local' has more than one port",
      ],
    ];
    for (const [change, field, message] of refusals) {
      const refused = await put({ ...base, ...change });
      expect(refused.statusCode, JSON.stringify(change)).toBe(400);
      expect(refused.json().errors[0]).toMatchObject({ field, message });
    }
    expect((await nginx()).body).toBe(examples[1]!.nginx);
  });

  it("tells Set Me Up the Docker method and ports, only for the caller's repositories", async () => {
    const data = (headers: Record<string, string>) =>
      call('GET', '/ui/reverseProxyData', undefined, headers).then((r) => r.json());
    expect(await data(DEV)).toEqual({
      serverName: 'depot.example',
      dockerReverseProxyMethod: 'portPerRepo',
      reverseProxyRepositories: [
        { repoKey: 'docker-local', port: 5001 },
        { repoKey: 'docker-remote', port: 5002 },
      ],
      useHttp: false,
      useHttps: true,
      httpPort: 80,
      httpsPort: 443,
    });
    const nobody = await data({ authorization: basic('nobody', 'nobody-pass-1') });
    expect(nobody.reverseProxyRepositories).toEqual([]);
    // A repository deleted since is no longer named, nor given a server block.
    await depot.services.repositories.delete('docker-remote', 'admin');
    expect((await data(DEV)).reverseProxyRepositories).toEqual([
      { repoKey: 'docker-local', port: 5001 },
    ]);
    expect((await nginx()).body).not.toContain('listen 5002');
  });
});
