/**
 * Which cached files of a remote repository are metadata: indexes and listings an upstream
 * changes in place (a new version appears in maven-metadata.xml, a new chart in index.yaml).
 * Metadata is checked upstream again after `retrievalCachePeriodSecs`; everything else is an
 * immutable artifact once cached. Matched against the path inside the repository.
 *
 * One list per package type, here and nowhere else (docs/remote-repositories.md mirrors it).
 */
const FILE_NAME_PATTERNS: Record<string, RegExp[]> = {
  maven: [/(^|\/)maven-metadata\.xml(\.(md5|sha1|sha256|sha512))?$/],
  helm: [/(^|\/)index\.yaml$/],
  debian: [/(^|\/)dists\/.+\/(Release|InRelease|Release\.gpg|Packages(\.gz|\.xz|\.bz2)?)$/],
  rpm: [/(^|\/)repodata\/repomd\.xml(\.asc)?$/],
  alpine: [/(^|\/)APKINDEX\.tar\.gz$/],
  opkg: [/(^|\/)Packages(\.gz|\.stamps)?$/],
  conda: [/(^|\/)(current_)?repodata\.json(\.bz2|\.zst)?$/, /(^|\/)channeldata\.json$/],
  cran: [/(^|\/)PACKAGES(\.gz|\.rds)?$/],
  gems: [/(^|\/)(latest_|prerelease_)?specs\.[0-9.]+\.gz$/, /^(versions|info\/[^/]+)$/],
  composer: [/(^|\/)packages\.json$/, /^p2?\/.+\.json$/],
  p2: [
    /(^|\/)(content|artifacts|compositeContent|compositeArtifacts)\.(jar|xml|xml\.xz)$/,
    /(^|\/)p2\.index$/,
  ],
  go: [/\/@v\/list$/, /\/@latest$/],
  cargo: [/^config\.json$/, /^index\/.+/],
  nuget: [/(^|\/)index\.json$/, /(^|\/)FindPackagesById\(\)/, /(^|\/)\$metadata$/],
  pypi: [/^(.+\/)?simple(\/.*)?$/, /^pypi\/[^/]+(\/[^/]+)?\/json$/, /^\.pypi\/.+\.html$/],
  terraform: [/(^|\/)versions$/, /^\.well-known\/terraform\.json$/],
  pub: [/^api\/packages\/[^/]+$/],
  conan: [/(^|\/)(latest|revisions)$/],
  chef: [/^api\/v1\/(universe|cookbooks(\/[^/]+)?)$/],
  puppet: [/^v3\/(modules|releases)(\/[^/]*)?$/],
  cocoapods: [/(^|\/)Specs\/.+\.podspec\.json$/],
};

/**
 * npm's package document sits at the package's name, with no file name of its own; an npm
 * repository caches it at `.npm/{name}/package.json` (server/formats/npm/).
 */
const NPM_PACKAGE_DOCUMENT = /^(@[^/]+\/)?[^/@][^/]*$/;
const NPM_CACHED_DOCUMENT = /^\.npm\/(@[^/]+\/)?[^/]+\/package\.json$/;

// Build tools that read Maven repositories share Maven's metadata.
for (const type of ['gradle', 'ivy', 'sbt']) FILE_NAME_PATTERNS[type] = FILE_NAME_PATTERNS.maven;

/**
 * A generic remote repository proxies whatever the upstream is, often another package
 * repository: every type's index files count as metadata there. npm's document is left
 * out: "any path without a folder" would make every top-level file metadata.
 */
const GENERIC_PATTERNS = Object.values(FILE_NAME_PATTERNS).flat();

/**
 * A Docker tag's manifest moves upstream; one cached by digest (`sha256__<hex>/`) never
 * changes. Not among the generic patterns: any `<folder>/manifest.json` would match.
 */
FILE_NAME_PATTERNS.docker = [/(^|\/)(?!sha256__)[^/]+\/(list\.)?manifest\.json$/];

export function metadataPatterns(packageType: string): RegExp[] {
  const type = packageType.toLowerCase();
  if (type === 'generic') return GENERIC_PATTERNS;
  if (type === 'npm') return [NPM_PACKAGE_DOCUMENT, NPM_CACHED_DOCUMENT];
  return FILE_NAME_PATTERNS[type] ?? [];
}

/** True when a cached file at this path is metadata an upstream may change in place. */
export function isMetadataPath(packageType: string, path: string): boolean {
  return metadataPatterns(packageType).some((pattern) => pattern.test(path));
}
