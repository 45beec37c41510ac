import type { Database } from '../../db/database.ts';
import { ensureInternalRepository } from '../repositories/internal-repository.ts';

/** Spec 02 §3: the repository that keeps support bundles, left out of the favorites count. */
export const SUPPORT_BUNDLES_REPO_KEY = 'supportBundles';

/** Whether a repository key names the support bundles' repository (keys compare without case). */
export const isSupportBundlesKey = (key: string) =>
  key.toLowerCase() === SUPPORT_BUNDLES_REPO_KEY.toLowerCase();

/** Where a bundle's zip is kept in the repository. */
export const bundlePath = (id: string) => `${id}/${id}.zip`;

/** The support bundles' repository, made the first time a bundle is (as the trash can is). */
export async function ensureBundleRepository(db: Database) {
  await ensureInternalRepository(db, SUPPORT_BUNDLES_REPO_KEY, 'Support bundles');
}
