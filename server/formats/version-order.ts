import semver from 'semver';

/**
 * The order of versions for a format without one of its own: as semver reads them when it
 * can (`1.2` as 1.2.0), else by their text with numbers compared as numbers.
 */
export function fallbackVersionOrder(a: string, b: string): number {
  const left = semver.coerce(a, { includePrerelease: true });
  const right = semver.coerce(b, { includePrerelease: true });
  if (left && right && semver.compare(left, right) !== 0) return semver.compare(left, right);
  return a.localeCompare(b, 'en', { numeric: true });
}

/** A pre-release for a format without its own spelling: semver's. */
export const semverPreRelease = (version: string) =>
  semver.valid(version) ? semver.prerelease(version) !== null : false;
