import { startHttpDepot, type HttpDepot } from './http-depot.ts';
import { TEST_ADMIN_PASSWORD } from './test-app.ts';

/** The npm registry address of repository `key` on `server`, as `.npmrc` names it. */
export const npmRegistry = (server: HttpDepot, key: string) =>
  `${server.base}/artifactory/api/npm/${key}/`;

export async function npmRepository(server: HttpDepot, key: string, rclass: string, extra = {}) {
  await server.services.repositories.create({
    key,
    rclass,
    packageType: 'npm',
    ...extra,
  } as never);
}

/**
 * The topology the npm client tests share: an upstream Depot with `npm-upstream`, and a
 * Depot whose virtual `npm` holds `npm-local` (where publishes land) and `npm-remote`
 * (proxying the upstream over loopback, which the remote allow list lets through).
 */
export async function startNpmTopology(): Promise<{ depot: HttpDepot; upstream: HttpDepot }> {
  const [depot, upstream] = await Promise.all([startHttpDepot(), startHttpDepot()]);
  await npmRepository(upstream, 'npm-upstream', 'local');
  await npmRepository(depot, 'npm-local', 'local');
  await npmRepository(depot, 'npm-remote', 'remote', {
    url: npmRegistry(upstream, 'npm-upstream'),
    username: 'admin',
    password: TEST_ADMIN_PASSWORD,
  });
  await npmRepository(depot, 'npm', 'virtual', {
    repositories: ['npm-local', 'npm-remote'],
    defaultDeploymentRepo: 'npm-local',
  });
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
  return { depot, upstream };
}
