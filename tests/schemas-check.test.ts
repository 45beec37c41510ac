import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchemas } from '../server/schemas/check.ts';
import { loadSchemaRegistry, type ScreenDescriptor } from '../server/schemas/registry.ts';
import { startTestDepot, type TestDepot } from './helpers/test-app.ts';

let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
  await depot.app.ready();
});
afterAll(() => depot.close());

function registryWith(change: (users: ScreenDescriptor) => void) {
  const registry = loadSchemaRegistry();
  const users = structuredClone(registry.screens.get('users') as ScreenDescriptor);
  change(users);
  registry.screens.set('users', users);
  return registry;
}

describe('schemas:check', () => {
  it('finds nothing wrong with the shipped schemas and descriptors', () => {
    expect(checkSchemas(loadSchemaRegistry(), depot.app.routeCatalog)).toEqual([]);
  });

  it('reports a column that is not in the entity', () => {
    const registry = registryWith((s) =>
      s.list.columns.push({ field: 'shoeSize', header: 'Shoe' }),
    );
    expect(checkSchemas(registry, depot.app.routeCatalog)).toEqual([
      "screen 'users': column 'shoeSize' is not a property of 'user'",
    ]);
  });

  it('reports an endpoint the server does not have', () => {
    const registry = registryWith(
      (s) => (s.api.deleteMany = { method: 'DELETE', path: '/ui/users/{name}' }),
    );
    expect(checkSchemas(registry, depot.app.routeCatalog)).toEqual([
      "screen 'users': api.deleteMany DELETE /ui/users/{name} is not a server route",
    ]);
  });

  it('reports a descriptor that breaks the meta-schema', () => {
    const registry = registryWith(
      (s) => ((s as unknown as { permission: string }).permission = 'root'),
    );
    const problems = checkSchemas(registry, depot.app.routeCatalog);
    expect(problems[0]).toMatch(
      /^screen 'users'\/permission: must be equal to one of the allowed values/,
    );
  });

  it('reports a bespoke page at a path another screen already answers', () => {
    const registry = loadSchemaRegistry();
    const tree = structuredClone(registry.screens.get('tree-browser')!);
    tree.pages = [...(tree.pages ?? []), { path: '/admin/management/users' }];
    registry.screens.set('tree-browser', tree);
    expect(checkSchemas(registry, depot.app.routeCatalog)).toEqual([
      "screen 'users': route /admin/management/users is also used by 'tree-browser'",
    ]);
  });

  it('asks a descriptor without a component for its entity, key, calls, list and form', () => {
    const registry = loadSchemaRegistry();
    const { component: _bespoke, ...withoutComponent } = registry.screens.get('maintenance')!;
    registry.screens.set('maintenance', withoutComponent as ScreenDescriptor);
    expect(checkSchemas(registry, depot.app.routeCatalog)).toContain(
      "screen 'maintenance': must have required property 'entity'",
    );
  });

  it('reports an entity schema that does not compile', () => {
    const registry = loadSchemaRegistry();
    registry.entities.set('broken', {
      $id: 'broken',
      type: 'object',
      properties: { a: { type: 'strng' } },
    });
    expect(checkSchemas(registry, depot.app.routeCatalog)[0]).toMatch(/^entity 'broken':/);
  });
});
