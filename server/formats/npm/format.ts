import semver from 'semver';
import type { PackageFormat } from '../format.ts';
import { fallbackVersionOrder, semverPreRelease } from '../version-order.ts';

/** npm (docs/npm.md): semver's order and pre-releases; deprecations edit stored versions. */
export const npmFormat: PackageFormat = {
  name: 'npm',
  packageTypes: ['npm'],
  clientPath: 'api',
  compareVersions: (a, b) =>
    semver.valid(a) && semver.valid(b) ? semver.compare(a, b) : fallbackVersionOrder(a, b),
  isPreRelease: semverPreRelease,
  keepsEditedDocuments: true,
};
