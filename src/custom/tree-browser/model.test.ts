import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import type { RootsRequest, TreeNode, TreePage } from '../../api/treeBrowser';
import { $notifications, dismissLaterFx } from '../../shell/notifications/model';
import {
  $activeId,
  $fetching,
  $rows,
  $settings,
  CHILDREN_PAGE,
  fetchChildrenFx,
  fetchRootsFx,
  filtersChanged,
  pathRequested,
  rowClosed,
  rowOpened,
  rowToggled,
  saveSettingsFx,
  treeMounted,
  treeUnmounted,
} from './model';
import { $projects, $selectedProjectKey, projectSelected } from '../../shell/project/model';
import type { Project } from '../../api/projects';
import { TREE_MESSAGES } from './messages';
import { nodeId } from './rows';

/** A small server tree: libs/org/acme/{app.jar, big/...}, docs/readme.txt and a trash can. */
const BIG = 12_345;
function node(repoKey: string, path: string, type: TreeNode['type'], hasChild = true): TreeNode {
  const text = path ? path.split('/').pop()! : repoKey;
  return { type, text, repoKey, path, repoType: 'local', repoPkgType: 'generic', hasChild };
}
const ROOTS = [
  node('docs', '', 'repository'),
  node('libs', '', 'repository'),
  { ...node('auto-trashcan', '', 'repository'), text: 'Trash Can', trash: true },
];
const CHILDREN: Record<string, TreeNode[]> = {
  docs: [node('docs', 'readme.txt', 'file', false)],
  libs: [node('libs', 'org', 'folder')],
  'libs/org': [node('libs', 'org/acme', 'folder')],
  'libs/org/acme': [
    node('libs', 'org/acme/big', 'folder'),
    node('libs', 'org/acme/app.jar', 'file', false),
  ],
  'libs/org/acme/big': Array.from({ length: BIG }, (_, i) =>
    node('libs', `org/acme/big/f${String(i).padStart(6, '0')}`, 'file', false),
  ),
};

function fakeChildren(params: { node: TreeNode; continueState?: string }): TreePage {
  const all = CHILDREN[nodeId(params.node)];
  if (!all) throw new ApiError({ message: 'gone', status: 404, method: 'POST', url: '/x' });
  const offset = params.continueState ? Number(params.continueState) : 0;
  const limit = params.continueState ? CHILDREN_PAGE.next : CHILDREN_PAGE.first;
  const data = all.slice(offset, offset + limit);
  const next = offset + data.length;
  return next < all.length ? { data, continueState: String(next) } : { data };
}

function scopeWith(
  overrides: {
    roots?: (r: RootsRequest) => Promise<TreePage>;
    children?: typeof fakeChildren;
    /** The project context's key ('default' for All). */
    project?: string;
  } = {},
) {
  const roots = vi.fn<(request: RootsRequest) => Promise<TreePage>>(
    overrides.roots ?? (async () => ({ data: ROOTS })),
  );
  const children = vi.fn(async (p: Parameters<typeof fakeChildren>[0]) =>
    (overrides.children ?? fakeChildren)(p),
  );
  const scope = fork({
    values: [
      [$projects, [{ project_key: 'web', display_name: 'Web' } as Project]],
      [$selectedProjectKey, overrides.project ?? 'default'],
    ],
    handlers: [
      [fetchRootsFx, roots],
      [fetchChildrenFx, children],
      [dismissLaterFx, vi.fn(async () => -1)],
      [saveSettingsFx, vi.fn()],
    ],
  });
  return { scope, roots, children };
}
const texts = (scope: ReturnType<typeof fork>) => scope.getState($notifications).map((n) => n.text);
const ids = (scope: ReturnType<typeof fork>) => scope.getState($rows).map((row) => row.id);

