import { BadRequest } from '../../errors.ts';
import { splitProperty, splitUnescaped } from './property-escapes.ts';

export const MAX_PATH_LENGTH = 1024;

export interface ArtifactPath {
  /** Normalised, no leading or trailing slash; '' is the repository root. */
  path: string;
  /** `;key=value` matrix parameters found in the path (they set properties on deploy). */
  properties: Record<string, string[]>;
}

/**
 * Parses the path part of `/artifactory/{repoKey}/{path}` once, so that the name stored is
 * exactly the name asked for: segments must be plain names (no '.', '..', backslash, NUL or
 * control characters), and `;key=value` pieces are taken out as properties, never kept in a
 * name where they could make one artifact answer for another.
 */
export function parseArtifactPath(raw: string): ArtifactPath {
  if (raw.length > MAX_PATH_LENGTH) {
    throw new BadRequest(`The path is too long: at most ${MAX_PATH_LENGTH} characters`);
  }
  const properties: Record<string, string[]> = {};
  const segments: string[] = [];
  const parts = raw.split('/');
  parts.forEach((part, index) => {
    const [name = '', ...params] = splitUnescaped(part, ';');
    for (const param of params) addMatrixParam(properties, param);
    const trailing = index === parts.length - 1;
    if (name === '' && (index === 0 || trailing)) return; // leading or trailing slash
    checkSegment(name);
    segments.push(name);
  });
  return { path: segments.join('/'), properties };
}

function checkSegment(name: string): void {
  if (name === '') throw new BadRequest('The path has an empty segment (//)');
  if (name === '.' || name === '..')
    throw new BadRequest(`The path may not contain '${name}' segments`);
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(name)) {
    throw new BadRequest('The path may not contain backslashes or control characters');
  }
}

function addMatrixParam(properties: Record<string, string[]>, param: string): void {
  if (param === '') return;
  const { key, values } = splitProperty(param);
  if (!key || key.length > 255 || values.join(',').length > 4096) {
    throw new BadRequest(`Invalid property '${param.slice(0, 64)}' in the path`);
  }
  // Artifactory's multi-value form: key=v1,v2 (a value may hold an escaped comma: v\,1)
  (properties[key] ??= []).push(...values.filter((v, i, all) => v !== '' || all.length === 1));
}

/** The parent folder's path and the node's own name. */
export function splitPath(path: string): { parentPath: string; name: string } {
  const slash = path.lastIndexOf('/');
  return slash < 0
    ? { parentPath: '', name: path }
    : { parentPath: path.slice(0, slash), name: path.slice(slash + 1) };
}

/** Every ancestor folder of a path, outermost first: 'a/b/c.jar' → ['a', 'a/b']. */
export function ancestorsOf(path: string): string[] {
  const segments = path.split('/');
  return segments.slice(0, -1).map((_, index) => segments.slice(0, index + 1).join('/'));
}

/** The row of a folder node: the same shape wherever folders are made (deploy, copy, move). */
export function folderRow(repositoryId: number, path: string, user: string) {
  const { parentPath, name } = splitPath(path);
  return {
    repository_id: repositoryId,
    path,
    parent_path: parentPath,
    name,
    folder: true,
    size: 0,
    created_by: user,
    modified_by: user,
  };
}

/** A LIKE pattern's literal text: `%`, `_` and the escape itself matched as they are. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');
