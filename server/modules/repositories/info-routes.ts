import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import type { RepositoryClass } from './service.ts';

const BASE = '/ui/admin/repositories';

/**
 * The local and remote repositories a picker offers (spec 03 §7 Webhooks: `GET
 * ui/admin/repositories/local/info` and `remote/info`): key, class and package type of each,
 * sorted by key. Admins only: the pickers are on admin forms. These static paths answer
 * before `/:type/:key`, so a repository named `info` is opened from the list's own links,
 * which use the REST API's paths.
 */
export async function repositoryInfoRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const info = async (rclass: RepositoryClass) =>
    (await services.repositories.list({ rclass }))
      .filter((repo) => repo.key !== TRASH_REPO_KEY)
      .map((repo) => ({ repoKey: repo.key, repoType: repo.rclass, packageType: repo.packageType }))
      .sort((a, b) => a.repoKey.localeCompare(b.repoKey));

  for (const rclass of ['local', 'remote'] as const)
    app.get(`${BASE}/${rclass}/info`, { config: { permission: 'admin' } }, () => info(rclass));
}