describe('tree model', () => {
  it('loads the roots and selects the first one when no path is given', async () => {
    const { scope } = scopeWith();
    await allSettled(pathRequested, { scope, params: '' });
    expect(ids(scope)).toEqual(['docs', 'libs', 'auto-trashcan']);
    expect(scope.getState($activeId)).toBe('docs');
    expect(scope.getState($fetching)).toBe(0);
  });

  it('asks for the project context’s roots, and starts again when another project is chosen', async () => {
    const { scope, roots } = scopeWith({ project: 'web' });
    await allSettled(treeMounted, { scope, params: '' });
    expect(roots.mock.calls[0][0].projectKey).toBe('web');
    await allSettled(projectSelected, { scope, params: 'default' });
    expect(roots).toHaveBeenCalledTimes(2);
    expect(roots.mock.calls[1][0].projectKey).toBeUndefined();
    // Off screen, a change of context asks for nothing.
    await allSettled(treeUnmounted, { scope });
    await allSettled(projectSelected, { scope, params: 'web' });
    expect(roots).toHaveBeenCalledTimes(2);
  });

  it('walks a deep link down to the node, asking for its repository first', async () => {
    const { scope, roots } = scopeWith();
    await allSettled(pathRequested, { scope, params: 'libs/org/acme/app.jar' });
    expect(roots.mock.calls[0][0].mustInclude).toBe('libs');
    expect(scope.getState($activeId)).toBe('libs/org/acme/app.jar');
    expect(ids(scope).slice(0, 6)).toEqual([
      'docs',
      'libs',
      'libs/org',
      'libs/org/acme',
      'libs/org/acme/big',
      'libs/org/acme/app.jar',
    ]);
    expect(scope.getState($rows)[3]).toMatchObject({ depth: 2, state: 'open' });
  });

  it('names a missing segment with the not-found suffix and selects the last found node', async () => {
    const { scope } = scopeWith();
    await allSettled(pathRequested, { scope, params: 'libs/org/nope/x.jar' });
    expect(texts(scope)).toEqual([`nope ${TREE_MESSAGES.notFoundSuffix}`]);
    expect(scope.getState($activeId)).toBe('libs/org');
  });

  it('goes closed, loading, open, and closing removes every descendant', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { scope } = scopeWith();
    await allSettled(pathRequested, { scope, params: 'libs/org/acme/app.jar' });
    await allSettled(rowClosed, { scope, params: 'libs' });
    expect(ids(scope)).toEqual(['docs', 'libs', 'auto-trashcan']);
    expect(scope.getState($activeId)).toBe('libs'); // the active row was inside

    const slow = scopeWith({ children: fakeChildren });
    slow.children.mockImplementation(async (p) => {
      await gate;
      return fakeChildren(p);
    });
    await allSettled(pathRequested, { scope: slow.scope, params: '' });
    const opening = allSettled(rowOpened, { scope: slow.scope, params: 'docs' });
    expect(slow.scope.getState($rows)[0].state).toBe('loading');
    release();
    await opening;
    expect(slow.scope.getState($rows)[0].state).toBe('open');
    expect(ids(slow.scope)[1]).toBe('docs/readme.txt');
    await allSettled(rowToggled, { scope: slow.scope, params: 'docs' });
    expect(slow.scope.getState($rows)[0].state).toBe('closed');
    expect(ids(slow.scope)).toEqual(['docs', 'libs', 'auto-trashcan']);
  });

  it('brings a big folder in pages, the first small, and walks to a child on the last page', async () => {
    const { scope, children } = scopeWith();
    const last = `libs/org/acme/big/f${String(BIG - 1).padStart(6, '0')}`;
    await allSettled(pathRequested, { scope, params: last });
    expect(scope.getState($activeId)).toBe(last);
    const bigPages = children.mock.calls.filter(([p]) => p.node.path === 'org/acme/big');
    expect(bigPages.length).toBe(1 + Math.ceil((BIG - CHILDREN_PAGE.first) / CHILDREN_PAGE.next));
    const rows = scope.getState($rows);
    const big = rows.filter((row) => row.id.startsWith('libs/org/acme/big/'));
    expect(big).toHaveLength(BIG);
    expect(new Set(big.map((row) => row.id)).size).toBe(BIG);
    expect(rows[rows.length - 1].id).toBe('auto-trashcan');
  });

  it('drops pages of an opening that was closed meanwhile', async () => {
    const { scope } = scopeWith();
    await allSettled(pathRequested, { scope, params: 'libs/org/acme/app.jar' });
    const opening = allSettled(rowOpened, { scope, params: 'libs/org/acme/big' });
    await allSettled(rowClosed, { scope, params: 'libs/org/acme/big' });
    await allSettled(rowOpened, { scope, params: 'libs/org/acme/big' });
    await opening;
    const big = scope.getState($rows).filter((row) => row.id.startsWith('libs/org/acme/big/'));
    expect(big).toHaveLength(BIG);
  });

  it('marks a node that fails to open empty: silent on 404, "Could not open node" otherwise', async () => {
    const failing = (status: number) => () => {
      throw new ApiError({ message: 'x', status, method: 'POST', url: '/x' });
    };
    for (const [status, shown] of [
      [404, []],
      [500, [TREE_MESSAGES.couldNotOpen]],
    ] as const) {
      const { scope } = scopeWith({ children: failing(status) });
      await allSettled(pathRequested, { scope, params: '' });
      await allSettled(rowOpened, { scope, params: 'libs' });
      expect(scope.getState($rows)[1]).toMatchObject({ state: 'open', empty: true });
      expect(texts(scope)).toEqual(shown);
    }
  });

  it('clears the filters and looks again when a deep link misses under filters', async () => {
    const roots = vi.fn(async (request: RootsRequest) => ({
      data: request.packageTypes.length ? [ROOTS[0]] : ROOTS,
    }));
    const { scope } = scopeWith({ roots });
    await allSettled(filtersChanged, {
      scope,
      params: { packageTypes: ['npm'], repositoryTypes: [] },
    });
    await allSettled(pathRequested, { scope, params: 'libs/org' });
    expect(scope.getState($activeId)).toBe('libs/org');
    expect(scope.getState($settings).filters.packageTypes).toEqual([]);
    expect(texts(scope)).toEqual([]);
  });
});
