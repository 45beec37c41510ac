import type { PackageFormat } from '../format.ts';
import { fallbackVersionOrder } from '../version-order.ts';

/** PyPI (docs/pypi.md): PEP 440 pre-releases (a, b, rc, dev) by their spelling. */
export const pypiFormat: PackageFormat = {
  name: 'pypi',
  packageTypes: ['pypi'],
  clientPath: 'api',
  compareVersions: fallbackVersionOrder,
  isPreRelease: (version) => /(a|b|rc|c|dev|alpha|beta|pre|preview)\d*/i.test(version),
  keepsEditedDocuments: false,
};
