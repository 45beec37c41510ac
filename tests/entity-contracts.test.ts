import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBody, updateBody } from '../server/modules/entities/body-schemas.ts';
import { messagesOf, storedScreens } from '../server/modules/entities/descriptors.ts';
import { fillMessage } from '../server/modules/entities/documents.ts';
import { createBodyAjv } from '../server/schemas/ajv.ts';
import {
  isSingleDocument,
  loadSchemaRegistry,
  type CollectionDescriptor,
  type JsonSchema,
  type SingleDocumentDescriptor,
} from '../server/schemas/registry.ts';
import { exampleOf } from './helpers/engine-requests.ts';
import { violationsOf } from './helpers/schema-violations.ts';
import { adminAuth, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * The API contract of every descriptor the engine stores, generated from the descriptor and
 * its entity schema: a new descriptor is covered with no test written for it. A collection
 * is created from its schema's first example, read back, listed, updated (and refused a
 * stale version), refused a body breaking each constraint with the schema's own message,
 * refused a second document under the same key, and deleted. A single document is read,
 * saved with its example, and refused each broken constraint the same way.
 */
const registry = loadSchemaRegistry();
const stored = storedScreens(registry);
const ajv = createBodyAjv();

let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
});
afterAll(() => depot?.close());

const call = (method: string, path: string, payload?: unknown, headers = {}) =>
  depot.app.inject({
    method: method as 'GET',
    url: `/ui/api/v1${path}`,
    headers: { ...adminAuth(), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const filled = (path: string, key = '') => path.replace(/\{[^}]+\}/, encodeURIComponent(key));
const firstError = (response: { json(): { errors: { field?: string; message: string }[] } }) =>
  response.json().errors[0]!;

/** What an answer must show of a body sent: its readable fields, as sent. */
function expectShown(entity: JsonSchema, sent: Record<string, unknown>, answer: object) {
  const readable = Object.fromEntries(
    Object.entries(sent).filter(([name]) => entity.properties?.[name]?.writeOnly !== true),
  );
  expect(answer).toMatchObject(readable);
  for (const [name, property] of Object.entries(entity.properties ?? {}))
    if (property.writeOnly === true) expect(answer).not.toHaveProperty(name);
}

function describeCollection(screen: CollectionDescriptor, entity: JsonSchema) {
  const example = exampleOf(entity);
  const key = String(example[screen.key]);
  const messages = messagesOf(screen);
  const { api } = screen;

  it('creates the example, reads it back and lists it', async () => {
    const created = await call(api.create.method, filled(api.create.path), example);
    expect(created.statusCode, created.body).toBe(201);
    expectShown(entity, example, created.json());
    const read = await call(api.get.method, filled(api.get.path, key));
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created.json());
    const listed = await call(api.list.method, filled(api.list.path));
    expect(listed.json()).toContainEqual(created.json());
  });

  it('updates it with the version it read, and refuses a stale version', async () => {
    const read = await call(api.get.method, filled(api.get.path, key));
    const etag = read.headers.etag as string;
    const next = (entity.examples as Record<string, unknown>[])[1] ?? example;
    const body = { ...next, [screen.key]: key };
    const updated = await call(api.update.method, filled(api.update.path, key), body, {
      'if-match': etag,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expectShown(entity, body, updated.json());
    await call(api.update.method, filled(api.update.path, key), { [screen.key]: key });
    const stale = await call(api.update.method, filled(api.update.path, key), body, {
      'if-match': '"not-the-version-read"',
    });
    expect(stale.statusCode).toBe(412);
  });

  it('refuses a second document under the same key', async () => {
    const again = await call(api.create.method, filled(api.create.path), example);
    expect(again.statusCode).toBe(409);
    expect(firstError(again)).toEqual(
      expect.objectContaining({
        field: screen.key,
        message: fillMessage(messages.exists, { key, [screen.key]: key }),
      }),
    );
  });

  const validate = ajv.compile(createBody(entity, screen.form.requiredOnCreate));
  const fresh = { ...example, [screen.key]: `${key}-broken` };
  for (const violation of violationsOf(entity, fresh, validate)) {
    it(`refuses a body breaking ${violation.name}${violation.message ? ' with its message' : ''}`, async () => {
      const refused = await call(api.create.method, filled(api.create.path), violation.body);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(firstError(refused).field).toBe(violation.field);
      if (violation.message) expect(firstError(refused).message).toBe(violation.message);
    });
  }
  for (const field of entity.required ?? [])
    it(`refuses a body without ${field}`, async () => {
      const { [field]: _left, ...body } = fresh;
      const refused = await call(api.create.method, filled(api.create.path), body);
      expect(refused.statusCode).toBe(400);
      expect(firstError(refused)).toEqual(
        expect.objectContaining({ field, message: 'You must fill in this field' }),
      );
    });

  it('deletes it', async () => {
    const keys = [key];
    const body = api.deleteMany.bodyKey ? { [api.deleteMany.bodyKey]: keys } : keys;
    const deleted = await call(api.deleteMany.method, filled(api.deleteMany.path), body);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ info: fillMessage(messages.deleted, { count: 1 }) });
    expect((await call(api.get.method, filled(api.get.path, key))).statusCode).toBe(404);
  });
}

function describeSingle(screen: SingleDocumentDescriptor, entity: JsonSchema) {
  const example = exampleOf(entity);
  const { api } = screen;

  it('is read, saved with its example and read back', async () => {
    const read = await call(api.get.method, filled(api.get.path));
    expect(read.statusCode).toBe(200);
    const saved = await call(api.update.method, filled(api.update.path), example, {
      'if-match': read.headers.etag as string,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expectShown(entity, example, saved.json());
    expect((await call(api.get.method, filled(api.get.path))).json()).toEqual(saved.json());
    const stale = await call(api.update.method, filled(api.update.path), example, {
      'if-match': '"not-the-version-read"',
    });
    expect(stale.statusCode).toBe(412);
  });

  const validate = ajv.compile(updateBody(entity));
  for (const violation of violationsOf(entity, {}, validate)) {
    it(`refuses a change breaking ${violation.name}${violation.message ? ' with its message' : ''}`, async () => {
      const before = (await call(api.get.method, filled(api.get.path))).json();
      const refused = await call(api.update.method, filled(api.update.path), violation.body);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(firstError(refused).field).toBe(violation.field);
      if (violation.message) expect(firstError(refused).message).toBe(violation.message);
      expect((await call(api.get.method, filled(api.get.path))).json()).toEqual(before);
    });
  }
}

describe.each(stored.map((screen) => [screen.id, screen] as const))(
  'the stored entity of %s',
  (_id, screen) => {
    const entity = registry.entities.get(screen.entity)!;
    if (isSingleDocument(screen)) describeSingle(screen, entity);
    else describeCollection(screen as CollectionDescriptor, entity);
  },
);
