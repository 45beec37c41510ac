import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPERTY_SET_MESSAGES as M } from '../server/modules/property-sets/messages.ts';
import {
  adminAuth,
  basic,
  createRepository,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

/** Property sets: admins manage them, every reader lists them, every repository offers them. */
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
  await createRepository(depot, 'props-local', 'local');
});
afterAll(() => depot?.close());

const api = (
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  payload?: object,
  headers: Record<string, string> = adminAuth(),
) => depot.app.inject({ method, url: `/ui/api/v1/ui${path}`, payload, headers });
const firstError = (response: { json(): { errors: Record<string, unknown>[] } }) =>
  response.json().errors[0];

const release = {
  name: 'release',
  properties: [
    { name: 'status', propertyType: 'ANY_VALUE', predefinedValues: [] },
    {
      name: 'stage',
      propertyType: 'SINGLE_SELECT',
      predefinedValues: [
        { value: 'dev', defaultValue: true },
        { value: 'prod', defaultValue: false },
      ],
    },
    {
      name: 'platforms',
      propertyType: 'MULTI_SELECT',
      predefinedValues: [
        { value: 'linux', defaultValue: true },
        { value: 'windows', defaultValue: true },
      ],
    },
  ],
};

describe('property sets', () => {
  it('creates a set that readers can list and read', async () => {
    const created = await api('POST', '/propertysets', release);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual(release);
    expect((await api('POST', '/propertysets', { name: 'audit' })).json()).toEqual({
      name: 'audit',
      properties: [],
    });
    const list = await api('GET', '/propertysets', undefined, plain);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([{ name: 'audit', properties: [] }, release]);
    expect((await api('GET', '/propertysets/release', undefined, plain)).json()).toEqual(release);
    const missing = await api('GET', '/propertysets/nowhere');
    expect(missing.statusCode).toBe(404);
    expect(firstError(missing).message).toBe(M.notFound('nowhere'));
  });

  it('drops the values of a free-text property and fills in what was left out', async () => {
    const response = await api('POST', '/propertysets', {
      name: 'loose',
      properties: [{ name: 'note', predefinedValues: [{ value: 'x' }] }],
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().properties).toEqual([
      { name: 'note', propertyType: 'ANY_VALUE', predefinedValues: [] },
    ]);
  });

  const property = (change: object) => ({
    name: 'other',
    properties: [{ name: 'p', propertyType: 'ANY_VALUE', predefinedValues: [], ...change }],
  });
  it.each([
    [{ name: '' }, 400, 'name', M.required],
    [{ name: '1set' }, 400, 'name', M.setName],
    [{ name: 'my set' }, 400, 'name', M.setName],
    [{ name: 'set.x' }, 400, 'name', M.setName],
    [{ name: 'release' }, 409, 'name', M.unique],
    [property({ name: '' }), 400, 'properties', M.required],
    [property({ name: '9p' }), 400, 'properties', M.propertyName],
    [property({ name: 'a b' }), 400, 'properties', M.propertyName],
    [
      { name: 'other', properties: [...release.properties, release.properties[0]] },
      400,
      'properties',
      M.keyUsed,
    ],
    [property({ propertyType: 'SINGLE_SELECT' }), 400, 'properties', M.valuesRequired],
    [property({ propertyType: 'MULTI_SELECT' }), 400, 'properties', M.valuesRequired],
    [
      property({
        propertyType: 'SINGLE_SELECT',
        predefinedValues: [
          { value: 'a', defaultValue: true },
          { value: 'b', defaultValue: true },
        ],
      }),
      400,
      'properties',
      M.oneDefault,
    ],
    [
      property({
        propertyType: 'MULTI_SELECT',
        predefinedValues: [{ value: 'a' }, { value: 'a' }],
      }),
      400,
      'properties',
      M.unique,
    ],
    [
      property({ propertyType: 'MULTI_SELECT', predefinedValues: [{ value: '' }] }),
      400,
      'properties',
      M.required,
    ],
  ])('refuses %j with %i on %s', async (body, status, field, message) => {
    const response = await api('POST', '/propertysets', body);
    expect(response.statusCode).toBe(status);
    expect(firstError(response)).toMatchObject({ field, message });
  });

  it('edits the properties of a set but never its name', async () => {
    const properties = [{ name: 'owner', propertyType: 'ANY_VALUE', predefinedValues: [] }];
    const saved = await api('PUT', '/propertysets/audit', { name: 'audit', properties });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ name: 'audit', properties });
    const rename = await api('PUT', '/propertysets/audit', { name: 'renamed', properties });
    expect(rename.statusCode).toBe(400);
    expect(firstError(rename)).toMatchObject({ field: 'name', message: M.rename });
    const duplicate = await api('PUT', '/propertysets/audit', {
      properties: [...properties, ...properties],
    });
    expect(firstError(duplicate)).toMatchObject({ field: 'properties', message: M.keyUsed });
    expect((await api('PUT', '/propertysets/nowhere', { properties })).statusCode).toBe(404);
    expect((await api('GET', '/propertysets/audit')).json()).toEqual({ name: 'audit', properties });
  });

  it('lets readers list but not write', async () => {
    const writes = [
      await api('POST', '/propertysets', { name: 'mine' }, plain),
      await api('PUT', '/propertysets/audit', { properties: [] }, plain),
      await api('POST', '/propertysets/delete', { propertySetNames: ['audit'] }, plain),
    ];
    expect(writes.map((r) => r.statusCode)).toEqual([403, 403, 403]);
    expect((await api('GET', '/propertysets', undefined, {})).statusCode).toBe(401);
  });

  it('offers every set on every repository to who may read it, and 404 for an unknown one', async () => {
    // plain reads nothing (no groups): the repository's sets are not theirs to see
    const refused = await api('GET', '/repopropertyset?repoKey=props-local', undefined, plain);
    expect(refused.statusCode).toBe(403);
    const offered = await api('GET', '/repopropertyset?repoKey=props-local');
    expect(offered.statusCode).toBe(200);
    expect(offered.json().map((set: { name: string }) => set.name)).toEqual([
      'audit',
      'loose',
      'release',
    ]);
    expect(offered.json()[2]).toEqual(release);
    const unknown = await api('GET', '/repopropertyset?repoKey=nowhere', undefined, plain);
    expect(unknown.statusCode).toBe(404);
    expect((await api('GET', '/repopropertyset')).statusCode).toBe(400);
  });

  it('deletes many sets at once, all or none', async () => {
    const partly = await api('POST', '/propertysets/delete', {
      propertySetNames: ['audit', 'nowhere'],
    });
    expect(partly.statusCode).toBe(404);
    expect(firstError(partly).message).toBe(M.notFound('nowhere'));
    const deleted = await api('POST', '/propertysets/delete', {
      propertySetNames: ['audit', 'loose'],
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ info: M.deleted(2) });
    expect((await api('GET', '/propertysets')).json()).toEqual([release]);
  });
});
