import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, createRepository, deployFile, startTestDepot } from './helpers/test-app.ts';
import type { TestDepot } from './helpers/test-app.ts';

let depot: TestDepot;

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'gen', 'local');
  for (const name of ['a', 'b', 'c']) await deployFile(depot, 'gen', `props/${name}.txt`, name);
});
afterAll(() => depot?.close());

const storage = (query: string, method: string) =>
  depot.app.inject({
    method,
    url: `/artifactory/api/storage/gen/props?${query}`,
    headers: adminAuth(),
  });

describe('recursive property changes racing each other and deploys', () => {
  it('all succeed, one after the other, and never answer 500', async () => {
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, (_, i) =>
          storage(`properties=owner=team${i}&recursive=1`, 'PUT'),
        ),
        storage('properties=owner&recursive=1', 'DELETE'),
        depot.app.inject({
          method: 'PUT',
          url: `/artifactory/gen/props/new${round}.txt`,
          headers: adminAuth(),
          payload: 'new',
        }),
      ]);
      for (const answer of answers) expect([201, 204], answer.body).toContain(answer.statusCode);
    }
    // Every file ends with one owner at most: one change's whole, never a mix of two.
    const owners = await depot.services.db
      .selectFrom('node_properties')
      .innerJoin('nodes', 'nodes.id', 'node_properties.node_id')
      .select(['nodes.path', 'node_properties.value'])
      .where('node_properties.key', '=', 'owner')
      .where('nodes.folder', '=', false)
      .execute();
    const perFile = new Map<string, string[]>();
    for (const { path, value } of owners) perFile.set(path, [...(perFile.get(path) ?? []), value]);
    for (const [path, values] of perFile) expect(values.length, path).toBe(1);
  });
});
