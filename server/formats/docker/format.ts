import type { PackageFormat } from '../format.ts';
import { fallbackVersionOrder } from '../version-order.ts';

/**
 * Docker and OCI images (docs/docker.md). Its clients speak the registry protocol at `/v2/`
 * and at `/artifactory/api/docker/<repoKey>/v2/`, registered by `registry-routes.ts` itself,
 * since the first of those lies outside `/artifactory/api/docker`.
 */
export const dockerFormat: PackageFormat = {
  name: 'docker',
  packageTypes: ['docker'],
  clientPath: 'api',
  // Tags are names, not versions: the package browser lists them in name order.
  compareVersions: fallbackVersionOrder,
  isPreRelease: () => false,
  keepsEditedDocuments: false,
};
