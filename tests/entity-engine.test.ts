import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ENTITY_MESSAGES as M } from '../server/modules/entities/descriptors.ts';
import { MASK } from '../server/modules/entities/secrets.ts';
import { copySchemas } from './helpers/schemas-copy.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * The generic entity resource, on an entity only this test has: a descriptor with a store
 * and nothing else gives the CRUD calls, with unique keys, read-only fields on edit, sealed
 * write-only secrets, ETags, paging, the descriptor's permission and an audit trail.
 */
const WIDGET = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'widget',
  title: 'Widget',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: {
      type: 'string',
      title: 'Name',
      minLength: 1,
      maxLength: 32,
      pattern: '^[a-z][a-z0-9-]*$',
      errorMessage: { pattern: 'Name cannot contain special characters' },
    },
    size: { type: 'integer', title: 'Size', minimum: 0, default: 1 },
    color: { type: 'string', title: 'Color', enum: ['red', 'blue'], default: 'red' },
    token: { type: 'string', title: 'Token', writeOnly: true, maxLength: 100 },
    tokenSet: { type: 'boolean', title: 'Token Stored', readOnly: true },
  },
  examples: [{ name: 'w-example', size: 2, color: 'blue', token: 'example-token' }],
};
const WIDGETS = {
  id: 'widgets',
  title: 'Widgets',
  entity: 'widget',
  key: 'name',
  route: '/admin/configuration/widgets',
  permission: 'admin',
  store: { kind: 'collection' },
  api: {
    list: { method: 'GET', path: '/ui/widgets' },
    get: { method: 'GET', path: '/ui/widgets/{name}' },
    create: { method: 'POST', path: '/ui/widgets' },
    update: { method: 'PUT', path: '/ui/widgets/{name}' },
    deleteMany: { method: 'POST', path: '/ui/widgets/delete', bodyKey: 'names' },
  },
  list: { columns: [{ field: 'name', header: 'Name' }] },
  form: { fields: ['name', 'size', 'color', 'token'], readOnlyOnEdit: ['name', 'color'] },
};

let depot: TestDepot;
const schemas = copySchemas();
const PLAIN = { authorization: basic('plain', 'plain-pass-1') };

beforeAll(async () => {
  schemas.write('entities/widget.schema.json', WIDGET);
  schemas.write('screens/widgets.screen.json', WIDGETS);
  depot = await startTestDepot({ DEPOT_SCHEMAS_DIR: schemas.dir });
  await depot.services.users.create({
    name: 'plain',
    email: 'plain@example.com',
    password: 'plain-pass-1',
    groups: [],
  });
});
afterAll(async () => {
  await depot?.close();
  schemas.remove();
});

type Method = 'GET' | 'POST' | 'PUT';
const call = (
  method: Method,
  path: string,
  payload?: object,
  headers: Record<string, string> = adminAuth(),
) => depot.app.inject({ method, url: `/ui/api/v1/ui/widgets${path}`, payload, headers });
const firstError = (response: { json(): { errors: Record<string, unknown>[] } }) =>
  response.json().errors[0];
const storedDocument = async (name: string) =>
  (
    await depot.services.db
      .selectFrom('entity_documents')
      .select('document')
      .where('entity', '=', 'widget')
      .where('key', '=', name)
      .executeTakeFirst()
  )?.document;

