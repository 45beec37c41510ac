/** Package types whose repositories use the Maven 2 layout and its metadata. */
export const MAVEN_TYPES = new Set(['maven', 'gradle', 'ivy', 'sbt']);

export const METADATA_FILE = 'maven-metadata.xml';
export const CHECKSUM_SUFFIXES = ['.sha1', '.md5', '.sha256', '.sha512'] as const;

const SNAPSHOT = '-SNAPSHOT';
// yyyyMMdd.HHmmss-buildNumber, as Maven 3 names a snapshot build.
const UNIQUE_SNAPSHOT = /^(\d{8}\.\d{6})-(\d+)$/;

export const isSnapshotVersion = (version: string) => version.endsWith(SNAPSHOT);

/** `x.jar.sha1` → { base: 'x.jar', suffix: '.sha1' }; undefined for other files. */
export function splitChecksumSuffix(path: string) {
  const suffix = CHECKSUM_SUFFIXES.find((s) => path.endsWith(s));
  return suffix ? { base: path.slice(0, -suffix.length), suffix } : undefined;
}

/** An artifact's file in the Maven 2 layout, `group/path/artifactId/version/file`. */
export interface MavenFile {
  groupId: string;
  artifactId: string;
  /** The version folder: `1.0` or `1.0-SNAPSHOT`. */
  version: string;
  filename: string;
  /** A unique snapshot build's `20261123.101500-3`, else undefined. */
  snapshotBuild?: { timestamp: string; buildNumber: number };
  classifier?: string;
  extension: string;
}

/**
 * Reads an artifact path of the Maven 2 layout. The file must start with
 * `{artifactId}-{version}` (or, for a snapshot, `{artifactId}-{base}-{timestamp}-{build}`);
 * anything else (metadata, a stray file) is undefined.
 */
export function parseMavenPath(path: string): MavenFile | undefined {
  const parts = path.split('/');
  if (parts.length < 4) return undefined;
  const [filename, version, artifactId] = [parts.at(-1)!, parts.at(-2)!, parts.at(-3)!];
  const groupId = parts.slice(0, -3).join('.');
  const stem = `${artifactId}-`;
  if (!filename.startsWith(stem)) return undefined;
  let rest = filename.slice(stem.length);
  let snapshotBuild: MavenFile['snapshotBuild'];
  if (rest.startsWith(version)) {
    rest = rest.slice(version.length);
  } else if (
    isSnapshotVersion(version) &&
    rest.startsWith(version.slice(0, -SNAPSHOT.length) + '-')
  ) {
    rest = rest.slice(version.length - SNAPSHOT.length + 1);
    const build = /^(\d{8}\.\d{6})-(\d+)/.exec(rest);
    if (!build) return undefined;
    snapshotBuild = { timestamp: build[1]!, buildNumber: Number(build[2]) };
    rest = rest.slice(build[0].length);
  } else {
    return undefined;
  }
  const dot = rest.indexOf('.');
  if (dot < 0) return undefined;
  const classifierPart = rest.slice(0, dot);
  if (classifierPart !== '' && !classifierPart.startsWith('-')) return undefined;
  return {
    groupId,
    artifactId,
    version,
    filename,
    snapshotBuild,
    classifier: classifierPart ? classifierPart.slice(1) : undefined,
    extension: rest.slice(dot + 1),
  };
}

/** A build label `20261123.101500-3` as a snapshot version's files carry it. */
export const buildLabel = (build: { timestamp: string; buildNumber: number }) =>
  `${build.timestamp}-${build.buildNumber}`;

export const parseBuildLabel = (label: string) => {
  const match = UNIQUE_SNAPSHOT.exec(label);
  return match ? { timestamp: match[1]!, buildNumber: Number(match[2]) } : undefined;
};

/** The folder of an artifact's metadata, or of a snapshot version's: undefined for others. */
export function metadataFolder(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name !== METADATA_FILE) return undefined;
  const folder = path.slice(0, -METADATA_FILE.length - 1);
  return folder.includes('/') ? folder : undefined;
}
