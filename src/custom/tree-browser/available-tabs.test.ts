import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../api/treeBrowser';
import { availableTabs } from './DetailsPanel';
import type { NodeInfo } from './details-model';
import type { TreeRow } from './rows';

const node: TreeNode = {
  type: 'file',
  text: 'app.jar',
  repoKey: 'libs',
  path: 'app.jar',
  repoType: 'local',
  repoPkgType: 'maven',
  hasChild: false,
};
const row = { id: 'libs/app.jar', node } as TreeRow;
const info = (id: string, tabs: string[]): NodeInfo =>
  ({ id, offer: { tabs: tabs.map((name) => ({ name })), actions: [] } }) as unknown as NodeInfo;

describe('the tabs a node shows (spec 02 §2: unavailable tabs fall back to General)', () => {
  it("are the server's offer for the active node", () => {
    expect(availableTabs(info('libs/app.jar', ['General', 'PomView']), row)).toEqual([
      'General',
      'PomView',
    ]);
  });

  it('always include General, first when the offer lacks it', () => {
    expect(availableTabs(info('libs/app.jar', ['Properties']), row)).toEqual([
      'General',
      'Properties',
    ]);
  });

  it('are General alone until the answer for this very node has come', () => {
    expect(availableTabs(null, row)).toEqual(['General']);
    expect(availableTabs(info('libs/other.jar', ['General', 'PomView']), row)).toEqual(['General']);
    expect(availableTabs(info('libs/app.jar', ['General']), null)).toEqual(['General']);
  });
});
