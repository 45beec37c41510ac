import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRASH_REPO_KEY } from '../server/modules/trash/service.ts';
import { adminAuth, createRepository, deployFile, startTestDepot } from './helpers/test-app.ts';
import type { TestDepot } from './helpers/test-app.ts';
import { treeOf } from './helpers/tree-invariants.ts';

let depot: TestDepot;

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'gen', 'local');
});
afterAll(() => depot?.close());

const get = async (path: string) => {
  const answer = await depot.app.inject({
    method: 'GET',
    url: `/artifactory/${path}`,
    headers: adminAuth(),
  });
  return answer.statusCode === 200 ? answer.body : answer.statusCode;
};
const del = async (path: string) => {
  const answer = await depot.app.inject({
    method: 'DELETE',
    url: `/artifactory/gen/${path}`,
    headers: adminAuth(),
  });
  expect(answer.statusCode, answer.body).toBe(204);
};
const restore = (trashPath: string) =>
  depot.app.inject({
    method: 'POST',
    url: `/artifactory/api/trash/restore/${trashPath}`,
    headers: adminAuth(),
  });
/** The console's restore call, as the tree's restore dialog sends it. */
const consoleRestore = (trashPath: string, dryRun: boolean) =>
  depot.app.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/artifactactions/restore',
    headers: adminAuth(),
    payload: {
      repoKey: TRASH_REPO_KEY,
      path: trashPath,
      targetRepoKey: 'gen',
      targetPath: trashPath.split('/').slice(1).join('/'),
      dryRun,
    },
  });
const trash = (path: string) => get(`${TRASH_REPO_KEY}/${path}`);

const REFUSAL =
  'Nothing was restored: newer content is at gen/tr/f.txt. Move or delete it first (a delete keeps it in the trash can), or restore to another path';

describe('restoring from the trash never overwrites newer content', () => {
  it('refuses a restore over a file put there since, naming it; the dry run says the same', async () => {
    await deployFile(depot, 'gen', 'tr/f.txt', 'one');
    await del('tr/f.txt');
    await deployFile(depot, 'gen', 'tr/f.txt', 'two');

    const scripted = await restore('gen/tr/f.txt');
    expect(scripted.statusCode).toBe(409);
    expect(scripted.json().errors[0].message).toBe(REFUSAL);
    const dryRun = await consoleRestore('gen/tr/f.txt', true);
    expect(dryRun.statusCode).toBe(409);
    expect(dryRun.json().errors[0].message).toBe(REFUSAL);
    const real = await consoleRestore('gen/tr/f.txt', false);
    expect(real.statusCode).toBe(409);

    expect(await get('gen/tr/f.txt')).toBe('two');
    expect(await trash('gen/tr/f.txt')).toBe('one');
  });

  it('refuses a folder restore when a file inside it changed, and moves nothing', async () => {
    await deployFile(depot, 'gen', 'dir/a.txt', 'a one');
    await deployFile(depot, 'gen', 'dir/b.txt', 'b one');
    await del('dir');
    await deployFile(depot, 'gen', 'dir/b.txt', 'b two');

    const refused = await restore('gen/dir');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0].message).toContain('newer content is at gen/dir/b.txt.');
    expect(await get('gen/dir/a.txt')).toBe(404);
    expect(await get('gen/dir/b.txt')).toBe('b two');
    expect(await trash('gen/dir/a.txt')).toBe('a one');
    expect(await trash('gen/dir/b.txt')).toBe('b one');
  });

  it('restores into a folder that exists again when nothing in it would be replaced', async () => {
    await deployFile(depot, 'gen', 'merge/a.txt', 'a');
    await del('merge/a.txt');
    await deployFile(depot, 'gen', 'merge/new.txt', 'new');
    const restored = await restore('gen/merge/a.txt');
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await get('gen/merge/a.txt')).toBe('a');
    expect(await get('gen/merge/new.txt')).toBe('new');
  });
});

describe('deleting the same path twice', () => {
  it('keeps both versions in the trash: the earlier one set aside as {name}~1', async () => {
    await deployFile(depot, 'gen', 'twice/f.txt', 'first');
    await del('twice/f.txt');
    await deployFile(depot, 'gen', 'twice/f.txt', 'second');
    await del('twice/f.txt');
    await deployFile(depot, 'gen', 'twice/f.txt', 'third');
    await del('twice/f.txt');

    expect(await trash('gen/twice/f.txt')).toBe('third');
    expect(await trash('gen/twice/f.txt~1')).toBe('first');
    expect(await trash('gen/twice/f.txt~2')).toBe('second');

    // Restored without a target, an earlier version goes back where it was deleted from.
    expect((await restore('gen/twice/f.txt~2')).statusCode).toBe(200);
    expect(await get('gen/twice/f.txt')).toBe('second');
    const props = await depot.app.inject({
      method: 'GET',
      url: '/artifactory/api/storage/gen/twice/f.txt?properties',
      headers: adminAuth(),
    });
    expect(props.json().properties ?? {}).toEqual({});
  });

  it('keeps a deleted folder and a deleted file of the same name, whichever came first', async () => {
    await deployFile(depot, 'gen', 'shape/ff', 'a file');
    await del('shape/ff');
    await deployFile(depot, 'gen', 'shape/ff/inner.txt', 'inside');
    await del('shape/ff/inner.txt');
    await del('shape/ff');

    const kept = await treeOf(depot, TRASH_REPO_KEY);
    expect(kept.get('gen/shape/ff')).toBe('folder');
    expect(await trash('gen/shape/ff~1')).toBe('a file');
    expect(await trash('gen/shape/ff~2/inner.txt')).toBe('inside');
    // A file inside a deletion set aside goes back to its own place.
    expect((await restore('gen/shape/ff~2/inner.txt')).statusCode).toBe(200);
    expect(await get('gen/shape/ff/inner.txt')).toBe('inside');
  });
});
