import { opendir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFound } from '../../errors.ts';
import { allowedBackupPath, isInside } from './backup-paths.ts';
import { BACKUP_MESSAGES } from './messages.ts';

/** Directories listed per answer: a picker is no place for more. */
export const BROWSE_LIMIT = 1000;

export interface BrowsedDirectory {
  name: string;
  /** Absolute: what the picker puts in the form's Server Path. */
  path: string;
}

export interface BrowseAnswer {
  /** The directory listed; null for the list of allowed directories itself. */
  path: string | null;
  /** Its parent when that is still inside an allowed directory, else null. */
  parent: string | null;
  roots: string[];
  directories: BrowsedDirectory[];
  truncated: boolean;
}

/**
 * The picker behind the backup form's Server Path (`/ui/browsefilesystem`): without a path,
 * the directories the administrator allowed (DEPOT_BACKUP_DIRS); with one, its
 * subdirectories, checked like any backup path (inside an allowed directory as written and
 * once links are followed). A link is listed only when it leads to a directory inside an
 * allowed one; hidden entries (a backup's `.partial` work) are not listed.
 */
export async function browseFilesystem(
  roots: string[],
  requested: string | undefined,
): Promise<BrowseAnswer> {
  if (!requested?.trim())
    return {
      path: null,
      parent: null,
      roots,
      directories: roots.map((root) => ({ name: root, path: root })),
      truncated: false,
    };
  const path = allowedBackupPath(requested, roots, 'path');
  const isDirectory = await stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );
  if (!isDirectory) throw new NotFound(BACKUP_MESSAGES.noDirectory(requested.trim()));
  const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => root)));
  const directories: BrowsedDirectory[] = [];
  let truncated = false;
  for await (const entry of await opendir(path)) {
    if (entry.name.startsWith('.')) continue;
    const child = join(path, entry.name);
    if (!entry.isDirectory() && !(entry.isSymbolicLink() && (await leadsInside(child, realRoots))))
      continue;
    if (directories.length === BROWSE_LIMIT) {
      truncated = true;
      break;
    }
    directories.push({ name: entry.name, path: child });
  }
  directories.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const parent = join(path, '..');
  const parentAllowed = parent !== path && roots.some((root) => isInside(root, parent));
  return { path, parent: parentAllowed ? parent : null, roots, directories, truncated };
}

/** Whether a link ends at a directory inside an allowed one. */
async function leadsInside(link: string, realRoots: string[]) {
  try {
    const target = await realpath(link);
    return (await stat(target)).isDirectory() && realRoots.some((root) => isInside(root, target));
  } catch {
    return false;
  }
}
