import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { browseFilesystem } from './browse-filesystem.ts';

const root = mkdtempSync(join(tmpdir(), 'depot-browse-'));
const allowed = join(root, 'allowed');
const second = join(root, 'second');
const other = join(root, 'other');
for (const dir of [
  join(allowed, 'nightly', 'deep'),
  join(allowed, 'weekly'),
  join(allowed, '.backup-1.partial'),
  second,
  join(other, 'secret'),
])
  mkdirSync(dir, { recursive: true });
writeFileSync(join(allowed, 'notes.txt'), 'a file');
symlinkSync(other, join(allowed, 'link-out'));
symlinkSync(join(allowed, 'weekly'), join(allowed, 'link-in'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const roots = [allowed, second];
const names = async (path?: string) =>
  (await browseFilesystem(roots, path)).directories.map((dir) => dir.name);

describe('browsing for a backup directory', () => {
  it('starts at the directories the administrator allowed', async () => {
    const answer = await browseFilesystem(roots, undefined);
    expect(answer).toMatchObject({ path: null, parent: null, roots, truncated: false });
    expect(answer.directories).toEqual([
      { name: allowed, path: allowed },
      { name: second, path: second },
    ]);
  });

  it('lists subdirectories only: no files, no hidden work, no link that leads out', async () => {
    expect(await names(allowed)).toEqual(['link-in', 'nightly', 'weekly']);
    const nightly = await browseFilesystem(roots, join(allowed, 'nightly'));
    expect(nightly.directories).toEqual([{ name: 'deep', path: join(allowed, 'nightly', 'deep') }]);
    expect(nightly.parent).toBe(allowed);
    expect((await browseFilesystem(roots, allowed)).parent).toBeNull();
    expect(await names('nightly')).toEqual(['deep']); // relative: from the first allowed one
  });

  it('refuses a path outside the allowed directories, by .., absolute path or link', async () => {
    for (const path of ['..', other, join(other, 'secret'), 'link-out', 'link-out/secret', '/'])
      await expect(browseFilesystem(roots, path), path).rejects.toThrow(
        /outside the backup directories the administrator allowed/,
      );
  });

  it('answers 404 for a directory that is not there, or a file', async () => {
    for (const path of ['missing', 'notes.txt'])
      await expect(browseFilesystem(roots, path), path).rejects.toMatchObject({
        statusCode: 404,
      });
  });
});
