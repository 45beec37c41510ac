import { describe, expect, it } from 'vitest';
import { deciderFromGrants, grantsFor } from './grants.ts';
import type { PermissionTarget } from './permission-target.ts';

const repositories = [
  { key: 'libs-local', rclass: 'local' as const },
  { key: 'other-local', rclass: 'local' as const },
  { key: 'central', rclass: 'remote' as const },
  { key: 'all-libs', rclass: 'virtual' as const, repositories: ['libs-local', 'central'] },
];

function decide(targets: PermissionTarget[], name = 'dev', groups: string[] = []) {
  return deciderFromGrants(grantsFor(targets, { name, groups }), repositories);
}

const section = (over: object) => ({
  'include-patterns': ['**'],
  'exclude-patterns': [],
  repositories: ['libs-local'],
  actions: { users: {}, groups: {} },
  ...over,
});

describe('access decided from permission targets', () => {
  it('grants the named actions and the ones they imply, on the named repository only', () => {
    const access = decide([
      { name: 't', repo: section({ actions: { users: { dev: ['delete'] }, groups: {} } }) },
    ]);
    for (const action of ['read', 'annotate', 'deploy', 'delete'] as const)
      expect(access.can(action, 'libs-local', 'a.txt')).toBe(true);
    expect(access.can('manage', 'libs-local', 'a.txt')).toBe(false);
    expect(access.can('read', 'other-local', 'a.txt')).toBe(false);
    expect(access.readableRepoKeys()).toEqual(new Set(['libs-local', 'all-libs']));
  });

  it('follows include and exclude patterns, and lets folders lead to what is included', () => {
    const access = decide([
      {
        name: 't',
        repo: section({
          'include-patterns': ['org/acme/**'],
          'exclude-patterns': ['org/acme/secret/**'],
          actions: { users: { dev: ['read'] }, groups: {} },
        }),
      },
    ]);
    expect(access.can('read', 'libs-local', 'org/acme/app/1.0/app.jar')).toBe(true);
    expect(access.can('read', 'libs-local', 'org/acme/secret/key.txt')).toBe(false);
    expect(access.can('read', 'libs-local', 'org/other/x.jar')).toBe(false);
    expect(access.can('read', 'libs-local', 'org', 'folder')).toBe(true);
    expect(access.can('read', 'libs-local', 'org', 'file')).toBe(false);
    expect(access.can('read', 'libs-local', '', 'folder')).toBe(true);
    expect(access.can('read', 'libs-local', 'com', 'folder')).toBe(false);
  });

  it('grants through groups, class markers and remote caches, and reads through virtuals', () => {
    const targets: PermissionTarget[] = [
      {
        name: 'remotes',
        repo: section({
          repositories: ['ANY REMOTE'],
          actions: { users: {}, groups: { team: ['read'] } },
        }),
      },
      {
        name: 'cache',
        repo: section({
          repositories: ['central-cache'],
          actions: { users: { ops: ['write'] }, groups: {} },
        }),
      },
    ];
    const member = decide(targets, 'dev', ['team']);
    expect(member.can('read', 'central', 'x.jar')).toBe(true);
    expect(member.can('read', 'libs-local', 'x.jar')).toBe(false);
    expect(member.can('read', 'all-libs', 'x.jar')).toBe(true); // through central
    expect(decide(targets, 'dev', []).can('read', 'central', 'x.jar')).toBe(false);
    expect(decide(targets, 'ops').can('deploy', 'central', 'x.jar')).toBe(true);
  });

  it('grants nothing to a principal no target names', () => {
    const access = decide([{ name: 't', repo: section({ repositories: ['ANY'] }) }]);
    expect(access.can('read', 'libs-local', 'a')).toBe(false);
    expect(access.readableRepoKeys()).toEqual(new Set());
  });
});
