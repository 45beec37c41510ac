import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYOUT_MESSAGES } from '../server/modules/repositories/messages.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/** Repository layouts: built-in ones read-only, admins' own ones stored in the database. */
let depot: TestDepot;
const plain = { authorization: basic('plain', 'plain-pass-1') };
beforeAll(async () => {
  depot = await startTestDepot();
  await depot.services.users.create({
    name: 'plain',
    email: 'p@example.com',
    password: 'plain-pass-1',
    groups: [],
  });
});
afterAll(() => depot?.close());

const api = (
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  payload?: object,
  headers: Record<string, string> = adminAuth(),
) =>
  depot.app.inject({
    method,
    url: `/ui/api/v1/ui/admin/repositories/layouts${path}`,
    payload,
    headers,
  });
const firstError = (response: { json(): { errors: Record<string, unknown>[] } }) =>
  response.json().errors[0];

const teamLayout = {
  name: 'team-layout',
  artifactPathPattern: '[org]/[module]/[baseRev]/[module]-[baseRev].[ext]',
  distinctiveDescriptorPathPattern: true,
  descriptorPathPattern: '[org]/[module]/[baseRev]/[module]-[baseRev].json',
  folderIntegrationRevisionRegExp: 'SNAPSHOT',
  fileIntegrationRevisionRegExp: 'SNAPSHOT|\\d{14}',
};

describe('custom repository layouts', () => {
  it('creates a layout and lists it after the built-in ones', async () => {
    const created = await api('POST', '', teamLayout);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ ...teamLayout, builtIn: false });
    const list = (await api('GET', '', undefined, plain)).json();
    expect(list).toHaveLength(16);
    expect(list.at(-1)).toEqual({ ...teamLayout, builtIn: false });
    expect(list[0]).toMatchObject({ name: 'maven-2-default', builtIn: true });
    expect((await api('GET', '/team-layout', undefined, plain)).json()).toMatchObject({
      name: 'team-layout',
    });
  });

  it.each([
    [
      { artifactPathPattern: '[module]/[baseRev].[ext]' },
      'artifactPathPattern',
      LAYOUT_MESSAGES.tokens,
    ],
    [
      { artifactPathPattern: '[org]/[baseRev].[ext]' },
      'artifactPathPattern',
      LAYOUT_MESSAGES.tokens,
    ],
    [{ artifactPathPattern: '' }, 'artifactPathPattern', 'You must fill in this field'],
    [{ descriptorPathPattern: '[org]/x.json' }, 'descriptorPathPattern', LAYOUT_MESSAGES.tokens],
    [{ descriptorPathPattern: '' }, 'descriptorPathPattern', 'You must fill in this field'],
    [
      { folderIntegrationRevisionRegExp: '(' },
      'folderIntegrationRevisionRegExp',
      LAYOUT_MESSAGES.badRegExp,
    ],
    [{ name: '1layout' }, 'name', 'Name cannot start with a number'],
    [{ name: 'my layout' }, 'name', 'Name contains illegal characters'],
    [{ name: '' }, 'name', 'Setting a name is required'],
    [{ name: 'Maven-2-Default' }, 'name', "Layout 'Maven-2-Default' already exists"],
    [{ name: 'TEAM-layout' }, 'name', "Layout 'TEAM-layout' already exists"],
  ])('refuses %j with a message on %s', async (change, field, message) => {
    const response = await api('POST', '', { ...teamLayout, ...change });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(firstError(response)).toMatchObject({ field, message });
  });

  it('accepts [orgPath] and no descriptor pattern when the descriptor is not distinct', async () => {
    const response = await api('POST', '', {
      ...teamLayout,
      name: 'flat-layout',
      artifactPathPattern: '[orgPath]/[module]-[baseRev].[ext]',
      distinctiveDescriptorPathPattern: false,
      descriptorPathPattern: '[org]/[module]/[baseRev]/ignored.json',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().descriptorPathPattern).toBe('');
  });

  it('edits a custom layout but never a built-in one or the name', async () => {
    const saved = await api('PUT', '/team-layout', {
      ...teamLayout,
      folderIntegrationRevisionRegExp: '.*',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().folderIntegrationRevisionRegExp).toBe('.*');
    const builtIn = await api('PUT', '/maven-2-default', { folderIntegrationRevisionRegExp: 'x' });
    expect(builtIn.statusCode).toBe(400);
    expect(firstError(builtIn).message).toBe(LAYOUT_MESSAGES.builtIn('maven-2-default'));
    const rename = await api('PUT', '/team-layout', { name: 'other' });
    expect(firstError(rename)).toMatchObject({ message: LAYOUT_MESSAGES.rename, field: 'name' });
    const bad = await api('PUT', '/team-layout', { artifactPathPattern: '[ext]' });
    expect(firstError(bad).message).toBe(LAYOUT_MESSAGES.tokens);
    expect((await api('PUT', '/nowhere', teamLayout)).statusCode).toBe(404);
  });

  it('lets a repository use a custom layout, which then cannot be deleted', async () => {
    await depot.services.repositories.create({
      key: 'team-local',
      rclass: 'local',
      packageType: 'generic',
      repoLayoutRef: 'team-layout',
    });
    const refused = await api('POST', '/delete', { layoutNames: ['team-layout'] });
    expect(refused.statusCode).toBe(409);
    expect(firstError(refused).message).toBe(LAYOUT_MESSAGES.inUse('team-layout', ['team-local']));
    const builtIn = await api('POST', '/delete', { layoutNames: ['simple-default'] });
    expect(builtIn.statusCode).toBe(400);

    await depot.services.repositories.update('team-local', { repoLayoutRef: 'simple-default' });
    const deleted = await api('POST', '/delete', { layoutNames: ['team-layout', 'flat-layout'] });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ info: '2 layout(s) deleted' });
    expect((await api('GET', '/team-layout')).statusCode).toBe(404);
    expect((await api('GET', '')).json()).toHaveLength(15);
  });

  it('is read by any signed-in user and changed by admins only', async () => {
    expect((await api('GET', '', undefined, {})).statusCode).toBe(401);
    expect((await api('POST', '', teamLayout, plain)).statusCode).toBe(403);
    expect((await api('PUT', '/team-layout', teamLayout, plain)).statusCode).toBe(403);
    expect((await api('POST', '/delete', { layoutNames: ['x'] }, plain)).statusCode).toBe(403);
  });
});
