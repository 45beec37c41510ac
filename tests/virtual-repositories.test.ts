import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';

let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot();
  const { repositories } = depot.services;
  await repositories.create({ key: 'team-a', rclass: 'local', packageType: 'generic' });
  await repositories.create({ key: 'team-b', rclass: 'local', packageType: 'generic' });
  await repositories.create({
    key: 'inner',
    rclass: 'virtual',
    packageType: 'generic',
    repositories: ['team-b'],
  });
  await repositories.create({
    key: 'all',
    rclass: 'virtual',
    packageType: 'generic',
    repositories: ['team-a', 'inner'],
    excludesPattern: 'secret/**',
  });
  for (const [path, content] of [
    ['team-a/shared/tool.txt', 'from a'],
    ['team-b/shared/tool.txt', 'from b'],
    ['team-b/shared/only-b.txt', 'only b'],
    ['team-b/secret/key.txt', 'hidden'],
  ]) {
    expect(
      (await depot.request(`/artifactory/${path}`, { method: 'PUT', body: content })).status,
    ).toBe(201);
  }
});
afterAll(() => depot?.close());

const text = async (path: string) => {
  const response = await depot.request(`/artifactory/${path}`);
  return { status: response.status, body: await response.text() };
};

describe('virtual repositories', () => {
  it('resolve members in order: the first one holding the path answers', async () => {
    expect(await text('all/shared/tool.txt')).toEqual({ status: 200, body: 'from a' });
  });

  it('look through nested virtual repositories', async () => {
    expect(await text('all/shared/only-b.txt')).toEqual({ status: 200, body: 'only b' });
    expect((await text('all/shared/only-b.txt.sha256')).status).toBe(200);
  });

  it('apply their own exclude patterns', async () => {
    expect((await text('all/secret/key.txt')).status).toBe(404);
    expect((await text('team-b/secret/key.txt')).status).toBe(200);
  });

  it('list the merged folder of their members', async () => {
    const { body } = await text('all/shared/');
    expect(body).toContain('<a href="only-b.txt">only-b.txt</a>');
    expect(body.match(/href="tool.txt"/g)).toHaveLength(1);
  });

  it('answer 404 for what no member holds', async () => {
    expect((await text('all/shared/missing.txt')).status).toBe(404);
  });
});
