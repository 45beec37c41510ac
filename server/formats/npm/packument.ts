import semver from 'semver';

/**
 * Stored version documents name their tarball under this marker; the serving repository's
 * URL replaces it when a packument is sent, so one stored document serves every host name,
 * protocol and virtual repository a client reaches it through.
 */
export const TARBALL_BASE = '@@depot-npm-base@@';

export type Manifest = Record<string, unknown>;

/** The fields of a version npm's install needs: the abbreviated ("corgi") document. */
const ABBREVIATED_FIELDS = [
  'name',
  'version',
  'deprecated',
  'dependencies',
  'optionalDependencies',
  'devDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bundleDependencies',
  'bundledDependencies',
  'acceptDependencies',
  'bin',
  'directories',
  'dist',
  'engines',
  'cpu',
  'os',
  'libc',
  'funding',
  'license',
  '_hasShrinkwrap',
  'hasInstallScript',
] as const;

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

export function abbreviate(manifest: Manifest): Manifest {
  const short: Manifest = {};
  for (const field of ABBREVIATED_FIELDS) {
    if (manifest[field] !== undefined) short[field] = manifest[field];
  }
  const scripts = manifest.scripts as Record<string, unknown> | undefined;
  if (scripts && INSTALL_SCRIPTS.some((name) => scripts[name])) short.hasInstallScript = true;
  return short;
}

/** A version's documents as stored: full and abbreviated, as JSON text. */
export function versionDocuments(manifest: Manifest) {
  return { manifest: JSON.stringify(manifest), abbreviated: JSON.stringify(abbreviate(manifest)) };
}

/** The package-level fields a packument copies from its latest version. */
const FROM_LATEST = [
  'description',
  'keywords',
  'license',
  'homepage',
  'repository',
  'bugs',
  'author',
  'maintainers',
  'contributors',
] as const;

export interface StoredVersion {
  version: string;
  manifest: string;
  abbreviated: string | null;
  created_at: Date;
  readme: string | null;
  readme_filename: string | null;
  /** Who published it (the package's maintainers are its publishers). */
  created_by?: string;
}

/** A maintainer as the npm registry lists them (`npm owner ls` prints `name <email>`). */
export interface Maintainer {
  name: string;
  email: string;
}

export interface StoredPackage {
  name: string;
  tags: Record<string, string>;
  created_at: Date;
  modified_at: Date;
}

/** `"1.0.0":{...}` parts, one per version: stored texts, never parsed and re-serialized. */
const versionParts = (versions: StoredVersion[], pick: (v: StoredVersion) => string) =>
  versions.map((v, i) => `${i > 0 ? ',' : ''}${JSON.stringify(v.version)}:${pick(v)}`);

/** The highest version, releases before prereleases, as npm picks `latest` when none is set. */
export function highestVersion(versions: string[]): string | undefined {
  const valid = versions.filter((v) => semver.valid(v));
  const releases = valid.filter((v) => !semver.prerelease(v));
  return (releases.length ? releases : valid).sort(semver.compare).pop();
}

/**
 * The dist-tags that point at a version still there (a deleted file takes its version
 * away), with `latest` on the highest release when its own version is gone.
 */
export function liveTags(tags: Record<string, string>, versions: string[]) {
  const present = new Set(versions);
  const live = Object.fromEntries(Object.entries(tags).filter(([, v]) => present.has(v)));
  const highest = highestVersion(versions);
  if (!live.latest && highest) live.latest = highest;
  return live;
}

/** The revision npm sends back on unpublish: changes whenever the document does. */
export function revisionOf(pkg: StoredPackage, versions: StoredVersion[]): string {
  return `${versions.length}-${pkg.modified_at.getTime().toString(16)}`;
}

/**
 * The full packument, as text in parts (one per version): the stored version documents are
 * spliced in as they are, so a package of thousands of versions costs string joins, not a
 * parse and a stringify, and whoever sends it can do so a part at a time.
 */
