import { isWithin, subtreeEnd, type TreeRow } from './rows';

/**
 * One step of walking the tree down to a path (a deep link, a reload, back and forward):
 * what to do next given the rows loaded so far (spec 02 §4 Path navigation).
 */
export type WalkStep =
  | { kind: 'found'; id: string }
  /** A closed folder on the way: open it, then step again. */
  | { kind: 'open'; id: string }
  /** The folder on the way is loading, or more of its children are on their way. */
  | { kind: 'wait' }
  /** `segment` is not there; `lastFoundId` is the deepest row that was (null: no root). */
  | { kind: 'missing'; segment: string; lastFoundId: string | null };

export const pathSegments = (path: string): string[] => path.split('/').filter(Boolean);

/**
 * `target` is `repoKey/path`. `pendingIds` are the rows whose children are still coming in
 * pages. A compacted row (`org/apache/commons`) matches every path it covers, so a target
 * inside a compacted chain selects the chain's row.
 */
export function walkStep(rows: TreeRow[], target: string, pendingIds: Set<string>): WalkStep {
  const segments = pathSegments(target);
  const rootIndex = rows.findIndex((row) => row.depth === 0 && row.id === segments[0]);
  if (rootIndex < 0) return { kind: 'missing', segment: segments[0] ?? '', lastFoundId: null };
  const inRepository = segments.slice(1).join('/');

  let index = rootIndex;
  for (;;) {
    const row = rows[index];
    const reached = row.node.path === inRepository || isWithin(row.node.path, inRepository);
    if (reached || inRepository === '') return { kind: 'found', id: row.id };
    const nextSegment = segments[pathSegments(row.node.path).length + 1];
    if (row.state === 'loading') return { kind: 'wait' };
    if (row.state === 'closed') {
      return row.node.hasChild && row.node.type !== 'file'
        ? { kind: 'open', id: row.id }
        : { kind: 'missing', segment: nextSegment, lastFoundId: row.id };
    }
    const child = findChildOnTheWay(rows, index, inRepository);
    if (child >= 0) {
      index = child;
      continue;
    }
    return pendingIds.has(row.id)
      ? { kind: 'wait' }
      : {
          kind: 'missing',
          segment: missingSegment(rows, index, inRepository),
          lastFoundId: row.id,
        };
  }
}

/** The open row's child that is the path or an ancestor of it. */
function findChildOnTheWay(rows: TreeRow[], index: number, inRepository: string): number {
  const childDepth = rows[index].depth + 1;
  const end = subtreeEnd(rows, index);
  for (let i = index + 1; i < end; i++) {
    const row = rows[i];
    if (row.depth !== childDepth) continue;
    const path = row.node.path;
    if (path === inRepository || inRepository.startsWith(`${path}/`)) return i;
    if (path.startsWith(`${inRepository}/`)) return i; // inside a compacted chain
  }
  return -1;
}

/**
 * The first segment of the path that none of an open row's children has. A compacted child
 * (`org/apache/commons`) covers several segments: `org/apache/nope` lacks `nope`, not `org`.
 */
function missingSegment(rows: TreeRow[], index: number, inRepository: string): string {
  const wanted = pathSegments(inRepository);
  let found = pathSegments(rows[index].node.path).length;
  const childDepth = rows[index].depth + 1;
  const end = subtreeEnd(rows, index);
  for (let i = index + 1; i < end; i++) {
    if (rows[i].depth !== childDepth) continue;
    const child = pathSegments(rows[i].node.path);
    let shared = 0;
    while (shared < child.length && child[shared] === wanted[shared]) shared++;
    found = Math.max(found, shared);
  }
  return wanted[found] ?? '';
}
