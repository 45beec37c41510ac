import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../api/treeBrowser';
import { defaultTarget, parseProperties } from './DeployDialog';
import { deployUrl } from './uploader';

const node = (type: TreeNode['type'], path: string, extra: Partial<TreeNode> = {}): TreeNode => ({
  type,
  text: path,
  repoKey: 'docs',
  path,
  repoType: 'local',
  repoPkgType: 'generic',
  hasChild: type !== 'file',
  ...extra,
});

describe('deploy', () => {
  it('reads key=value lines, a key may repeat, and names the first bad line', () => {
    expect(parseProperties('team=blue\n\n team = red \nlevel=')).toEqual({
      properties: { team: ['blue', 'red'], level: [''] },
    });
    expect(parseProperties('ok=1\n=nokey\nlater=2').badLine).toBe('=nokey');
    expect(parseProperties('just text').badLine).toBe('just text');
  });

  it('targets the active folder, the folder of an active file, and no remote or trash node', () => {
    expect(defaultTarget(node('folder', 'a/b'))).toEqual({ repoKey: 'docs', folder: 'a/b' });
    expect(defaultTarget(node('file', 'a/b/c.txt'))).toEqual({ repoKey: 'docs', folder: 'a/b' });
    expect(defaultTarget(node('repository', ''))).toEqual({ repoKey: 'docs', folder: '' });
    expect(defaultTarget(node('folder', 'a', { repoType: 'remote' })).repoKey).toBe('');
    expect(defaultTarget(node('folder', 'a', { trash: true })).repoKey).toBe('');
    expect(defaultTarget(null).repoKey).toBe('');
  });

  it('encodes each segment and appends properties as matrix parameters', () => {
    expect(deployUrl('docs', 'a b/c#1.txt', { team: ['blue', 'red'], 'k;x': ['v=1'] })).toBe(
      '/artifactory/docs/a%20b/c%231.txt;team=blue,red;k%3Bx=v%3D1',
    );
    expect(deployUrl('docs', '/x/', {})).toBe('/artifactory/docs/x');
  });
});
