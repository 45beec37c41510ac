import { describe, expect, it } from 'vitest';
import {
  EMPTY_RESOURCE,
  clearResourceGrants,
  displayModeOf,
  emptyForm,
  fromTarget,
  principalsWithoutPermissions,
  toTarget,
  toggleAction,
} from './editor';

describe('the permissions editor form', () => {
  it('chooses By Name only when every saved pattern is a plain name', () => {
    expect(displayModeOf(['**'], [])).toBe('any');
    expect(displayModeOf(['app/**', 'lib/**'], [])).toBe('name');
    expect(displayModeOf(['app/**', 'lib-*/**'], [])).toBe('pattern');
    expect(displayModeOf(['app/**'], ['app/x/**'])).toBe('pattern');
  });

  it('grants the actions before a checked one, and drops those after an unchecked one', () => {
    expect(toggleAction('repo', [], 'delete', true)).toEqual([
      'read',
      'annotate',
      'write',
      'delete',
    ]);
    expect(
      toggleAction('repo', ['read', 'annotate', 'write', 'delete'], 'annotate', false),
    ).toEqual(['read']);
    expect(toggleAction('repo', ['read'], 'read', false)).toEqual([]);
  });

  it('saves back the sections it does not show (release bundles set by a script) as they were', () => {
    const releaseBundle = {
      'include-patterns': ['**'],
      'exclude-patterns': [],
      repositories: ['release-bundles'],
      actions: { users: { dev: ['read'] }, groups: {} },
    };
    const form = fromTarget({ name: 'team', releaseBundle });
    form.resources.repo = { ...EMPTY_RESOURCE, repositories: ['team-local'] };
    form.grants.users.dev = { repo: ['read'] };
    expect(toTarget(form)).toMatchObject({ name: 'team', releaseBundle });
    expect(toTarget(emptyForm())).toEqual({ name: '' });
  });

  it('turns the form into a target and back, leaving out resources without data', () => {
    const form = emptyForm();
    form.name = ' team ';
    form.resources.repo = {
      ...EMPTY_RESOURCE,
      anyRemote: true,
      repositories: ['team-local'],
      mode: 'name',
      names: ['org/acme'],
    };
    form.resources.build = { ...EMPTY_RESOURCE, mode: 'pattern' }; // no patterns: no data
    form.grants.users.dev = { repo: ['read', 'annotate', 'write'], build: ['read'] };
    form.grants.groups.qa = { build: ['read'] };
    const target = toTarget(form);
    expect(target).toEqual({
      name: 'team',
      repo: {
        'include-patterns': ['org/acme/**'],
        'exclude-patterns': [],
        repositories: ['ANY REMOTE', 'team-local'],
        actions: { users: { dev: ['read', 'annotate', 'write'] }, groups: {} },
      },
    });
    expect(principalsWithoutPermissions(form)).toEqual(['qa']);
    const back = fromTarget(target);
    expect(back.resources.repo).toMatchObject({
      anyRemote: true,
      mode: 'name',
      names: ['org/acme'],
    });
    expect(back.grants.users.dev).toEqual({ repo: ['read', 'annotate', 'write'] });
  });

  it('clears a resource from every principal', () => {
    const grants = { users: { dev: { repo: ['read'], build: ['read'] } }, groups: {} };
    expect(clearResourceGrants(grants, 'build')).toEqual({
      users: { dev: { repo: ['read'] } },
      groups: {},
    });
  });
});
