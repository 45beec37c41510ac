import { describe, expect, it } from 'vitest';
import { repoKeyError } from './keyRules';
import { REPO_KEY_MESSAGES } from './messages';

describe('repoKeyError', () => {
  it.each([
    ['', 'local', 'generic', REPO_KEY_MESSAGES.required],
    ['1libs', 'local', 'generic', REPO_KEY_MESSAGES.startsWithNumber],
    ['libs release', 'local', 'generic', REPO_KEY_MESSAGES.illegalCharacters],
    ['libs/release', 'remote', 'generic', REPO_KEY_MESSAGES.illegalCharacters],
    ['Images', 'local', 'docker', REPO_KEY_MESSAGES.dockerLowercase],
    ['libs-cache', 'local', 'generic', REPO_KEY_MESSAGES.localCacheSuffix],
    ['libs-CACHE', 'local', 'maven', REPO_KEY_MESSAGES.localCacheSuffix],
  ] as const)('%j (%s %s) → %s', (key, kind, type, message) => {
    expect(repoKeyError(key, kind, type)).toBe(message);
  });

  it.each([
    ['libs-release', 'local', 'maven'],
    ['Images', 'local', 'generic'],
    ['libs-cache', 'remote', 'generic'],
    ['images', 'virtual', 'docker'],
  ] as const)('accepts %j (%s %s)', (key, kind, type) => {
    expect(repoKeyError(key, kind, type)).toBeUndefined();
  });
});
