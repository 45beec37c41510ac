import { parentIndex, type TreeRow } from './rows';

export type KeyAction =
  | { kind: 'select'; index: number }
  | { kind: 'open'; index: number }
  | { kind: 'close'; index: number };

const openable = (row: TreeRow) => row.node.type !== 'file' && row.node.hasChild;

/**
 * What a key does in a tree of `rows[start..end)` (spec 02 §2: arrows and Enter navigate):
 * up and down move, right opens or steps into, left closes or steps out, Enter opens or
 * closes, Home, End and the page keys jump. Null for keys the tree leaves alone.
 */
export function keyAction(
  rows: TreeRow[],
  range: { start: number; end: number },
  activeIndex: number,
  key: string,
  pageRows: number,
): KeyAction | null {
  const { start, end } = range;
  if (end <= start) return null;
  const inRange = (index: number) => Math.max(start, Math.min(end - 1, index));
  if (activeIndex < start || activeIndex >= end) {
    return ['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(key)
      ? { kind: 'select', index: key === 'End' ? end - 1 : start }
      : null;
  }
  const row = rows[activeIndex];
  switch (key) {
    case 'ArrowDown':
      return { kind: 'select', index: inRange(activeIndex + 1) };
    case 'ArrowUp':
      return { kind: 'select', index: inRange(activeIndex - 1) };
    case 'PageDown':
      return { kind: 'select', index: inRange(activeIndex + pageRows) };
    case 'PageUp':
      return { kind: 'select', index: inRange(activeIndex - pageRows) };
    case 'Home':
      return { kind: 'select', index: start };
    case 'End':
      return { kind: 'select', index: end - 1 };
    case 'ArrowRight':
      if (row.state === 'closed' && openable(row)) return { kind: 'open', index: activeIndex };
      if (row.state === 'open' && rows[activeIndex + 1]?.depth > row.depth)
        return { kind: 'select', index: activeIndex + 1 };
      return null;
    case 'ArrowLeft': {
      if (row.state === 'open') return { kind: 'close', index: activeIndex };
      const parent = parentIndex(rows, activeIndex);
      return parent >= start ? { kind: 'select', index: parent } : null;
    }
    case 'Enter':
      if (!openable(row) && row.state !== 'open') return null;
      return row.state === 'closed'
        ? { kind: 'open', index: activeIndex }
        : { kind: 'close', index: activeIndex };
    default:
      return null;
  }
}
