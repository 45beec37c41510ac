import { createHash } from 'node:crypto';
import semver from 'semver';
import { BadRequest } from '../../errors.ts';
import { NPM_MESSAGES as M } from './messages.ts';
import { tarballPath } from './names.ts';
import { TARBALL_BASE, versionDocuments, type Manifest } from './packument.ts';
import type { TarballContents } from './tarball.ts';

/** A tarball's npm checksums: dist.shasum (SHA-1, hex) and dist.integrity (SHA-512, SRI). */
export function tarballChecksums(tarball: Buffer) {
  return {
    shasum: createHash('sha1').update(tarball).digest('hex'),
    integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
  };
}

/** A version string as npm stores it; anything else is refused with npm's wording. */
export function cleanVersion(version: unknown): string {
  const clean = typeof version === 'string' ? semver.valid(version) : null;
  if (!clean) throw new BadRequest(M.invalidVersion(String(version)));
  return clean;
}

/** The tarball must be the package and version the document publishes. */
export function assertTarballMatches(name: string, version: string, contents: TarballContents) {
  const inside = contents.manifest;
  const insideVersion = typeof inside.version === 'string' ? semver.clean(inside.version) : null;
  if (inside.name !== name || insideVersion !== version) {
    throw new BadRequest(
      M.tarballMismatch(`${name}@${version}`, `${String(inside.name)}@${String(inside.version)}`),
    );
  }
}

/**
 * The version document Depot stores: what the client published (or the tarball's own
 * package.json), with the checksums Depot computed and the tarball URL under the marker.
 * The readme is kept apart: packuments stay lean, the package browser reads it alone.
 */
export function storedVersion(
  manifest: Manifest,
  name: string,
  version: string,
  dist: { shasum: string; integrity: string },
) {
  const { readme: _readme, readmeFilename: _file, _attachments: _a, ...rest } = manifest;
  const document: Manifest = {
    ...rest,
    name,
    version,
    _id: `${name}@${version}`,
    dist: {
      ...(manifest.dist as Manifest | undefined),
      ...dist,
      tarball: `${TARBALL_BASE}/${tarballPath(name, version)}`,
    },
  };
  return {
    ...versionDocuments(document),
    description: typeof manifest.description === 'string' ? manifest.description : '',
  };
}
