import type { RepoAction } from '../access-control/decider.ts';
import { INDEXED_PACKAGE_TYPES } from '../artifact-actions/calculate-index.ts';
import { VERSIONED_PACKAGE_TYPES } from '../artifact-actions/delete-versions.ts';
import { looksLikeText } from '../file-views/text-rules.ts';
import { inTrash, nodeTabs, type TabNode } from './node-tabs.ts';

/** What the console's node details and menus offer (spec 02 §3 tabs, §4 actions by name). */
export interface TabsAndActions {
  tabs: { name: string }[];
  /** `permanent` on delete: whether it skips the trash can (off, in it, or not a local repository). */
  actions: { name: string; permanent?: boolean }[];
}

type Node = TabNode;

/** What the caller may do besides reading. */
export interface Caller {
  /** Administrators alone empty and restore the trash can and zap caches. */
  admin: boolean;
  /** Whether the permission targets let the caller do an action on this node. */
  may: (action: RepoAction) => boolean;
  /** Whether the caller may deploy anywhere: a copy needs somewhere to go. */
  deploysSomewhere: boolean;
  /** Whether the caller may read the Effective Permissions tab (admins). */
  seesPermissions?: boolean;
  /** Whether a signed-in user watches this very node; undefined for anonymous callers. */
  watching?: boolean;
  /** Whether deletes go to the trash can (its setting), so the delete dialog says where. */
  trashOn: boolean;
}

/** Spec 02 §4: a delete is permanent when the trash can is off or the node is already in it. */
function deletesForGood(node: Node, trashOn: boolean): boolean {
  return !trashOn || inTrash(node) || node.repo.rclass !== 'local';
}

/** Reading actions: anyone who may see a node may download it, and view a text file. */
function readActions(node: Node): string[] {
  if (node.type !== 'file') return ['downloadfolder'];
  return looksLikeText(node.path, node.node?.mime_type) ? ['download', 'view'] : ['download'];
}

/** Signed-in users watch anything but the Trash Can's, or stop watching what they watch. */
function watchActions(node: Node, watching: boolean | undefined): string[] {
  if (watching === undefined || inTrash(node)) return [];
  return [watching ? 'unwatch' : 'watch'];
}

/**
 * Writing actions, each only where its server call would do it: copy and move take files
 * and folders of local repositories; delete also empties a remote repository's cache; the
 * trash can's items are restored or deleted for good, and its root emptied. A virtual
 * repository stores nothing of its own, so nothing in it can be written.
 */
function writeActions(node: Node, caller: Caller): string[] {
  const { admin, may } = caller;
  if (inTrash(node)) {
    if (!admin) return [];
    return node.type === 'repository' ? ['emptytrash'] : ['restore', 'delete'];
  }
  if (node.type === 'repository') return [];
  const deletes = may('delete') ? ['delete'] : [];
  if (node.repo.rclass === 'local')
    return [
      ...(caller.deploysSomewhere ? ['copy'] : []),
      ...(caller.deploysSomewhere && may('delete') ? ['move'] : []),
      ...deletes,
      ...(node.type === 'folder' &&
      may('delete') &&
      VERSIONED_PACKAGE_TYPES.has(node.repo.package_type)
        ? ['deleteversions']
        : []),
    ];
  if (node.repo.rclass === 'remote')
    return [...(admin && node.type === 'folder' ? ['zap'] : []), ...deletes];
  return admin && node.type === 'folder' ? ['zapVirtual'] : [];
}

/**
 * Zapping a cache (a remote repository's, or a virtual one's remote members') makes its
 * metadata be checked upstream on the next request: at a repository root or a folder.
 */
function zapActions(node: Node): string[] {
  if (node.type !== 'repository' || inTrash(node)) return [];
  if (node.repo.rclass === 'remote') return ['zap'];
  if (node.repo.rclass === 'virtual') return ['zapVirtual'];
  return [];
}

/** A local repository whose format keeps an index can have it calculated again (admins). */
function indexActions(node: Node): string[] {
  const indexed =
    node.type === 'repository' &&
    node.repo.rclass === 'local' &&
    !inTrash(node) &&
    INDEXED_PACKAGE_TYPES.has(node.repo.package_type);
  return indexed ? ['calculateIndex'] : [];
}

/** The tabs of a node and the actions this caller may take on it. */
export function nodeTabsAndActions(node: Node, caller: Caller): TabsAndActions {
  const actions = [
    ...readActions(node),
    ...watchActions(node, caller.watching),
    ...(caller.admin ? zapActions(node) : []),
    ...(caller.admin ? indexActions(node) : []),
    ...writeActions(node, caller),
  ];
  const tabs: string[] = [...nodeTabs(node)];
  // Effective Permissions follows General (spec 02 §2's order)
  if (caller.seesPermissions) tabs.splice(1, 0, 'EffectivePermission');
  return {
    tabs: tabs.map((name) => ({ name })),
    actions: actions.map((name) =>
      name === 'delete' ? { name, permanent: deletesForGood(node, caller.trashOn) } : { name },
    ),
  };
}
