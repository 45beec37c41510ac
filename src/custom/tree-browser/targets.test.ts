import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../api/treeBrowser';
import { compatibleTargets, originalLocation, parentPathOf, transferDestination } from './targets';

const repo = (repoKey: string, repoPkgType: string): TreeNode => ({
  type: 'repository',
  text: repoKey,
  repoKey,
  path: '',
  repoType: 'local',
  repoPkgType,
  hasChild: true,
});
const REPOS = [
  repo('files', 'generic'),
  repo('gradle-local', 'gradle'),
  repo('npm-local', 'npm'),
  repo('mvn', 'maven'),
];
const file = (repoPkgType: string): TreeNode => ({
  ...repo('src', repoPkgType),
  type: 'file',
  path: 'a/b.jar',
  text: 'b.jar',
});

describe('copy, move and restore targets', () => {
  it('offers the same type, generic, and Maven-like types to each other', () => {
    const keys = (nodes: TreeNode[]) => nodes.map((n) => n.repoKey);
    expect(keys(compatibleTargets('copy', file('Maven'), REPOS))).toEqual([
      'files',
      'gradle-local',
      'mvn',
    ]);
    expect(keys(compatibleTargets('move', file('npm'), REPOS))).toEqual(['files', 'npm-local']);
    expect(keys(compatibleTargets('restore', file('npm'), REPOS))).toHaveLength(4);
  });

  it('puts a node inside a folder under its own name when the target path ends with /', () => {
    const request = { repoKey: 'src', path: 'a/b.jar', targetRepoKey: 'mvn', dryRun: false };
    expect(transferDestination({ ...request, targetPath: 'x/y/' })).toBe('mvn/x/y/b.jar');
    expect(transferDestination({ ...request, targetPath: 'x/c.jar' })).toBe('mvn/x/c.jar');
    expect(transferDestination({ ...request, targetPath: '' })).toBe('mvn');
  });

  it('knows a parent and where a trashed node came from', () => {
    expect(parentPathOf('docs/a/b.txt')).toBe('docs/a');
    expect(parentPathOf('docs')).toBe('');
    expect(
      originalLocation({ ...file('generic'), repoKey: 'auto-trashcan', path: 'docs/a/b.txt' }),
    ).toEqual({
      repoKey: 'docs',
      path: 'a/b.txt',
    });
  });
});
