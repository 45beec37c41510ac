import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../api/treeBrowser';
import { keyAction } from './keyboard';
import type { TreeRow } from './rows';

const row = (
  id: string,
  depth: number,
  state: TreeRow['state'],
  type: TreeNode['type'],
): TreeRow => ({
  id,
  depth,
  state,
  empty: false,
  node: {
    type,
    text: id,
    repoKey: id.split('/')[0],
    path: id.split('/').slice(1).join('/'),
    repoType: 'local',
    repoPkgType: 'generic',
    hasChild: type !== 'file',
  },
});
const ROWS = [
  row('a', 0, 'open', 'repository'),
  row('a/x', 1, 'closed', 'folder'),
  row('a/f.txt', 1, 'closed', 'file'),
  row('b', 0, 'closed', 'repository'),
];
const all = { start: 0, end: ROWS.length };

describe('tree keyboard', () => {
  it('moves up and down within the tree and jumps with Home, End and the page keys', () => {
    expect(keyAction(ROWS, all, 1, 'ArrowDown', 10)).toEqual({ kind: 'select', index: 2 });
    expect(keyAction(ROWS, all, 3, 'ArrowDown', 10)).toEqual({ kind: 'select', index: 3 });
    expect(keyAction(ROWS, all, 0, 'ArrowUp', 10)).toEqual({ kind: 'select', index: 0 });
    expect(keyAction(ROWS, all, 0, 'End', 10)).toEqual({ kind: 'select', index: 3 });
    expect(keyAction(ROWS, all, 0, 'PageDown', 2)).toEqual({ kind: 'select', index: 2 });
    expect(keyAction(ROWS, all, -1, 'ArrowDown', 2)).toEqual({ kind: 'select', index: 0 });
  });

  it('opens or steps in with the right arrow, closes or steps out with the left', () => {
    expect(keyAction(ROWS, all, 1, 'ArrowRight', 10)).toEqual({ kind: 'open', index: 1 });
    expect(keyAction(ROWS, all, 0, 'ArrowRight', 10)).toEqual({ kind: 'select', index: 1 });
    expect(keyAction(ROWS, all, 2, 'ArrowRight', 10)).toBeNull();
    expect(keyAction(ROWS, all, 0, 'ArrowLeft', 10)).toEqual({ kind: 'close', index: 0 });
    expect(keyAction(ROWS, all, 2, 'ArrowLeft', 10)).toEqual({ kind: 'select', index: 0 });
  });

  it('toggles with Enter, and leaves files and other keys alone', () => {
    expect(keyAction(ROWS, all, 3, 'Enter', 10)).toEqual({ kind: 'open', index: 3 });
    expect(keyAction(ROWS, all, 0, 'Enter', 10)).toEqual({ kind: 'close', index: 0 });
    expect(keyAction(ROWS, all, 2, 'Enter', 10)).toBeNull();
    expect(keyAction(ROWS, all, 2, 'x', 10)).toBeNull();
  });

  it('stays inside its own range (the trash can is a tree of its own)', () => {
    expect(keyAction(ROWS, { start: 0, end: 3 }, 2, 'ArrowDown', 10)).toEqual({
      kind: 'select',
      index: 2,
    });
  });
});
