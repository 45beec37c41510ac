import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allowedBackupPath } from './backup-paths.ts';

const root = mkdtempSync(join(tmpdir(), 'depot-backup-paths-'));
const allowed = join(root, 'allowed');
const other = join(root, 'other');
mkdirSync(other);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const check = (path: string) => () => allowedBackupPath(path, [allowed], 'dir');

describe('backup paths', () => {
  it('takes a relative path from the first allowed directory, and one inside it', () => {
    expect(check('nightly')()).toBe(join(allowed, 'nightly'));
    expect(check(join(allowed, 'a', 'b'))()).toBe(join(allowed, 'a', 'b'));
    expect(check('a/../b')()).toBe(join(allowed, 'b'));
  });

  it('refuses a way out by .., by another absolute path, by a sibling prefix and by a link', () => {
    symlinkSync(other, join(allowed, 'link-out'));
    for (const path of ['..', '../other', other, `${allowed}-x`, 'link-out', 'link-out/deeper'])
      expect(check(path), path).toThrow(/outside the backup directories the administrator allowed/);
    expect(check('  ')).toThrow('Enter a server path');
  });
});
