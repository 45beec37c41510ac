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
