import { describe, expect, it } from 'vitest';
import { acceptsPath, compileAntPattern, compileAntPatterns, matchesAny } from './ant-pattern.ts';

const matches = (pattern: string, path: string) => compileAntPattern(pattern).test(path);

describe('Ant patterns (include and exclude rules, permission targets)', () => {
  it('reads ? as exactly one character within a segment', () => {
    expect(matches('lib-?.jar', 'lib-1.jar')).toBe(true);
    expect(matches('lib-?.jar', 'lib-12.jar')).toBe(false);
    expect(matches('lib-?.jar', 'lib-.jar')).toBe(false);
    expect(matches('a?c/x', 'a/c/x')).toBe(false);
  });

  it('reads * as any characters within one segment, never across a slash', () => {
    expect(matches('org/*/app.jar', 'org/acme/app.jar')).toBe(true);
    expect(matches('org/*/app.jar', 'org/acme/sub/app.jar')).toBe(false);
    expect(matches('*.jar', 'app.jar')).toBe(true);
    expect(matches('*.jar', 'lib/app.jar')).toBe(false);
  });

  it('reads ** as any number of folders, none included', () => {
    expect(matches('**/*.jar', 'app.jar')).toBe(true);
    expect(matches('**/*.jar', 'a/b/c/app.jar')).toBe(true);
    expect(matches('org/**/app.jar', 'org/app.jar')).toBe(true);
    expect(matches('org/**/app.jar', 'org/a/b/app.jar')).toBe(true);
    expect(matches('org/**', 'org/a/b')).toBe(true);
    expect(matches('org/**', 'other/a')).toBe(false);
  });

  it('covers everything below a pattern that names a folder', () => {
    expect(matches('org/acme/', 'org/acme/app/1.0/app.jar')).toBe(true);
    expect(matches('org/acme/', 'org/acmeX/app.jar')).toBe(false);
  });

  it('takes every other character literally', () => {
    expect(matches('a+b(1).[x]$', 'a+b(1).[x]$')).toBe(true);
    expect(matches('a.b', 'axb')).toBe(false);
  });

  it('matches a comma-separated list when any entry matches, and an exclude wins', () => {
    const list = compileAntPatterns(' org/**, *.txt ,');
    expect(list).toHaveLength(2);
    expect(matchesAny(list, 'org/x.jar')).toBe(true);
    expect(matchesAny(list, 'readme.txt')).toBe(true);
    expect(matchesAny(list, 'com/x.jar')).toBe(false);
    expect(acceptsPath('', '', 'any/thing')).toBe(true);
    expect(acceptsPath('**/*', '**/*.secret', 'a/keys.secret')).toBe(false);
    expect(acceptsPath('org/**', '', 'com/a')).toBe(false);
  });
});
