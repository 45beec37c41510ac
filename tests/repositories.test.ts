import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_MESSAGES } from '../server/modules/repositories/messages.ts';
import { basic } from './helpers/test-app.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';

let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot();
});
afterAll(() => depot?.close());

const putRepo = (key: string, body: object) =>
  depot.request(`/artifactory/api/repositories/${key}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const errorOf = async (response: Response) => (await response.json()).errors[0];

describe('repositories on the REST API', () => {
  it('creates local, remote and virtual repositories and reads their configuration', async () => {
    expect(
      (
        await putRepo('libs-release-local', {
          rclass: 'local',
          packageType: 'maven',
          description: 'Releases',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await putRepo('maven-remote', {
          rclass: 'remote',
          packageType: 'maven',
          url: 'https://repo.example.test/maven2',
        })
      ).status,
    ).toBe(200);
    const virtual = await putRepo('libs-release', {
      rclass: 'virtual',
      packageType: 'maven',
      repositories: ['libs-release-local', 'maven-remote'],
      defaultDeploymentRepo: 'libs-release-local',
    });
    expect(virtual.status, await virtual.clone().text()).toBe(200);

    const config = await (await depot.request('/artifactory/api/repositories/libs-release')).json();
    expect(config).toMatchObject({
      key: 'libs-release',
      rclass: 'virtual',
      packageType: 'maven',
      includesPattern: '**/*',
      repositories: ['libs-release-local', 'maven-remote'],
      defaultDeploymentRepo: 'libs-release-local',
    });
    const remote = await (await depot.request('/artifactory/api/repositories/maven-remote')).json();
    expect(remote.url).toBe('https://repo.example.test/maven2');
    // The package type's default layout, from the catalogue.
    expect(remote.repoLayoutRef).toBe('maven-2-default');
  });

  it('lists repositories with type and package type filters', async () => {
    await putRepo('npm-local', { rclass: 'local', packageType: 'npm' });
    const all = await (await depot.request('/artifactory/api/repositories')).json();
    expect(all.map((r: { key: string }) => r.key)).toEqual([
      'libs-release',
      'libs-release-local',
      'maven-remote',
      'npm-local',
    ]);
    const locals = await (await depot.request('/artifactory/api/repositories?type=local')).json();
    expect(locals).toEqual([
      {
        key: 'libs-release-local',
        type: 'LOCAL',
        description: 'Releases',
        url: `${depot.base}/artifactory/libs-release-local`,
        packageType: 'maven',
      },
      {
        key: 'npm-local',
        type: 'LOCAL',
        description: '',
        url: `${depot.base}/artifactory/npm-local`,
        packageType: 'npm',
      },
    ]);
    const npm = await (await depot.request('/artifactory/api/repositories?packageType=npm')).json();
    expect(npm.map((r: { key: string }) => r.key)).toEqual(['npm-local']);
    const bad = await depot.request('/artifactory/api/repositories?type=galactic');
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe(REPO_MESSAGES.unsupportedType);
  });

  it('updates with POST, keeping what the body leaves out', async () => {
    const response = await depot.request('/artifactory/api/repositories/npm-local', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'Our packages', excludesPattern: '**/*.tmp' }),
    });
    expect(response.status).toBe(200);
    const config = await (await depot.request('/artifactory/api/repositories/npm-local')).json();
    expect(config).toMatchObject({
      description: 'Our packages',
      excludesPattern: '**/*.tmp',
      packageType: 'npm',
      rclass: 'local',
    });
  });

  it.each([
    [
      'docker key in upper case',
      'Docker-Local',
      { rclass: 'local', packageType: 'docker' },
      REPO_MESSAGES.dockerLowercase,
    ],
    [
      'local key ending in -cache',
      'stuff-cache',
      { rclass: 'local', packageType: 'generic' },
      REPO_MESSAGES.localCacheSuffix,
    ],
    [
      'key starting with a number',
      '1st-repo',
      { rclass: 'local', packageType: 'generic' },
      'Name cannot start with a number',
    ],
    [
      'key with illegal characters',
      'my repo!',
      { rclass: 'local', packageType: 'generic' },
      'Name contains illegal characters',
    ],
    [
      'reserved key',
      'api',
      { rclass: 'local', packageType: 'generic' },
      REPO_MESSAGES.reservedKey('api'),
    ],
    [
      'remote without a URL',
      'r1',
      { rclass: 'remote', packageType: 'generic' },
      REPO_MESSAGES.urlRequired,
    ],
    [
      'remote with a bad URL',
      'r2',
      { rclass: 'remote', packageType: 'generic', url: 'not a url' },
      'Please enter a valid url',
    ],
    [
      'virtual with an unknown member',
      'v1',
      { rclass: 'virtual', packageType: 'generic', repositories: ['ghost'] },
      REPO_MESSAGES.unknownMember('ghost'),
    ],
    [
      'unknown kind',
      'k1',
      { rclass: 'federated', packageType: 'generic' },
      REPO_MESSAGES.unsupportedType,
    ],
    [
      'unknown package type',
      'p1',
      { rclass: 'local', packageType: 'floppy' },
      REPO_MESSAGES.unknownPackageType('floppy'),
    ],
    [
      'kind the package type does not allow',
      'vcs1',
      { rclass: 'local', packageType: 'vcs' },
      REPO_MESSAGES.kindNotAllowed('vcs', 'local'),
    ],
    [
      'unknown layout',
      'l1',
      { rclass: 'local', packageType: 'generic', repoLayoutRef: 'nope' },
      REPO_MESSAGES.unknownLayout('nope'),
    ],
  ])('refuses a %s with the spec message', async (_case, key, body, message) => {
    const response = await putRepo(encodeURIComponent(key), body);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(message);
    expect(
      (await depot.request(`/artifactory/api/repositories/${encodeURIComponent(key)}`)).status,
    ).toBe(404);
  });

  it('answers 409 for an existing key, whatever its case', async () => {
    const response = await putRepo('NPM-LOCAL', { rclass: 'local', packageType: 'npm' });
    expect(response.status).toBe(409);
    expect((await errorOf(response)).message).toBe(REPO_MESSAGES.exists('NPM-LOCAL'));
  });

  it('lets only admins change repositories', async () => {
    await depot.services.users.create({
      name: 'dev',
      email: 'dev@example.com',
      password: 'dev-pass-12',
      groups: [],
    });
    const response = await fetch(`${depot.base}/artifactory/api/repositories/dev-local`, {
      method: 'PUT',
      headers: { authorization: basic('dev', 'dev-pass-12'), 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
    });
    expect(response.status).toBe(403);
  });

  it('deletes a repository', async () => {
    const response = await depot.request('/artifactory/api/repositories/npm-local', {
      method: 'DELETE',
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(REPO_MESSAGES.removed('npm-local'));
    expect((await depot.request('/artifactory/api/repositories/npm-local')).status).toBe(404);
  });
});
