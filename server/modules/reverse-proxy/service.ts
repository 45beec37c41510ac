import type { SingleStore } from '../entities/single-store.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import type { ReverseProxyData } from './docker-hosts.ts';
import { apacheConfig } from './apache-config.ts';
import { nginxConfig } from './nginx-config.ts';
import type { ReverseProxySettings } from './settings.ts';

/**
 * The reverse proxy settings, a single document of the schema engine
 * (schemas/screens/reverse-proxy.screen.json serves and checks them), read for the nginx
 * configuration and Set Me Up. A repository deleted since they were saved is left out.
 * `store` is asked at each read: the descriptor's store exists once the registry served it.
 */
export function createReverseProxyService(
  store: () => SingleStore,
  repositories: RepositoriesService,
) {
  async function current(): Promise<ReverseProxySettings> {
    const settings = (await store().read()) as unknown as ReverseProxySettings;
    const ports = [];
    for (const entry of settings.reverseProxyRepositories) {
      const repo = await repositories.findRow(entry.repoKey);
      if (repo?.package_type === 'docker') ports.push(entry);
    }
    return { ...settings, reverseProxyRepositories: ports };
  }

  return {
    current,

    /** nginx's configuration for the saved settings (docs/docker.md, "Reverse proxy"). */
    async nginx(): Promise<string> {
      return nginxConfig(await current());
    },

    /** Apache httpd's configuration for the same settings (docs/docker.md, "Reverse proxy"). */
    async apache(): Promise<string> {
      return apacheConfig(await current());
    },

    /** What Set Me Up shows, for the repositories `canRead` allows. */
    async dataFor(canRead: (repoKey: string) => boolean): Promise<ReverseProxyData> {
      const settings = await current();
      return {
        serverName: settings.serverName,
        dockerReverseProxyMethod: settings.dockerReverseProxyMethod,
        reverseProxyRepositories: settings.reverseProxyRepositories.filter((r) =>
          canRead(r.repoKey),
        ),
        useHttp: settings.useHttp,
        useHttps: settings.useHttps,
        httpPort: settings.httpPort,
        httpsPort: settings.httpsPort,
      };
    },
  };
}

export type ReverseProxyService = ReturnType<typeof createReverseProxyService>;
