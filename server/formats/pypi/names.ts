/** PEP 503's normalized project name: lowercase, runs of `-`, `_` and `.` become one `-`. */
export const normalizeName = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

/** A version as PEP 440 allows it (its appendix's pattern, case-insensitive). */
const PEP_440 =
  /^v?(?:(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?(?:[-_.]?dev[-_.]?[0-9]*)?)(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?$/i;

export const isPep440Version = (version: string) => PEP_440.test(version.trim());

export interface Distribution {
  name: string;
  version: string;
  kind: 'wheel' | 'sdist';
}

const SDIST = /^(.+)-([^-]+)\.(tar\.gz|zip|tar\.bz2|tar\.xz|tgz)$/i;

/**
 * The project and version a distribution's file name gives: a wheel's is
 * `{name}-{version}(-{build})?-{python}-{abi}-{platform}.whl` (PEP 427), an sdist's
 * `{name}-{version}.tar.gz`. Undefined for a name that is neither.
 */
export function parseDistributionName(filename: string): Distribution | undefined {
  if (filename.endsWith('.whl')) {
    const parts = filename.slice(0, -4).split('-');
    if (parts.length !== 5 && parts.length !== 6) return undefined;
    return { name: parts[0]!, version: parts[1]!, kind: 'wheel' };
  }
  const sdist = SDIST.exec(filename);
  return sdist ? { name: sdist[1]!, version: sdist[2]!, kind: 'sdist' } : undefined;
}

/** Where a distribution file is kept in a repository: `{project}/{version}/{file}`. */
export const distributionPath = (name: string, version: string, filename: string) =>
  `${normalizeName(name)}/${version}/${filename}`;

/** Where a remote repository caches the upstream's page of a project. */
export const cachedPagePath = (project: string) => `.pypi/${project}.html`;

/** The upstream's index of all projects, cached. */
export const CACHED_ROOT_PATH = '.pypi/simple.html';
