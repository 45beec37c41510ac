/**
 * Ant-style path patterns as repositories use them for include and exclude rules:
 * `**` any number of folders, `*` any characters within one segment, `?` one character.
 * A list is comma-separated; a path matches the list when it matches any entry.
 */
export function compileAntPatterns(list: string): RegExp[] {
  return list
    .split(',')
    .map((pattern) => pattern.trim())
    .filter(Boolean)
    .map(compileAntPattern);
}

export function compileAntPattern(pattern: string): RegExp {
  return new RegExp(antPatternSource(pattern, '.'));
}

/**
 * The same pattern as a PostgreSQL regular expression (`path ~ ...`), for filters the
 * database applies. `.` there matches a line break, which JavaScript's does not: any
 * character but a line break is spelled out, so both decide alike.
 */
export const antPatternPosix = (pattern: string) => antPatternSource(pattern, '[^\\n]');

/** The anchored expression of an Ant pattern, `anyChar` standing for any one character. */
function antPatternSource(pattern: string, anyChar: string): string {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '*' && pattern[i + 1] === '*') {
      const slashFollows = pattern[i + 2] === '/';
      source += slashFollows ? `(?:${anyChar}*/)?` : `${anyChar}*`;
      i += slashFollows ? 2 : 1;
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  // A pattern naming a folder covers everything below it, as in Ant.
  if (pattern.endsWith('/')) source += `${anyChar}*`;
  return `^${source}$`;
}

export function matchesAny(patterns: RegExp[], path: string): boolean {
  return patterns.some((pattern) => pattern.test(path));
}

/** Whether a repository accepts a path: included by one include and by no exclude pattern. */
export function acceptsPath(includes: string, excludes: string, path: string): boolean {
  const included = includes.trim() === '' || matchesAny(compileAntPatterns(includes), path);
  return included && !matchesAny(compileAntPatterns(excludes), path);
}
