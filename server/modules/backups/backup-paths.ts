import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { BadRequest } from '../../errors.ts';
import { BACKUP_MESSAGES } from './messages.ts';

/** Whether `path` is `root` or lies below it (both resolved). */
export const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** The real path of `path`'s deepest existing ancestor, with the rest appended. */
function realPathSoFar(path: string): string {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(existing), ...rest.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.push(existing.slice(parent.length).replace(/^[/\\]/, ''));
      existing = parent;
    }
  }
}

/**
 * The directory a request names, checked against the administrator's list
 * (DEPOT_BACKUP_DIRS): resolved (a relative path from the first allowed directory), then
 * inside an allowed directory both as written and once symbolic links are followed, so
 * neither `..` nor a link leads out. `field` names the input for the error.
 */
export function allowedBackupPath(requested: string, allowedDirs: string[], field: string) {
  const trimmed = requested.trim();
  if (!trimmed) throw new BadRequest(BACKUP_MESSAGES.pathRequired, field);
  if (trimmed.includes('\0')) throw new BadRequest(BACKUP_MESSAGES.pathOutside(trimmed), field);
  const path = resolve(allowedDirs[0], trimmed);
  const allowed = allowedDirs.find((dir) => isInside(dir, path));
  if (!allowed) throw new BadRequest(BACKUP_MESSAGES.pathOutside(trimmed), field);
  mkdirSync(allowed, { recursive: true });
  if (!isInside(realpathSync(allowed), realPathSoFar(path)))
    throw new BadRequest(BACKUP_MESSAGES.pathOutside(trimmed), field);
  return path;
}