describe('a stored entity from a descriptor alone', () => {
  it('creates with defaults, seals the secret and never answers it', async () => {
    const created = await call('POST', '', { name: 'alpha', token: 'alpha-secret-1' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({ name: 'alpha', size: 1, color: 'red', tokenSet: true });
    expect(created.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(created.body).not.toContain('alpha-secret-1');
    const stored = await storedDocument('alpha');
    expect(JSON.stringify(stored)).not.toContain('alpha-secret-1');
    expect(String(stored?.token)).toMatch(/^enc:v1:/);

    const read = await call('GET', '/alpha');
    expect(read.json()).toEqual(created.json());
    expect(read.headers.etag).toBe(created.headers.etag);
  });

  it('refuses a key in use with 409 and the spec message, and a bad body with its own', async () => {
    const again = await call('POST', '', { name: 'alpha' });
    expect(again.statusCode).toBe(409);
    expect(firstError(again)).toMatchObject({ field: 'name', message: M.exists });
    const bad = await call('POST', '', { name: 'Not Valid' });
    expect(bad.statusCode).toBe(400);
    expect(firstError(bad)).toMatchObject({
      field: 'name',
      message: 'Name cannot contain special characters',
    });
    const unknown = await call('POST', '', { name: 'beta', shape: 'round' });
    expect(unknown.statusCode).toBe(400);
    expect(firstError(unknown).field).toBe('shape');
    expect((await call('GET', '/beta')).statusCode).toBe(404);
  });

  it('refuses a stale write with 412, and takes one naming the version it read', async () => {
    const { etag } = (await call('GET', '/alpha')).headers as { etag: string };
    const first = await call('PUT', '/alpha', { size: 5 }, { ...adminAuth(), 'if-match': etag });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().size).toBe(5);
    expect(first.headers.etag).not.toBe(etag);
    const stale = await call('PUT', '/alpha', { size: 9 }, { ...adminAuth(), 'if-match': etag });
    expect(stale.statusCode).toBe(412);
    expect(firstError(stale).message).toBe(M.stale);
    expect((await call('GET', '/alpha')).json().size).toBe(5);
    // Without If-Match the update is laid over what is stored.
    expect((await call('PUT', '/alpha', { size: 6 })).json().size).toBe(6);
  });

  it('keeps a secret an update leaves out or empty, replaces or clears it when told', async () => {
    const sealed = (await storedDocument('alpha'))?.token;
    expect((await call('PUT', '/alpha', { token: '' })).json().tokenSet).toBe(true);
    expect((await call('PUT', '/alpha', { size: 7 })).json().tokenSet).toBe(true);
    expect((await storedDocument('alpha'))?.token).toBe(sealed);
    await call('PUT', '/alpha', { token: 'alpha-secret-2' });
    const resealed = (await storedDocument('alpha'))?.token;
    expect(resealed).not.toBe(sealed);
    expect(String(resealed)).toMatch(/^enc:v1:/);
    const cleared = await call('PUT', '/alpha', { tokenSet: false });
    expect(cleared.json().tokenSet).toBe(false);
    expect((await storedDocument('alpha'))?.token).toBeUndefined();
  });

  it('refuses a change of a read-only-on-edit field, and takes it repeated', async () => {
    const rename = await call('PUT', '/alpha', { name: 'other' });
    expect(rename.statusCode).toBe(400);
    expect(firstError(rename)).toMatchObject({ field: 'name', message: 'Name cannot be changed' });
    const recolor = await call('PUT', '/alpha', { color: 'blue' });
    expect(firstError(recolor)).toMatchObject({
      field: 'color',
      message: 'Color cannot be changed',
    });
    expect((await call('PUT', '/alpha', { name: 'alpha', color: 'red' })).statusCode).toBe(200);
    expect((await call('PUT', '/nowhere', { size: 1 })).statusCode).toBe(404);
  });

  it('lists a page, sorted and filtered, and says how many there are in all', async () => {
    for (const [name, size, color] of [
      ['bravo', 3, 'blue'],
      ['charlie', 10, 'red'],
      ['delta', 4, 'blue'],
    ] as const)
      expect((await call('POST', '', { name, size, color })).statusCode).toBe(201);
    const all = await call('GET', '');
    expect(all.json().map((w: { name: string }) => w.name)).toEqual([
      'alpha',
      'bravo',
      'charlie',
      'delta',
    ]);
    expect(all.headers['x-total-count']).toBe('4');
    const page = await call('GET', '?sort=size&order=desc&offset=1&limit=2');
    expect(page.json().map((w: { name: string }) => w.name)).toEqual(['alpha', 'delta']);
    expect(page.headers['x-total-count']).toBe('4');
    const blue = await call('GET', '?color=blue');
    expect(blue.json().map((w: { name: string }) => w.name)).toEqual(['bravo', 'delta']);
    expect(blue.headers['x-total-count']).toBe('2');
    expect((await call('GET', '?q=HAR')).json()).toHaveLength(1);
    expect((await call('GET', '?sort=token')).statusCode).toBe(400);
  });

  it("is the descriptor's permission's: admins only", async () => {
    expect((await call('GET', '', undefined, PLAIN)).statusCode).toBe(403);
    expect((await call('GET', '', undefined, {})).statusCode).toBe(401);
    expect((await call('POST', '', { name: 'mine' }, PLAIN)).statusCode).toBe(403);
    expect((await call('POST', '/delete', { names: ['alpha'] }, PLAIN)).statusCode).toBe(403);
  });

  it('deletes many, all or none', async () => {
    const partly = await call('POST', '/delete', { names: ['bravo', 'nowhere'] });
    expect(partly.statusCode).toBe(404);
    expect(firstError(partly).message).toBe("'nowhere' could not be found.");
    expect((await call('GET', '/bravo')).statusCode).toBe(200);
    const deleted = await call('POST', '/delete', { names: ['bravo', 'charlie'] });
    expect(deleted.json()).toEqual({ info: 'Successfully removed 2 item(s)' });
    expect((await call('GET', '/bravo')).statusCode).toBe(404);
  });

  it('audits every change: who, when, what, with secrets masked', async () => {
    const trail = await depot.services.entities.audit('widget', 'alpha');
    expect(trail.map((entry) => entry.action)).toEqual([
      ...Array(trail.length - 1).fill('update'),
      'create',
    ]);
    expect(trail.every((entry) => entry.actor === 'admin' && entry.at instanceof Date)).toBe(true);
    const text = JSON.stringify(trail);
    expect(text).not.toContain('alpha-secret');
    expect(trail.at(-1)!.changes).toMatchObject({
      name: { to: 'alpha' },
      size: { to: 1 },
      token: { to: MASK },
    });
    expect(trail.find((entry) => 'size' in entry.changes && entry.changes.size)?.changes).toEqual({
      size: { from: 6, to: 7 },
    });
    const gone = await depot.services.entities.audit('widget', 'bravo');
    expect(gone[0]).toMatchObject({ action: 'delete', changes: { name: { from: 'bravo' } } });
  });
});

describe('a single settings document', () => {
  const mail = (method: Method, payload?: object, headers: Record<string, string> = adminAuth()) =>
    depot.app.inject({ method, url: '/ui/api/v1/ui/mail', payload, headers });

  it('reads as its defaults until saved, and takes If-Match', async () => {
    const first = await mail('GET');
    expect(first.json()).toMatchObject({ enabled: false, port: 25, passwordSet: false });
    const saved = await mail(
      'PUT',
      { host: 'smtp.example.test', password: 'mail-secret-1' },
      {
        ...adminAuth(),
        'if-match': first.headers.etag as string,
      },
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ host: 'smtp.example.test', port: 25, passwordSet: true });
    const stale = await mail(
      'PUT',
      { port: 2525 },
      {
        ...adminAuth(),
        'if-match': first.headers.etag as string,
      },
    );
    expect(stale.statusCode).toBe(412);
    expect((await mail('GET')).json().port).toBe(25);
    const trail = await depot.services.entities.audit('mail-settings');
    expect(trail[0]).toMatchObject({
      action: 'update',
      actor: 'admin',
      changes: { host: { from: '', to: 'smtp.example.test' }, password: { to: MASK } },
    });
    expect(JSON.stringify(trail)).not.toContain('mail-secret-1');
  });
});
