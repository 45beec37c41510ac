import { BadRequest } from '../../errors.ts';
import { MAX_PATH_LENGTH } from '../artifacts/paths.ts';
import { ARCHIVE_MESSAGES } from './messages.ts';

/** Why a name is refused, in the order they are checked (the first that applies is told). */
const REFUSALS: [RegExp, string][] = [
  // eslint-disable-next-line no-control-regex
  [/\u0000/, 'it contains a NUL character'],
  // eslint-disable-next-line no-control-regex
  [/[\u0001-\u001f\u007f]/, 'it contains control characters'],
  [/\\/, 'it contains a backslash'],
  [/^\//, 'absolute paths are not allowed'],
  [/^[A-Za-z]:/, 'drive letters are not allowed'],
  [/(^|\/)\.\.(\/|$)/, "'..' segments are not allowed"],
  [/;/, "';' is reserved for properties"],
  [/\/\/|(^|\/)\.(\/|$)/, "empty or '.' segments are not allowed"],
];

/**
 * The path an archive entry names, relative to the folder it is exploded into, or
 * undefined for the archive's own root ('./'). Anything that could land outside that folder
 * (zip-slip) or be read differently by another tool is refused, whole: absolute paths, drive
 * letters, '..', backslashes, NUL and control characters. A leading './', as `tar -C dir .`
 * writes, is dropped; a trailing '/' marks a folder.
 */
export function entryPath(rawName: string, targetFolder: string): string | undefined {
  let name = rawName;
  while (name.startsWith('./')) name = name.slice(2);
  if (name === '' || name === '.') return undefined;
  for (const [pattern, reason] of REFUSALS) {
    if (pattern.test(name))
      throw new BadRequest(ARCHIVE_MESSAGES.badEntryName(printable(rawName), reason));
  }
  if (name.endsWith('/')) name = name.slice(0, -1);
  const path = targetFolder ? `${targetFolder}/${name}` : name;
  if (path.length > MAX_PATH_LENGTH) {
    throw new BadRequest(
      ARCHIVE_MESSAGES.badEntryName(
        printable(rawName),
        `the path is longer than ${MAX_PATH_LENGTH} characters`,
      ),
    );
  }
  return path;
}

/** Names go into messages: control characters are shown escaped, and long names cut. */
function printable(name: string): string {
  const shown = name.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return shown.length > 200 ? `${shown.slice(0, 200)}...` : shown;
}
