import { splitPath } from '../artifacts/paths.ts';

/** The package views a file may have (spec 02 §2), in the tab order. */
export const FILE_VIEWS = ['PomView', 'GeneralXml', 'PackageJson'] as const;
export type FileView = (typeof FILE_VIEWS)[number];

/** Repositories whose layout puts a jar's POM beside it. */
const MAVEN_LIKE = new Set(['maven', 'gradle', 'ivy', 'sbt']);

/** Where an npm tarball keeps its manifest. */
export const PACKAGE_JSON_ENTRY = 'package/package.json';

const lower = (path: string) => splitPath(path).name.toLowerCase();

/**
 * The POM a file's PomView shows: a .pom itself, or for a .jar or .war of a maven-like
 * repository the .pom of the same base name beside it (which may not exist). Undefined when
 * the view does not apply.
 */
export function pomPathFor(path: string, packageType: string): string | undefined {
  const name = lower(path);
  if (name.endsWith('.pom')) return path;
  if (!MAVEN_LIKE.has(packageType) || !/\.(jar|war)$/.test(name)) return undefined;
  return `${path.slice(0, -'.jar'.length)}.pom`;
}

/** Whether a view applies to a file by its name and repository type; PomView's POM aside. */
export function viewApplies(view: FileView, path: string, packageType: string): boolean {
  if (view === 'PomView') return pomPathFor(path, packageType) !== undefined;
  if (view === 'GeneralXml') return lower(path).endsWith('.xml');
  return packageType === 'npm' && lower(path).endsWith('.tgz');
}
