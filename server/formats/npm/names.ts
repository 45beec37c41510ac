import validateName from 'validate-npm-package-name';
import { BadRequest } from '../../errors.ts';

/** A request path under `/artifactory/api/npm/{repoKey}/`, split into package name and rest. */
export interface NpmPath {
  name: string;
  /** The segments after the name: [] for the document, ['-', file] for a tarball, ... */
  rest: string[];
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new BadRequest(`The path segment '${segment}' is not valid percent-encoding`);
  }
}

/**
 * Splits the raw (still encoded) path after the repository key. npm escapes a scoped name's
 * slash (`@scope%2fname`); other clients send it plain (`@scope/name`): both name the same
 * package.
 */
export function parseNpmPath(rawPath: string): NpmPath {
  const segments = rawPath
    .split('?')[0]!
    .replace(/%2f/gi, '/')
    .split('/')
    .filter((segment) => segment !== '')
    .map(decodeSegment);
  const scoped = segments[0]?.startsWith('@');
  const nameLength = scoped ? 2 : 1;
  if (segments.length < nameLength) throw new BadRequest('The path names no package');
  return {
    name: segments.slice(0, nameLength).join('/'),
    rest: segments.slice(nameLength),
  };
}

/** The name without its scope: `@acme/tools` → `tools`. */
export const unscopedName = (name: string) => name.slice(name.lastIndexOf('/') + 1);

/** Where a version's tarball is stored in a repository: npm's own registry layout. */
export const tarballPath = (name: string, version: string) =>
  `${name}/-/${unscopedName(name)}-${version}.tgz`;

/** A tarball's path from its file name, as a tarball URL names it. */
export const tarballPathOf = (name: string, file: string) => `${name}/-/${file}`;

/** Where a remote repository caches a package's document (not at the name: that is a folder). */
export const cachedDocumentPath = (name: string) => `.npm/${name}/package.json`;

/** The name as npm escapes it in a URL: `@scope%2fname`. */
export const escapedName = (name: string) =>
  name.startsWith('@') ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);

/** npm's own name rules (validate-npm-package-name), for packages published now. */
export function assertPublishableName(name: string): void {
  const verdict = validateName(name);
  if (!verdict.validForNewPackages) {
    const reasons = [...(verdict.errors ?? []), ...(verdict.warnings ?? [])];
    throw new BadRequest(`Invalid package name '${name}': ${reasons.join('; ')}`);
  }
}

/** `foo-1.2.3.tgz` of package foo → '1.2.3'; undefined when the file is not named so. */
export function versionOfTarball(name: string, file: string): string | undefined {
  const prefix = `${unscopedName(name)}-`;
  if (!file.startsWith(prefix) || !file.endsWith('.tgz')) return undefined;
  return file.slice(prefix.length, -'.tgz'.length);
}
