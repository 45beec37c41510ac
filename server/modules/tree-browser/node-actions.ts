import { TRASH_REPO_KEY } from '../trash/service.ts';
import { nodeTabs, type TabNode } from './node-tabs.ts';

/** What the console's node details and menus offer (spec 02 §3 tabs, §4 actions by name). */
export interface TabsAndActions {
  tabs: { name: string }[];
  actions: { name: string }[];
}

type Node = TabNode;

const inTrash = (node: Node) => node.repo.key.toLowerCase() === TRASH_REPO_KEY;

/** Reading actions: anyone who may see a node may download it. */
function readActions(node: Node): string[] {
  return node.type === 'file' ? ['download'] : ['downloadfolder'];
}

/**
 * Writing actions, each only where its server call would do it: copy and move take files
 * and folders of local repositories; delete also empties a remote repository's cache; the
 * trash can's items are restored or deleted for good, and its root emptied. A virtual
 * repository stores nothing of its own, so nothing in it can be written.
 */
function writeActions(node: Node): string[] {
  if (inTrash(node)) return node.type === 'repository' ? ['emptytrash'] : ['restore', 'delete'];
  if (node.type === 'repository') return [];
  if (node.repo.rclass === 'local') return ['copy', 'move', 'delete'];
  if (node.repo.rclass === 'remote') return ['delete'];
  return [];
}

/** The tabs and the actions a caller may take on a node; `mayWrite` as ARTIFACT_WRITE decides. */
export function nodeTabsAndActions(node: Node, mayWrite: boolean): TabsAndActions {
  const actions = [...readActions(node), ...(mayWrite ? writeActions(node) : [])];
  return {
    tabs: nodeTabs(node).map((name) => ({ name })),
    actions: actions.map((name) => ({ name })),
  };
}
