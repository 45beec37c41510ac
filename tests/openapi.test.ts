import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../server/modules/openapi/openapi.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

interface Operation {
  security?: Record<string, unknown>[];
  tags?: string[];
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A Fastify route URL as an OpenAPI path template: `:name` → `{name}`, `*` → `{*}`. */
function pathTemplate(url: string): string {
  return url.replace(/:([A-Za-z_][\w]*)(\([^)]*\))?/g, '{$1}').replace(/\*/g, '{*}');
}

let depot: TestDepot;
let document: OpenApiDocument;
beforeAll(async () => {
  depot = await startTestDepot();
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  });
  const response = await depot.app.inject({
    url: OPENAPI_PATH,
    headers: { authorization: basic('dev', 'dev-pass-1') },
  });
  expect(response.statusCode).toBe(200);
  document = response.json();
});
afterAll(() => depot?.close());

describe('the OpenAPI document', () => {
  it('is for signed-in users only', async () => {
    expect((await depot.app.inject({ url: OPENAPI_PATH })).statusCode).toBe(401);
    expect((await depot.app.inject({ url: OPENAPI_PATH, headers: adminAuth() })).statusCode).toBe(
      200,
    );
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route the server registers, and no other', () => {
    const registered = new Set(
      depot.app.routeCatalog.map(
        (route) => `${route.method.toLowerCase()} ${pathTemplate(route.url)}`,
      ),
    );
    const described = new Set(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => METHODS.includes(key))
          .map((method) => `${method} ${path}`),
      ),
    );
    expect([...registered].filter((route) => !described.has(route))).toEqual([]);
    expect([...described].filter((route) => !registered.has(route))).toEqual([]);
    expect(registered.size).toBeGreaterThan(300);
  });

  it('says who may call each operation, as its route declares', () => {
    for (const route of depot.app.routeCatalog) {
      const operation = document.paths[pathTemplate(route.url)][route.method.toLowerCase()];
      const anonymousAllowed = operation.security?.some(
        (option) => Object.keys(option).length === 0,
      );
      expect(anonymousAllowed, `${route.method} ${route.url}`).toBe(
        route.permission === 'public' || route.permission === 'reader',
      );
    }
  });
});
