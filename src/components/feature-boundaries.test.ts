import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The builds pages and the tree browser link to each other but share code only through
 * src/components: neither imports the other, so each can change on its own.
 */
const CUSTOM = resolve(__dirname, '../custom');

function sourcesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesOf(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function featuresImportedBy(feature: string): string[] {
  const imported = new Set<string>();
  for (const file of sourcesOf(join(CUSTOM, feature))) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = relative(CUSTOM, resolve(dirname(file), spec));
      const [top] = target.split('/');
      if (!target.startsWith('..') && top !== feature) imported.add(top);
    }
  }
  return [...imported];
}

describe('feature boundaries', () => {
  it('the builds pages import nothing of the tree browser', () => {
    expect(featuresImportedBy('builds')).not.toContain('tree-browser');
  });

  it('the tree browser imports nothing of the builds pages', () => {
    expect(featuresImportedBy('tree-browser')).not.toContain('builds');
  });
});
