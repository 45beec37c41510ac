import { afterEach, describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { DEFAULT_FOLDER_DOWNLOAD, type TreeNode, type TreePage } from '../../api/treeBrowser';
import { $notifications, dismissLaterFx } from '../../shell/notifications/model';
import {
  $dialog,
  $dryRunResult,
  actionClicked,
  deleteConfirmed,
  deleteFx,
  downloadFolderConfirmed,
  folderInfoFx,
  fetchTargetsFx,
  transferFx,
  transferSubmitted,
  zapFx,
  calculateIndexFx,
  versionsFx,
  deleteVersionsFx,
  versionsDeleteConfirmed,
} from './actions-model';
import { $activeId, fetchChildrenFx, fetchRootsFx, pathRequested, saveSettingsFx } from './model';
import { ACTION_LABELS } from './messages';
import { ApiError } from '../../api/ApiError';

const node = (repoKey: string, path: string, extra: Partial<TreeNode> = {}): TreeNode => ({
  type: path ? 'file' : 'repository',
  text: path.split('/').pop() || repoKey,
  repoKey,
  path,
  repoType: 'local',
  repoPkgType: 'generic',
  hasChild: !path,
  ...extra,
});
const TRASH = node('auto-trashcan', '', { trash: true, text: 'Trash Can' });
const CHILDREN: Record<string, TreeNode[]> = {
  docs: [node('docs', 'a', { type: 'folder', hasChild: true })],
  'docs/a': [node('docs', 'a/x.txt')],
  other: [node('other', 'x.txt')],
};

function scopeWith(roots: TreeNode[]) {
  const remove = vi.fn(async () => ({ info: 'deleted' }));
  const transfer = vi.fn(async ({ request }: { request: { dryRun: boolean } }) => ({
    info: request.dryRun ? 'would copy 1 file' : 'copied 1 file',
  }));
  const scope = fork({
    handlers: [
      [fetchRootsFx, async (): Promise<TreePage> => ({ data: roots })],
      [
        fetchChildrenFx,
        async ({ id }: { id: string }): Promise<TreePage> => ({ data: CHILDREN[id] ?? [] }),
      ],
      [fetchTargetsFx, async () => roots.filter((r) => !r.trash)],
      [deleteFx, remove],
      [transferFx, transfer],
      [dismissLaterFx, vi.fn(async () => -1)],
      [saveSettingsFx, vi.fn()],
    ],
  });
  return { scope, remove, transfer };
}
const texts = (scope: ReturnType<typeof fork>) => scope.getState($notifications).map((n) => n.text);

describe('node actions', () => {
  it('asks before deleting, deletes into the trash can, then goes to the parent', async () => {
    const { scope, remove } = scopeWith([node('docs', ''), TRASH]);
    await allSettled(pathRequested, { scope, params: 'docs/a/x.txt' });
    const file = node('docs', 'a/x.txt');
    await allSettled(actionClicked, { scope, params: { name: 'delete', node: file } });
    expect(scope.getState($dialog)).toMatchObject({ kind: 'delete', permanent: false });
    expect(remove).not.toHaveBeenCalled();
    await allSettled(deleteConfirmed, { scope });
    expect(remove).toHaveBeenCalledWith(expect.objectContaining({ node: file, permanent: false }));
    expect(scope.getState($dialog)).toBeNull();
    expect(texts(scope)).toEqual(['deleted']);
    expect(scope.getState($activeId)).toBe('docs/a');
  });

  it('deletes for good in the trash can, and where the server says the delete is permanent', async () => {
    const inTrash = node('auto-trashcan', 'docs/x.txt', { trash: true });
    const { scope, remove } = scopeWith([node('docs', ''), TRASH]);
    await allSettled(pathRequested, { scope, params: '' });
    await allSettled(actionClicked, { scope, params: { name: 'delete', node: inTrash } });
    expect(scope.getState($dialog)).toMatchObject({ permanent: true });
    // the trash can is off: the server's offer says so, whatever the tree shows
    const file = node('docs', 'a/x.txt');
    await allSettled(actionClicked, {
      scope,
      params: { name: 'delete', node: file, permanent: true },
    });
    expect(scope.getState($dialog)).toMatchObject({ permanent: true });
    await allSettled(deleteConfirmed, { scope });
    expect(remove).toHaveBeenLastCalledWith(
      expect.objectContaining({ node: file, permanent: true }),
    );
  });

  it('deletes into the trash can when the tree shows none (a first delete, or a reader who may not see it)', async () => {
    const { scope, remove } = scopeWith([node('docs', '')]);
    await allSettled(pathRequested, { scope, params: 'docs/a/x.txt' });
    const file = node('docs', 'a/x.txt');
    await allSettled(actionClicked, {
      scope,
      params: { name: 'delete', node: file, permanent: false },
    });
    expect(scope.getState($dialog)).toMatchObject({ kind: 'delete', permanent: false });
    await allSettled(deleteConfirmed, { scope });
    expect(remove).toHaveBeenCalledWith(expect.objectContaining({ node: file, permanent: false }));
  });

  it('answers a dry run in the dialog; the real run closes it and walks to the target', async () => {
    const { scope, transfer } = scopeWith([node('docs', ''), node('other', ''), TRASH]);
    await allSettled(pathRequested, { scope, params: 'docs/a/x.txt' });
    const file = node('docs', 'a/x.txt');
    await allSettled(actionClicked, { scope, params: { name: 'copy', node: file } });
    const target = { targetRepoKey: 'other', targetPath: 'x.txt' };
    await allSettled(transferSubmitted, { scope, params: { ...target, dryRun: true } });
    expect(scope.getState($dryRunResult)).toBe('would copy 1 file');
    expect(scope.getState($dialog)).toMatchObject({ kind: 'transfer', action: 'copy' });
    expect(scope.getState($activeId)).toBe('docs/a/x.txt');
    await allSettled(transferSubmitted, { scope, params: { ...target, dryRun: false } });
    expect(transfer).toHaveBeenLastCalledWith({
      action: 'copy',
      request: { repoKey: 'docs', path: 'a/x.txt', ...target, dryRun: false },
    });
    expect(scope.getState($dialog)).toBeNull();
    expect(texts(scope)).toEqual(['copied 1 file']);
    expect(scope.getState($activeId)).toBe('other/x.txt');
  });

  it('shows a restore refused over newer content in the dialog, for the dry run and the real one', async () => {
    const { scope, transfer } = scopeWith([node('docs', ''), TRASH]);
    const refusal =
      'Nothing was restored: newer content is at docs/a/x.txt. Move or delete it first (a delete keeps it in the trash can), or restore to another path';
    transfer.mockImplementation(async () => {
      throw new ApiError({
        message: 'Conflict',
        status: 409,
        body: { errors: [{ status: 409, message: refusal }] },
        method: 'POST',
        url: '/ui/api/v1/ui/artifactactions/restore',
      });
    });
    const trashed = node('auto-trashcan', 'docs/a/x.txt');
    await allSettled(actionClicked, { scope, params: { name: 'restore', node: trashed } });
    const target = { targetRepoKey: 'docs', targetPath: 'a/x.txt' };
    await allSettled(transferSubmitted, { scope, params: { ...target, dryRun: true } });
    expect(scope.getState($dryRunResult)).toBe(refusal);
    await allSettled(transferSubmitted, { scope, params: { ...target, dryRun: false } });
    expect(scope.getState($dialog)).toMatchObject({ kind: 'transfer', action: 'restore' });
    expect(scope.getState($dryRunResult)).toBe(refusal);
  });

  it('zaps at once, without a dialog, and says what it did', async () => {
    const zap = vi.fn(async () => ({ info: 'zapped 3 files' }));
    const zapping = fork({
      handlers: [
        [zapFx, zap],
        [dismissLaterFx, vi.fn(async () => -1)],
      ],
    });
    const remote = node('proxy', '', { repoType: 'remote' });
    await allSettled(actionClicked, {
      scope: zapping,
      params: { name: 'zapVirtual', node: remote },
    });
    expect(zap).toHaveBeenCalledWith({ name: 'zapVirtual', node: remote });
    expect(zapping.getState($dialog)).toBeNull();
    expect(texts(zapping)).toEqual(['zapped 3 files']);
  });

  it('lists the versions below a folder, deletes the chosen ones, and reads the folder again', async () => {
    const versions = [
      { groupId: 'org.acme', version: '2.0', directoriesCount: 2 },
      { groupId: 'org.acme', version: '1.0', directoriesCount: 1 },
    ];
    const listing = vi.fn(async (folder: TreeNode) => ({ node: folder, versions }));
    const removing = vi.fn(async () => ({ info: 'Deleted 1 version (2 folders)' }));
    const folder = node('docs', 'a', { type: 'folder', hasChild: true });
    const withVersions = fork({
      values: [[$activeId, 'docs/a']],
      handlers: [
        [versionsFx, listing],
        [deleteVersionsFx, removing],
        [fetchRootsFx, async (): Promise<TreePage> => ({ data: [node('docs', '')] })],
        [
          fetchChildrenFx,
          async ({ id }: { id: string }): Promise<TreePage> => ({ data: CHILDREN[id] ?? [] }),
        ],
        [dismissLaterFx, vi.fn(async () => -1)],
        [saveSettingsFx, vi.fn()],
      ],
    });
    await allSettled(actionClicked, {
      scope: withVersions,
      params: { name: 'deleteversions', node: folder },
    });
    expect(withVersions.getState($dialog)).toEqual({
      kind: 'deleteversions',
      node: folder,
      versions,
    });
    // Nothing ticked: nothing is sent.
    await allSettled(versionsDeleteConfirmed, { scope: withVersions, params: [] });
    expect(removing).not.toHaveBeenCalled();
    await allSettled(versionsDeleteConfirmed, { scope: withVersions, params: [versions[0]!] });
    expect(removing).toHaveBeenCalledWith({ node: folder, versions: [versions[0]] });
    expect(withVersions.getState($dialog)).toBeNull();
    expect(texts(withVersions)).toEqual(['Deleted 1 version (2 folders)']);
    expect(withVersions.getState($activeId)).toBe('docs/a');
  });

  it('calculates an index at once, saying it runs and then what it did', async () => {
    let finish: (answer: { info: string }) => void = () => {};
    const calculate = vi.fn(() => new Promise<{ info: string }>((resolve) => (finish = resolve)));
    const scope = fork({
      handlers: [
        [calculateIndexFx, calculate],
        [dismissLaterFx, vi.fn(async () => -1)],
      ],
    });
    const repo = node('mvn-local', '', { repoPkgType: 'maven' });
    const clicked = allSettled(actionClicked, {
      scope,
      params: { name: 'calculateIndex', node: repo },
    });
    await vi.waitFor(() => expect(calculate).toHaveBeenCalledWith(repo));
    expect(texts(scope)).toEqual([ACTION_LABELS.calculatingIndex('mvn-local')]);
    finish({ info: 'indexed 3 files' });
    await clicked;
    expect(texts(scope)).toEqual([ACTION_LABELS.calculatingIndex('mvn-local'), 'indexed 3 files']);
    expect(scope.getState($dialog)).toBeNull();
  });
});

describe('downloads (spec 02 §4: HEAD, then GET)', () => {
  /** The server's answer to the HEAD, and the links the page clicked to save a download. */
  function stubServer(status: number) {
    const heads: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        heads.push(`${init.method} ${url}`);
        return new Response(null, { status });
      }),
    );
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.getAttribute('href')!);
    });
    return { heads, saved };
  }
  const folder = node('docs', 'a', { type: 'folder', hasChild: true, text: 'a' });
  const file = node('docs', 'a/x.txt');
  const folderScope = () =>
    fork({
      handlers: [
        [folderInfoFx, async (n: TreeNode) => ({ node: n, info: { sizeMB: 1, totalFiles: 2 } })],
        [dismissLaterFx, vi.fn(async () => -1)],
      ],
    });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('saves a folder once its HEAD is answered, after the size confirmation', async () => {
    const { heads, saved } = stubServer(200);
    const scope = folderScope();
    await allSettled(actionClicked, { scope, params: { name: 'downloadfolder', node: folder } });
    expect(scope.getState($dialog)).toMatchObject({ kind: 'downloadfolder' });
    expect(heads).toEqual([]);
    await allSettled(downloadFolderConfirmed, {
      scope,
      params: { archiveType: 'tar.gz', includeChecksumFiles: true },
    });
    const href = '/ui/api/v1/ui/artifactactions/downloadfolder?';
    expect(heads).toEqual([expect.stringMatching(/^HEAD \/ui\/api\/v1\/ui\/artifactactions\//)]);
    expect(saved).toEqual([expect.stringContaining(href)]);
    // the format and the option chosen in the dialog, for the HEAD and the download alike
    expect(heads[0]).toContain('archiveType=tar.gz&includeChecksumFiles=true');
    expect(saved[0]).toContain('repoKey=docs&path=a&archiveType=tar.gz&includeChecksumFiles=true');
    expect(scope.getState($dialog)).toBeNull();
    expect(texts(scope)).toEqual([]);
  });

  it("tells a folder download refused for load in the spec's words, and saves nothing", async () => {
    const { saved } = stubServer(429);
    const scope = folderScope();
    await allSettled(actionClicked, { scope, params: { name: 'downloadfolder', node: folder } });
    await allSettled(downloadFolderConfirmed, { scope, params: DEFAULT_FOLDER_DOWNLOAD });
    expect(saved).toEqual([]);
    expect(texts(scope)).toEqual([
      'There are too many folder download requests currently running, try again later.',
    ]);
  });

  it('stops silently on 401, and tells 403, 404 and a folder past the limits', async () => {
    const cases: [number, TreeNode, string[]][] = [
      [401, file, []],
      [403, file, ['Could not download x.txt: access denied']],
      [404, file, ['Could not download x.txt: it is not there any more']],
      [400, folder, ['Could not download a: it holds more files or bytes than one archive may']],
    ];
    for (const [status, target, expected] of cases) {
      const { saved } = stubServer(status);
      const scope = folderScope();
      const name = target.type === 'file' ? 'download' : 'downloadfolder';
      await allSettled(actionClicked, { scope, params: { name, node: target } });
      if (name === 'downloadfolder')
        await allSettled(downloadFolderConfirmed, { scope, params: DEFAULT_FOLDER_DOWNLOAD });
      expect(saved, String(status)).toEqual([]);
      expect(texts(scope), String(status)).toEqual(expected);
      vi.restoreAllMocks();
    }
  });
});
