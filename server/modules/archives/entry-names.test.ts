import { describe, expect, it } from 'vitest';
import { entryPath } from './entry-names.ts';

const refusal = (name: string) => {
  try {
    entryPath(name, 'target');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('archive entry names', () => {
  it('places plain names inside the target folder', () => {
    expect(entryPath('a.txt', 'target')).toBe('target/a.txt');
    expect(entryPath('lib/deep/b.jar', 'target')).toBe('target/lib/deep/b.jar');
    expect(entryPath('docs/', 'target')).toBe('target/docs');
    expect(entryPath('a.txt', '')).toBe('a.txt');
    expect(entryPath('./././a.txt', 'target')).toBe('target/a.txt');
    expect(entryPath('naïve ünïcode.txt', 'target')).toBe('target/naïve ünïcode.txt');
  });

  it('treats the archive’s own root as no entry', () => {
    for (const root of ['./', '.', '././']) expect(entryPath(root, 'target')).toBeUndefined();
  });

  it('refuses every name that could escape or mean two things', () => {
    const cases: [string, string][] = [
      ['/etc/passwd', 'absolute paths are not allowed'],
      ['/', 'absolute paths are not allowed'],
      ['../x', "'..' segments are not allowed"],
      ['a/../../x', "'..' segments are not allowed"],
      ['a/..', "'..' segments are not allowed"],
      ['..', "'..' segments are not allowed"],
      ['a\\b', 'it contains a backslash'],
      ['..\\x', 'it contains a backslash'],
      ['a\u0000b', 'it contains a NUL character'],
      ['a\nb', 'it contains control characters'],
      ['C:/x', 'drive letters are not allowed'],
      ['c:x', 'drive letters are not allowed'],
      ['a;b=c', "';' is reserved for properties"],
      ['a//b', "empty or '.' segments are not allowed"],
      ['a/./b', "empty or '.' segments are not allowed"],
      ['a//', "empty or '.' segments are not allowed"],
    ];
    for (const [name, reason] of cases) {
      expect(refusal(name), JSON.stringify(name)).toMatch(reason);
    }
    expect(refusal('a\u0000b')).toContain("'a\\u0000b'");
    expect(refusal(`${'x/'.repeat(600)}y`)).toMatch(/longer than 1024 characters/);
  });
});
