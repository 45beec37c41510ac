import { describe, expect, it } from 'vitest';
import { PROJECT_LABELS as L, projectKeyError, projectNameError, suggestedKey } from './messages';

describe('project key and name rules (spec 03 §5)', () => {
  it.each([
    ['', L.required],
    ['1abc', L.keyStart],
    ['Abc', L.keyStart],
    ['ab', L.keyChars],
    ['abcdefghijk', L.keyChars],
    ['ab-c', L.keyChars],
    ['abc', null],
    ['a1b2c3d4e5', null],
  ])('key %j: %s', (key, message) => {
    expect(projectKeyError(key)).toBe(message);
  });

  it('wants a name of at most 32 characters', () => {
    expect(projectNameError('  ')).toBe(L.required);
    expect(projectNameError('x'.repeat(33))).toBe(L.tooLong);
    expect(projectNameError('x'.repeat(32))).toBeNull();
  });

  it('suggests a key from the name', () => {
    expect(suggestedKey('Team Alpha')).toBe('teamalpha');
    expect(suggestedKey('2024 Mobile Apps')).toBe('mobileapps');
    expect(suggestedKey('A very long project name')).toBe('averylongp');
  });
});

describe('the quota in the project forms', () => {
  it('reads a small quota back as more than 0 GB, and saves the same bytes', async () => {
    const { toDraft, toProject } = await import('./ProjectFields');
    const project = {
      project_key: 'web',
      display_name: 'Web',
      description: '',
      admin_privileges: { manage_members: true, manage_resources: true, index_resources: true },
      storage_quota_bytes: 10000,
    };
    const draft = toDraft(project);
    expect(Number(draft.quotaGb)).toBeGreaterThan(0);
    expect(toProject(draft, false).storage_quota_bytes).toBe(10000);
    expect(toProject({ ...draft, quotaGb: '' }, false).storage_quota_bytes).toBe(-1);
    expect(toProject({ ...draft, quotaGb: '2' }, false).storage_quota_bytes).toBe(2 * 1024 ** 3);
  });
});
