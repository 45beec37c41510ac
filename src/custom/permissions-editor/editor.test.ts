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
import { listedRepositories } from './repositoryKeys';

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

  it('saves back the sections it does not edit (destinations set by a script) as they were', () => {
    const destination = {
      destinationRules: [{ siteName: '*', cityName: '*', countryCodes: ['DE'] }],
      actions: { users: { dev: ['distribute'] }, groups: {} },
    };
    const form = fromTarget({ name: 'team', destination });
    expect(form.otherSections).toEqual({ destination });
    form.resources.repo = { ...EMPTY_RESOURCE, repositories: ['team-local'] };
    form.grants.users.dev = { repo: ['read'] };
    expect(toTarget(form)).toMatchObject({ name: 'team', destination });
    expect(toTarget(emptyForm())).toEqual({ name: '' });
  });

  it('edits release bundles: a grant made over REST is shown granted and saved back', () => {
    const releaseBundle = {
      'include-patterns': ['app-*/**'],
      'exclude-patterns': [],
      repositories: ['release-bundles'],
      actions: { users: { dev: ['read', 'annotate', 'write', 'distribute'] }, groups: {} },
    };
    const form = fromTarget({ name: 'bundles', releaseBundle });
    expect(form.resources.releaseBundle).toMatchObject({
      mode: 'pattern',
      includePatterns: ['app-*/**'],
    });
    expect(form.grants.users.dev).toEqual({
      releaseBundle: ['read', 'annotate', 'write', 'distribute'],
    });
    expect(form.otherSections).toEqual({});
    expect(toTarget(form).releaseBundle).toEqual({ ...releaseBundle, repositories: [] });
    expect(toggleAction('releaseBundle', [], 'distribute', true)).toEqual([
      'read',
      'annotate',
      'write',
      'distribute',
    ]);
  });

  it('shows a remote repository stored as its cache under its own key, and keeps it on save', () => {
    const choices = [
      { repoKey: 'npm-remote', repoType: 'remote' as const, packageType: 'npm' },
      { repoKey: 'libs', repoType: 'local' as const, packageType: 'generic' },
    ];
    const stored = {
      name: 'team',
      repo: {
        'include-patterns': ['**'],
        'exclude-patterns': [],
        repositories: ['npm-remote-cache', 'libs'],
        actions: { users: { dev: ['read'] }, groups: {} },
      },
    };
    const form = fromTarget(stored, choices);
    expect(form.resources.repo?.repositories).toEqual(['npm-remote', 'libs']);
    // Unchecking libs leaves the remote one, named as the server expects it (it adds -cache).
    form.resources.repo!.repositories = ['npm-remote'];
    expect(toTarget(form).repo?.repositories).toEqual(['npm-remote']);
  });

  it('lists the repositories without _intransit, and those a target names beyond the choices', () => {
    const choices = [
      { repoKey: 'libs', repoType: 'local' as const, packageType: 'generic' },
      { repoKey: 'bundles_intransit', repoType: 'local' as const, packageType: 'generic' },
    ];
    expect(listedRepositories(choices, ['libs', 'gone-local', 'x_intransit'])).toEqual([
      'libs',
      'gone-local',
    ]);
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