export function fullPackument(
  pkg: StoredPackage,
  versions: StoredVersion[],
  maintainers: Maintainer[] = [],
): string[] {
  const tags = liveTags(
    pkg.tags,
    versions.map((v) => v.version),
  );
  const latest = versions.find((v) => v.version === tags.latest) ?? versions.at(-1);
  const latestManifest = latest ? (JSON.parse(latest.manifest) as Manifest) : {};
  const head: Manifest = {
    _id: pkg.name,
    _rev: revisionOf(pkg, versions),
    name: pkg.name,
    'dist-tags': tags,
    maintainers,
  };
  for (const field of FROM_LATEST) {
    if (latestManifest[field] !== undefined) head[field] = latestManifest[field];
  }
  const time: Record<string, string> = {
    created: pkg.created_at.toISOString(),
    modified: pkg.modified_at.toISOString(),
  };
  for (const v of versions) time[v.version] = v.created_at.toISOString();
  const tail = {
    time,
    readme: latest?.readme ?? '',
    readmeFilename: latest?.readme_filename ?? '',
  };
  return [
    `${JSON.stringify(head).slice(0, -1)},"versions":{`,
    ...versionParts(versions, (v) => v.manifest),
    `},${JSON.stringify(tail).slice(1)}`,
  ];
}

/** The abbreviated packument (application/vnd.npm.install-v1+json), in parts. */
export function abbreviatedPackument(pkg: StoredPackage, versions: StoredVersion[]): string[] {
  const head = {
    name: pkg.name,
    modified: pkg.modified_at.toISOString(),
    'dist-tags': liveTags(
      pkg.tags,
      versions.map((v) => v.version),
    ),
  };
  return [
    `${JSON.stringify(head).slice(0, -1)},"versions":{`,
    ...versionParts(versions, (v) => v.abbreviated ?? v.manifest),
    '}}',
  ];
}

/**
 * Merges the packuments of a virtual repository's members, first member first: a version
 * comes from the first member that has it, a tag from the first that sets it, except
 * `latest`, which is the highest of the members' latest versions.
 */
export function mergePackuments(documents: Manifest[]): Manifest {
  const versions: Record<string, unknown> = {};
  const tags: Record<string, string> = {};
  const time: Record<string, string> = {};
  const latests: string[] = [];
  for (const document of documents) {
    for (const [version, manifest] of Object.entries(
      (document.versions ?? {}) as Record<string, unknown>,
    )) {
      versions[version] ??= manifest;
    }
    for (const [tag, version] of Object.entries(
      (document['dist-tags'] ?? {}) as Record<string, string>,
    )) {
      if (tag === 'latest') latests.push(version);
      else tags[tag] ??= version;
    }
    for (const [key, value] of Object.entries((document.time ?? {}) as Record<string, string>)) {
      if (key === 'modified') time.modified = [time.modified ?? '', value].sort().at(-1)!;
      else if (key === 'created') time.created = [time.created ?? value, value].sort()[0]!;
      else time[key] ??= value;
    }
  }
  const latest = highestVersion(latests);
  if (latest) tags.latest = latest;
  return { ...documents[0], 'dist-tags': tags, versions, time };
}

/** The abbreviated form of a parsed packument. */
export function abbreviateDocument(document: Manifest): Manifest {
  const versions = (document.versions ?? {}) as Record<string, Manifest>;
  return {
    name: document.name,
    modified: (document.time as Record<string, string> | undefined)?.modified,
    'dist-tags': document['dist-tags'],
    versions: Object.fromEntries(Object.entries(versions).map(([v, m]) => [v, abbreviate(m)])),
  };
}

/**
 * Points an upstream packument's tarball URLs at the serving repository (through the
 * marker): the text is rewritten, not parsed, so a document of many megabytes costs one
 * regular-expression pass. Answers the rewritten text.
 */
export function rewriteUpstreamTarballs(text: string, name: string): string {
  return text.replace(/"tarball"\s*:\s*"([^"]*)"/g, (_match, url: string) => {
    const file = url.slice(url.lastIndexOf('/') + 1);
    return `"tarball":${JSON.stringify(`${TARBALL_BASE}/${name}/-/${file}`)}`;
  });
}

/** The document as a client gets it: tarball URLs on the repository it asked. */
export const withTarballBase = (text: string, base: string) => text.replaceAll(TARBALL_BASE, base);
