import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TreeNode, TreePage } from '../server/modules/tree-browser/service.ts';
import { TREE_MESSAGES } from '../server/modules/tree-browser/messages.ts';
import {
  adminAuth,
  basic,
  createRepository as createRepositoryIn,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';

let depot: TestDepot;
const BIG_FOLDER_SIZE = 100_000;

const createRepository = (key: string, rclass: string, packageType = 'generic', extra = {}) =>
  createRepositoryIn(depot, key, rclass, { packageType, ...extra });

const deploy = (repoKey: string, path: string, content = path) =>
  deployFile(depot, repoKey, path, content);

async function tree(body: object, query = '', headers: object = adminAuth()) {
  return depot.app.inject({
    method: 'POST',
    url: `/ui/api/v1/ui/treebrowser${query}`,
    headers: { ...headers },
    payload: body,
  });
}

async function page(body: object, query = ''): Promise<TreePage> {
  const response = await tree(body, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const texts = (nodes: TreeNode[]) => nodes.map((node) => node.text);

/** Every page of a folder's children, following continueState to the end. */
async function allChildren(body: object, query = '') {
  const nodes: TreeNode[] = [];
  let continueState: string | undefined;
  let pages = 0;
  do {
    const next = await page({ ...body, type: 'junction', continueState }, query);
    nodes.push(...next.data);
    continueState = next.continueState;
    pages += 1;
  } while (continueState);
  return { nodes, pages };
}

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository('libs-local', 'local', 'maven');
  await createRepository('apps-local', 'local');
  await createRepository('npm-remote', 'remote', 'npm', { url: 'http://127.0.0.1:9/' });
  await createRepository('more-local', 'local');
  await createRepository('all-virtual', 'virtual', 'generic', {
    repositories: ['apps-local', 'more-local'],
  });
  for (const path of [
    'org/apache/commons/lang/1.0/lang-1.0.jar',
    'org/apache/commons/io/2.0/io-2.0.jar',
    'com/acme/tool.jar',
    'readme.txt',
    'b-file.txt',
  ]) {
    await deploy('libs-local', path);
  }
  await deploy('apps-local', 'shared.txt', 'from apps');
  await deploy('apps-local', 'only-apps.txt');
  await deploy('more-local', 'shared.txt', 'from more');
  await deploy('more-local', 'a-more.txt');
  await deploy('apps-local', 'gone/soon.txt');
  await depot.app.inject({
    method: 'DELETE',
    url: '/artifactory/apps-local/gone/soon.txt',
    headers: adminAuth(),
  });
  await seedBigFolder();
});
afterAll(() => depot.close());

/** A folder of 100,000 files and 3 folders, written straight into the tables. */
async function seedBigFolder() {
  await createRepository('big-local', 'local');
  await deploy('big-local', 'huge/sub-a/x.txt');
  await deploy('big-local', 'huge/sub-b/y.txt');
  await deploy('big-local', 'huge/sub-c/z.txt');
  const repo = await depot.services.artifacts.repository('big-local');
  await sql`
    insert into nodes (repository_id, path, parent_path, name, folder, size, created_by, modified_by)
    select ${repo.id}, 'huge/f-' || lpad(i::text, 6, '0') || '.bin', 'huge',
           'f-' || lpad(i::text, 6, '0') || '.bin', false, i, 'seed', 'seed'
    from generate_series(1, ${BIG_FOLDER_SIZE}) as i`.execute(depot.db);
}

describe('the tree root', () => {
  it('lists repositories by kind then key, the trash can last as "Trash Can"', async () => {
    const roots = await page({ type: 'root' });
    expect(texts(roots.data)).toEqual([
      'apps-local',
      'big-local',
      'libs-local',
      'more-local',
      'npm-remote',
      'all-virtual',
      'Trash Can',
    ]);
    expect(roots.continueState).toBeUndefined();
    expect(roots.data.at(-1)).toMatchObject({ repoKey: 'auto-trashcan', trash: true });
    expect(roots.data.find((n) => n.repoKey === 'npm-remote')).toMatchObject({
      type: 'repository',
      repoType: 'remote',
      repoPkgType: 'npm',
      path: '',
      hasChild: true,
    });
  });

  it('sorts by key, and filters by package type, repository type and key', async () => {
    expect(texts((await page({ type: 'root', sortBy: 'repoKey' })).data)).toEqual([
      'all-virtual',
      'apps-local',
      'big-local',
      'libs-local',
      'more-local',
      'npm-remote',
      'Trash Can',
    ]);
    expect(texts((await page({ type: 'root', packageTypes: ['Maven', 'npm'] })).data)).toEqual([
      'libs-local',
      'npm-remote',
    ]);
    expect(texts((await page({ type: 'root', repositoryTypes: ['virtual'] })).data)).toEqual([
      'all-virtual',
    ]);
    expect(texts((await page({ type: 'root', repositoryKeys: ['APPS-local'] })).data)).toEqual([
      'apps-local',
    ]);
    // the console sends every filter as a list, empty when not set: no filter at all
    const unfiltered = await page({ type: 'root', packageTypes: [], repositoryTypes: [] });
    expect(unfiltered.data).toHaveLength(7);
  });

  it('pages many repositories, and puts a must-include one in the first page', async () => {
    for (let i = 0; i < 200; i++)
      await createRepository(`a-${String(i).padStart(3, '0')}`, 'local');
    const first = await page({ type: 'root', mustInclude: 'ALL-VIRTUAL' });
    expect(first.data).toHaveLength(201);
    expect(first.data.at(-1)!.repoKey).toBe('all-virtual');
    expect(first.continueState).toEqual(expect.any(String));
    const second = await page({ type: 'root', continueState: first.continueState });
    expect(second.continueState).toBeUndefined();
    const keys = [...first.data, ...second.data].map((n) => n.repoKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(200 + 7);
    for (let i = 0; i < 200; i++) {
      await depot.services.repositories.delete(`a-${String(i).padStart(3, '0')}`, 'admin');
    }
  });
});

describe("a folder's children", () => {
  it('lists folders first, then files, each by name', async () => {
    const root = await page({ type: 'junction', repoKey: 'libs-local', path: '' });
    expect(texts(root.data)).toEqual(['com', 'org', 'b-file.txt', 'readme.txt']);
    expect(root.data[3]).toMatchObject({
      type: 'file',
      path: 'readme.txt',
      repoType: 'local',
      repoPkgType: 'maven',
      size: 'readme.txt'.length,
      downloadPath: 'libs-local/readme.txt',
      hasChild: false,
    });
  });

  it('merges chains of single folders when compacted', async () => {
    const compacted = await page(
      { type: 'junction', repoKey: 'libs-local', path: '' },
      '?compacted=true',
    );
    expect(compacted.data.slice(0, 2)).toMatchObject([
      { text: 'com/acme', path: 'com/acme', compacted: true, hasChild: true },
      { text: 'org/apache/commons', path: 'org/apache/commons', compacted: true },
    ]);
    const inside = await page(
      { type: 'junction', repoKey: 'libs-local', path: 'org/apache/commons' },
      '?compacted=true',
    );
    expect(texts(inside.data)).toEqual(['io/2.0', 'lang/1.0']);
  });

  it('marks a folder emptied by a delete as having no children', async () => {
    const apps = await page({ type: 'junction', repoKey: 'apps-local', path: '' });
    expect(apps.data.find((node) => node.text === 'gone')).toMatchObject({ hasChild: false });
  });

  it("merges a virtual repository's members, the first member's file winning", async () => {
    const merged = await page({ type: 'junction', repoKey: 'all-virtual', path: '' });
    expect(texts(merged.data)).toEqual(['gone', 'a-more.txt', 'only-apps.txt', 'shared.txt']);
    expect(merged.data.every((node) => node.repoKey === 'all-virtual')).toBe(true);
    const { nodes } = await allChildren({ repoKey: 'all-virtual', path: '', limit: 1 });
    expect(texts(nodes)).toEqual(texts(merged.data));
  });

  it('pages a folder of 100,000 files from the index to its last row', async () => {
    const first = await page({ type: 'junction', repoKey: 'big-local', path: 'huge' });
    expect(first.data).toHaveLength(1000);
    expect(texts(first.data.slice(0, 4))).toEqual(['sub-a', 'sub-b', 'sub-c', 'f-000001.bin']);
    const { nodes, pages } = await allChildren({
      repoKey: 'big-local',
      path: 'huge',
      limit: 5000,
    });
    expect(pages).toBe(21);
    expect(nodes).toHaveLength(BIG_FOLDER_SIZE + 3);
    expect(nodes.at(-1)!.text).toBe(`f-${BIG_FOLDER_SIZE}.bin`);
    expect(new Set(texts(nodes)).size).toBe(nodes.length);
  });

  it('shows the trash can with what was deleted', async () => {
    const trash = await page({ type: 'junction', repoKey: 'auto-trashcan', path: '' });
    expect(trash.data[0]).toMatchObject({ text: 'apps-local', trash: true, type: 'folder' });
  });
});

describe('bad requests', () => {
  it('answers a missing folder with 404 and a file with 400', async () => {
    const missing = await tree({ type: 'junction', repoKey: 'libs-local', path: 'org/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].message).toBe(TREE_MESSAGES.notFound('libs-local', 'org/nope'));
    const file = await tree({ type: 'junction', repoKey: 'libs-local', path: 'readme.txt' });
    expect(file.statusCode).toBe(400);
    const repo = await tree({ type: 'junction', repoKey: 'nope-local', path: '' });
    expect(repo.statusCode).toBe(404);
  });

  it('refuses a continueState it did not send, a bad type and a missing key', async () => {
    for (const body of [
      { type: 'junction', repoKey: 'libs-local', path: '', continueState: 'not-ours' },
      { type: 'root', continueState: Buffer.from('{"offset":-1}').toString('base64url') },
      { type: 'folder' },
      { type: 'junction', path: '' },
      { type: 'junction', repoKey: 'libs-local', path: '../../etc' },
    ]) {
      const response = await tree(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('is for signed-in users while anonymous access is off', async () => {
    const anonymous = await tree({ type: 'root' }, '', {});
    expect(anonymous.statusCode).toBe(401);
    await depot.services.users.create({
      name: 'dev',
      email: 'dev@example.com',
      password: 'dev-pass-1',
    });
    const asDev = await tree({ type: 'root' }, '', { authorization: basic('dev', 'dev-pass-1') });
    expect(asDev.statusCode).toBe(200);
  });
});
