import type { PackageFormat } from '../format.ts';
import { MAVEN_TYPES } from './layout.ts';
import { compareMavenVersions } from './version-order.ts';

/**
 * Maven's layout (docs/maven.md), which Gradle, Ivy and SBT repositories share. Its clients
 * use the repository's own path: metadata and snapshot names are answered there.
 */
export const mavenFormat: PackageFormat = {
  name: 'maven',
  packageTypes: [...MAVEN_TYPES],
  clientPath: 'repository',
  compareVersions: compareMavenVersions,
  isPreRelease: (version) => /-SNAPSHOT$/i.test(version),
  keepsEditedDocuments: false,
};
