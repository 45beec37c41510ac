import type { PackageFormat } from './format.ts';
import { dockerFormat } from './docker/format.ts';
import { mavenFormat } from './maven/format.ts';
import { npmFormat } from './npm/format.ts';
import { pypiFormat } from './pypi/format.ts';
import { fallbackVersionOrder, semverPreRelease } from './version-order.ts';

/** Every package format Depot speaks natively: adding one is adding it here (docs/formats.md). */
export const FORMATS: readonly PackageFormat[] = [npmFormat, pypiFormat, mavenFormat, dockerFormat];

const BY_PACKAGE_TYPE = new Map(
  FORMATS.flatMap((format) => format.packageTypes.map((type) => [type, format] as const)),
);

/** The format that serves a package type; undefined for types stored as plain files. */
export const formatOf = (packageType: string): PackageFormat | undefined =>
  BY_PACKAGE_TYPE.get(packageType);

/** Package types whose files a format indexes (and a recalculation indexes again). */
export const INDEXED_PACKAGE_TYPES: ReadonlySet<string> = new Set(BY_PACKAGE_TYPE.keys());

/** Versions of a package type in its format's order, or the fallback order. */
export const compareVersions = (packageType: string, a: string, b: string): number =>
  (formatOf(packageType)?.compareVersions ?? fallbackVersionOrder)(a, b);

/** Whether a version of a package type is a pre-release, as its format spells them. */
export const isPreRelease = (packageType: string, version: string): boolean =>
  (formatOf(packageType)?.isPreRelease ?? semverPreRelease)(version);
