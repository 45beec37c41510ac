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
