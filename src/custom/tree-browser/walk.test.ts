import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../api/treeBrowser';
import type { TreeRow } from './rows';
import { walkStep } from './walk';

function row(path: string, depth: number, state: TreeRow['state'], compacted = false): TreeRow {
  const node: TreeNode = {
    type: path ? 'folder' : 'repository',
    text: path || 'libs',
    repoKey: 'libs',
    path,
    repoType: 'local',
    repoPkgType: 'generic',
    hasChild: true,
    ...(compacted ? { compacted: true } : {}),
  };
  return { id: path ? `libs/${path}` : 'libs', node, depth, state, empty: false };
}

/** libs, open, whose one child is the compacted chain org/apache/commons (closed). */
const rows = [row('', 0, 'open'), row('org/apache/commons', 1, 'closed', true)];

describe('walking a deep link into compacted folders', () => {
  it('names the first segment the chain lacks, not the chain head', () => {
    expect(walkStep(rows, 'libs/org/apache/nope/x.jar', new Set())).toEqual({
      kind: 'missing',
      segment: 'nope',
      lastFoundId: 'libs',
    });
    expect(walkStep(rows, 'libs/org/other', new Set())).toMatchObject({ segment: 'other' });
    expect(walkStep(rows, 'libs/net/x', new Set())).toMatchObject({ segment: 'net' });
  });

  it('still finds a path inside the chain, and opens the chain for one below it', () => {
    expect(walkStep(rows, 'libs/org/apache', new Set())).toEqual({
      kind: 'found',
      id: 'libs/org/apache/commons',
    });
    expect(walkStep(rows, 'libs/org/apache/commons/io/a.jar', new Set())).toEqual({
      kind: 'open',
      id: 'libs/org/apache/commons',
    });
  });
});
