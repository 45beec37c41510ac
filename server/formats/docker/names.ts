import { RegistryError } from './protocol-errors.ts';

// The distribution specification's grammar for names, tags and digests.
const NAME_COMPONENT = '[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*';
const NAME = new RegExp(`^${NAME_COMPONENT}(?:/${NAME_COMPONENT})*$`);
const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/;
const SHA256_DIGEST = /^sha256:([a-f0-9]{64})$/;
/** The spec's bound on a name's length (with the host it is pushed to). */
const NAME_MAX = 255;

/** A repository of the protocol resolved to Depot: a Docker repository and an image in it. */
export interface ImageRef {
  /** The name as the client spells it in URLs and scopes. */
  name: string;
  repoKey: string;
  /** The image's path inside the repository (`library/alpine`). */
  image: string;
}

/**
 * Where a client reached the registry: `/v2/` names the repository in the image's first
 * component (`host/<repoKey>/<image>`, the "repository path" method); Artifactory's
 * `/artifactory/api/docker/<repoKey>/v2/` names it in the address.
 */
export interface RegistryAddress {
  /** What comes before `/v2/` in every URL answered (Location, realm). */
  prefix: string;
  /** The repository the address names; undefined for `/v2/`. */
  repoKey?: string;
}

export function imageRef(address: RegistryAddress, name: string): ImageRef {
  if (name.length > NAME_MAX || !NAME.test(name))
    throw new RegistryError('NAME_INVALID', `'${name}' is not a valid image name`);
  if (address.repoKey !== undefined) return { name, repoKey: address.repoKey, image: name };
  const slash = name.indexOf('/');
  if (slash < 0)
    throw new RegistryError(
      'NAME_INVALID',
      `'${name}' names no repository: push to <host>/<repository key>/${name}`,
    );
  return { name, repoKey: name.slice(0, slash), image: name.slice(slash + 1) };
}

/** The name a client uses for an image of a repository, at an address. */
export const clientName = (address: RegistryAddress, repoKey: string, image: string) =>
  address.repoKey !== undefined ? image : `${repoKey}/${image}`;

export const isTag = (reference: string) => TAG.test(reference);

/** The digest algorithms Depot verifies and serves (docs/docker.md, "Digests"). */
export type DigestAlgorithm = 'sha256' | 'sha512';
const SUPPORTED_DIGEST = /^(sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128})$/;

/** A digest Depot supports, split; other algorithms are refused as unsupported. */
export function parseDigest(digest: string): { algorithm: DigestAlgorithm; hex: string } {
  if (SUPPORTED_DIGEST.test(digest)) {
    const [algorithm, hex] = digest.split(':') as [DigestAlgorithm, string];
    return { algorithm, hex };
  }
  if (DIGEST.test(digest) && !/^sha(256|512):/.test(digest))
    throw new RegistryError(
      'UNSUPPORTED',
      `Only sha256 and sha512 digests are supported, not '${digest}'`,
    );
  throw new RegistryError('DIGEST_INVALID', `'${digest}' is not a valid digest`);
}

/** The hex of a sha256 digest; other algorithms are refused as unsupported. */
export function sha256Hex(digest: string): string {
  const match = SHA256_DIGEST.exec(digest);
  if (match) return match[1];
  if (DIGEST.test(digest) && !digest.startsWith('sha256:'))
    throw new RegistryError('UNSUPPORTED', `Only sha256 digests are supported, not '${digest}'`);
  throw new RegistryError('DIGEST_INVALID', `'${digest}' is not a valid digest`);
}

export const isDigest = (reference: string) => DIGEST.test(reference);

/** What a request under `/v2/` asks for, read from the path after `/v2/`. */
export type RegistryPath =
  | { kind: 'base' }
  | { kind: 'catalog' }
  | { kind: 'manifest'; name: string; reference: string }
  | { kind: 'uploads'; name: string; uploadId?: string }
  | { kind: 'blob'; name: string; digest: string }
  | { kind: 'tags'; name: string }
  | { kind: 'referrers'; name: string; digest: string };

const ROUTES: [RegExp, (m: RegExpExecArray) => RegistryPath][] = [
  [/^(.+)\/manifests\/([^/]+)$/, (m) => ({ kind: 'manifest', name: m[1], reference: m[2] })],
  [
    /^(.+)\/blobs\/uploads(?:\/([^/]*))?$/,
    (m) => ({ kind: 'uploads', name: m[1], uploadId: m[2] || undefined }),
  ],
  [/^(.+)\/blobs\/([^/]+)$/, (m) => ({ kind: 'blob', name: m[1], digest: m[2] })],
  [/^(.+)\/tags\/list$/, (m) => ({ kind: 'tags', name: m[1] })],
  [/^(.+)\/referrers\/([^/]+)$/, (m) => ({ kind: 'referrers', name: m[1], digest: m[2] })],
];

export function parseRegistryPath(rest: string): RegistryPath | undefined {
  const path = rest.replace(/\/+$/, '');
  if (path === '') return { kind: 'base' };
  if (path === '_catalog') return { kind: 'catalog' };
  for (const [pattern, make] of ROUTES) {
    const match = pattern.exec(path);
    if (match) return make(match);
  }
  return undefined;
}
