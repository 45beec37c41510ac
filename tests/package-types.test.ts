import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
  await depot.services.users.create({
    name: 'reader',
    email: 'r@example.com',
    password: 'reader-pass-1',
    groups: [],
  });
});
afterAll(() => depot.close());

const plainUser = { authorization: basic('reader', 'reader-pass-1') };
const get = (url: string, headers: Record<string, string> = plainUser) =>
  depot.app.inject({ url: `/ui/api/v1/ui/admin/repositories${url}`, headers });
const values = (body: { value: string }[]) => body.map((t) => t.value);

describe('GET /ui/admin/repositories/packagetypes', () => {
  it('lists the whole catalogue to any signed-in user', async () => {
    const response = await get('/packagetypes');
    expect(response.statusCode).toBe(200);
    const types = response.json();
    expect(types).toHaveLength(35);
    expect(types.find((t: { value: string }) => t.value === 'rpm')).toEqual({
      serverEnumName: 'YUM',
      value: 'rpm',
      text: 'RPM',
      icon: 'rpm',
      repoTypes: ['local', 'remote', 'virtual', 'federated'],
      description: 'RPM packages for yum and dnf',
      editionRestrictions: { OSS: 'disabled', JCR: 'disabled', CONAN: 'disabled' },
      defaultLayout: 'simple-default',
    });
    expect((await get('/packagetypes', adminAuth())).statusCode).toBe(200);
  });

  it('keeps only the types a repository kind allows', async () => {
    const local = values((await get('/packagetypes?repoType=local')).json());
    expect(local).toContain('terraformbackend');
    expect(local).not.toContain('p2');
    expect(local).not.toContain('vcs');
    expect(local).not.toContain('buildinfo');

    const remote = values((await get('/packagetypes?repoType=remote')).json());
    expect(remote).toEqual(expect.arrayContaining(['p2', 'vcs', 'maven']));
    expect(remote).not.toContain('vagrant');
    expect(remote).not.toContain('terraformbackend');

    const federated = values((await get('/packagetypes?repoType=federated')).json());
    expect(federated).toContain('vagrant');
    expect(federated).not.toContain('p2');

    expect((await get('/packagetypes?repoType=releaseBundles')).json()).toEqual([]);
  });

  it("answers 400 'Unsupported repo type' for a kind the catalogue does not know", async () => {
    for (const repoType of ['distribution', 'attic', '']) {
      const response = await get(`/packagetypes?repoType=${repoType}`);
      expect(response.statusCode, repoType).toBe(400);
      expect(response.json()).toEqual({
        errors: [{ status: 400, message: 'Unsupported repo type', field: 'repoType' }],
      });
    }
  });

  it('refuses anonymous callers while anonymous access is off', async () => {
    expect((await get('/packagetypes', {})).statusCode).toBe(401);
  });
});

describe('GET /ui/admin/repositories/layouts', () => {
  it('lists the default layouts', async () => {
    const response = await get('/layouts');
    expect(response.statusCode).toBe(200);
    const names = response.json().map((l: { name: string }) => l.name);
    expect(names).toHaveLength(15);
    expect(names).toEqual(expect.arrayContaining(['maven-2-default', 'simple-default']));
  });

  it('answers one layout by name', async () => {
    const response = await get('/layouts/ivy-default');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      name: 'ivy-default',
      artifactPathPattern:
        '[org]/[module]/[baseRev](-[folderItegRev])/[type]s/[module](-[classifier])-[baseRev](-[fileItegRev]).[ext]',
      distinctiveDescriptorPathPattern: true,
      descriptorPathPattern:
        '[org]/[module]/[baseRev](-[folderItegRev])/[type]s/ivy-[baseRev](-[fileItegRev]).xml',
      folderIntegrationRevisionRegExp: '\\d{14}',
      fileIntegrationRevisionRegExp: '\\d{14}',
      builtIn: true,
    });
  });

  it('answers 404 for a layout that does not exist', async () => {
    const response = await get('/layouts/gradle-default');
    expect(response.statusCode).toBe(404);
    expect(response.json().errors[0]).toEqual({
      status: 404,
      message: "Layout 'gradle-default' could not be found.",
    });
  });
});
