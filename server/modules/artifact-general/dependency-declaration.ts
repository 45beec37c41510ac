/**
 * The General tab's dependency declaration (spec 02 §7, /ui/dependencydeclaration): the
 * snippet a build file needs to depend on an artifact, read from its path alone. Maven,
 * Gradle, Ivy and SBT read a Maven-layout path
 * (`group/as/dirs/artifactId/version/artifactId-version[-classifier].ext`); npm reads a
 * tarball path (`name/-/name-1.2.3.tgz`, `@scope/name/-/name-1.2.3.tgz`).
 */
export const BUILD_TOOLS = ['maven', 'gradle', 'ivy', 'sbt', 'npm'] as const;
export type BuildTool = (typeof BUILD_TOOLS)[number];

export interface MavenCoordinates {
  groupId: string;
  artifactId: string;
  version: string;
  classifier?: string;
  /** 'jar', 'pom', 'tar.gz', ... */
  extension: string;
}

export interface NpmCoordinates {
  name: string;
  version: string;
}

// Plain coordinate characters only: nothing a build file would need quoted or escaped.
const COORDINATE = /^[\w.+~-]+$/;
const CLASSIFIER_AND_EXTENSION = /^(?:-([\w+~-]+))?\.(\w+(?:\.\w+)*)$/;
const UNIQUE_SNAPSHOT = /^-\d{8}\.\d{6}-\d+/;
const NPM_NAME = /^[a-z0-9][\w.~-]*$/i;
const SEMVER = /^\d+\.\d+\.\d+(?:-[\w.-]+)?(?:\+[\w.-]+)?$/;

/** What follows `artifactId-version` in a file's name; a unique snapshot's timestamp counts as the version. */
function afterVersion(fileName: string, artifactId: string, version: string): string | undefined {
  const plain = `${artifactId}-${version}`;
  if (fileName.startsWith(plain)) return fileName.slice(plain.length);
  if (!version.endsWith('-SNAPSHOT')) return undefined;
  const base = `${artifactId}-${version.slice(0, -'-SNAPSHOT'.length)}`;
  if (!fileName.startsWith(base)) return undefined;
  const stamp = UNIQUE_SNAPSHOT.exec(fileName.slice(base.length));
  return stamp ? fileName.slice(base.length + stamp[0].length) : undefined;
}

/** Coordinates of a Maven-layout file path, or undefined when the path is not one. */
export function parseMavenPath(path: string): MavenCoordinates | undefined {
  const segments = path.split('/');
  if (segments.length < 4) return undefined;
  const [artifactId, version, fileName] = segments.slice(-3) as [string, string, string];
  const groupDirs = segments.slice(0, -3);
  if (![...groupDirs, artifactId, version].every((s) => COORDINATE.test(s))) return undefined;
  const rest = afterVersion(fileName, artifactId, version);
  const match = rest === undefined ? null : CLASSIFIER_AND_EXTENSION.exec(rest);
  if (!match) return undefined;
  return {
    groupId: groupDirs.join('.'),
    artifactId,
    version,
    ...(match[1] ? { classifier: match[1] } : {}),
    extension: match[2]!,
  };
}

/** Name and version of an npm tarball path, or undefined when the path is not one. */
export function parseNpmTarballPath(path: string): NpmCoordinates | undefined {
  const segments = path.split('/');
  const scoped = segments[0]?.startsWith('@');
  if (segments.length !== (scoped ? 4 : 3)) return undefined;
  const [scope, name, dash, fileName] = scoped ? segments : [undefined, ...segments];
  if (dash !== '-' || !name || !NPM_NAME.test(name)) return undefined;
  if (scope !== undefined && !NPM_NAME.test(scope.slice(1))) return undefined;
  const prefix = `${name}-`;
  if (!fileName?.startsWith(prefix) || !fileName.endsWith('.tgz')) return undefined;
  const version = fileName.slice(prefix.length, -'.tgz'.length);
  if (!SEMVER.test(version)) return undefined;
  return { name: scope ? `${scope}/${name}` : name, version };
}

function mavenDeclaration(c: MavenCoordinates): string {
  return [
    '<dependency>',
    `    <groupId>${c.groupId}</groupId>`,
    `    <artifactId>${c.artifactId}</artifactId>`,
    `    <version>${c.version}</version>`,
    ...(c.classifier ? [`    <classifier>${c.classifier}</classifier>`] : []),
    ...(c.extension !== 'jar' ? [`    <type>${c.extension}</type>`] : []),
    '</dependency>',
  ].join('\n');
}

function gradleDeclaration(c: MavenCoordinates): string {
  const classifier = c.classifier ? `:${c.classifier}` : '';
  const extension = c.extension !== 'jar' ? `@${c.extension}` : '';
  return `implementation '${c.groupId}:${c.artifactId}:${c.version}${classifier}${extension}'`;
}

function ivyDeclaration(c: MavenCoordinates): string {
  const head = `<dependency org="${c.groupId}" name="${c.artifactId}" rev="${c.version}"`;
  if (!c.classifier && c.extension === 'jar') return `${head} />`;
  const classifier = c.classifier ? ` m:classifier="${c.classifier}"` : '';
  return [
    `${head}>`,
    `    <artifact name="${c.artifactId}" type="${c.extension}" ext="${c.extension}"${classifier} />`,
    '</dependency>',
  ].join('\n');
}

function sbtDeclaration(c: MavenCoordinates): string {
  const base = `libraryDependencies += "${c.groupId}" % "${c.artifactId}" % "${c.version}"`;
  if (c.extension !== 'jar') {
    const classifier = c.classifier ? `, "${c.classifier}"` : '';
    return `${base} artifacts(Artifact("${c.artifactId}", "${c.extension}", "${c.extension}"${classifier}))`;
  }
  return c.classifier ? `${base} classifier "${c.classifier}"` : base;
}

const MAVEN_LIKE: Record<Exclude<BuildTool, 'npm'>, (c: MavenCoordinates) => string> = {
  maven: mavenDeclaration,
  gradle: gradleDeclaration,
  ivy: ivyDeclaration,
  sbt: sbtDeclaration,
};

/** The declaration of the artifact at `path` for a build tool, or undefined when its path does not say. */
export function dependencyDeclaration(tool: BuildTool, path: string): string | undefined {
  if (tool === 'npm') {
    const npm = parseNpmTarballPath(path);
    return npm && `npm install ${npm.name}@${npm.version}`;
  }
  const maven = parseMavenPath(path);
  return maven && MAVEN_LIKE[tool](maven);
}
