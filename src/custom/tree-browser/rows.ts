import type { TreeNode } from '../../api/treeBrowser';

/**
 * The tree as the screen draws it: one flat array of the rows that are visible when every
 * scroll position is reachable, a node followed by its open descendants (depth first). A
 * flat array is what a virtualized list wants, and a folder of 100,000 children is one
 * array splice, not 100,000 component states.
 */
export type RowState = 'closed' | 'loading' | 'open';

export interface TreeRow {
  /** `repoKey` for a repository, `repoKey/path` below it: unique in one tree. */
  id: string;
  node: TreeNode;
  depth: number;
  state: RowState;
  /** Opened and found nothing, or failed to open (spec 02 §4). */
  empty: boolean;
}

export const nodeId = (node: Pick<TreeNode, 'repoKey' | 'path'>): string =>
  node.path ? `${node.repoKey}/${node.path}` : node.repoKey;

export const rowsOf = (nodes: TreeNode[], depth: number): TreeRow[] =>
  nodes.map((node) => ({ id: nodeId(node), node, depth, state: 'closed', empty: false }));

export const indexOfId = (rows: TreeRow[], id: string | null): number =>
  id === null ? -1 : rows.findIndex((row) => row.id === id);

/** The index just after the row's last descendant. */
export function subtreeEnd(rows: TreeRow[], index: number): number {
  const depth = rows[index].depth;
  let end = index + 1;
  while (end < rows.length && rows[end].depth > depth) end++;
  return end;
}

function replaceAt(rows: TreeRow[], index: number, row: TreeRow): TreeRow[] {
  const next = rows.slice();
  next[index] = row;
  return next;
}

export function patchRow(rows: TreeRow[], id: string, patch: Partial<TreeRow>): TreeRow[] {
  const index = indexOfId(rows, id);
  return index < 0 ? rows : replaceAt(rows, index, { ...rows[index], ...patch });
}

/**
 * Appends a page of children below a row, after the children (and their open subtrees)
 * already there; the row becomes open. Unknown rows are left alone: the page came for a
 * node the user closed meanwhile.
 */
export function appendChildren(rows: TreeRow[], parentId: string, children: TreeNode[]): TreeRow[] {
  const index = indexOfId(rows, parentId);
  if (index < 0) return rows;
  const parent = rows[index];
  const end = subtreeEnd(rows, index);
  const hasChildren = end > index + 1 || children.length > 0;
  const opened: TreeRow = { ...parent, state: 'open', empty: !hasChildren };
  return [
    ...rows.slice(0, index),
    opened,
    ...rows.slice(index + 1, end),
    ...rowsOf(children, parent.depth + 1),
    ...rows.slice(end),
  ];
}

/** Closes a row: all its descendants are removed (spec 02 §4). */
export function collapse(rows: TreeRow[], id: string): TreeRow[] {
  const index = indexOfId(rows, id);
  if (index < 0) return rows;
  const end = subtreeEnd(rows, index);
  const closed: TreeRow = { ...rows[index], state: 'closed' };
  return [...rows.slice(0, index), closed, ...rows.slice(end)];
}

/** The row's parent: the nearest row above it that is one level up. */
export function parentIndex(rows: TreeRow[], index: number): number {
  const depth = rows[index]?.depth ?? 0;
  for (let i = index - 1; i >= 0; i--) if (rows[i].depth < depth) return i;
  return -1;
}

/** Is `id` the row `ancestorId` or below it? */
export const isWithin = (id: string, ancestorId: string): boolean =>
  id === ancestorId || id.startsWith(`${ancestorId}/`);
