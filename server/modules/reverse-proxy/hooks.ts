import { BadRequest } from '../../errors.ts';
import type { HookServices } from '../entities/hook-registry.ts';
import type { EntityHooks } from '../entities/hooks.ts';
import { REVERSE_PROXY_MESSAGES as M, type ReverseProxySettings } from './settings.ts';

const FIELD_PORTS = 'reverseProxyRepositories';

/** Rules across fields the schema cannot say: what each method and protocol needs. */
function checkFields(settings: ReverseProxySettings) {
  if (!settings.useHttp && !settings.useHttps) throw new BadRequest(M.noProtocol, 'useHttp');
  if (settings.useHttps && !settings.sslCertificate)
    throw new BadRequest(M.required, 'sslCertificate');
  if (settings.useHttps && !settings.sslKey) throw new BadRequest(M.required, 'sslKey');
  if (settings.dockerReverseProxyMethod !== 'repoPathPrefix' && !settings.serverName)
    throw new BadRequest(M.needsServerName, 'serverName');
}

/** Each port once, none of them the proxy's own HTTP or HTTPS port, each repository once. */
function checkPorts(settings: ReverseProxySettings) {
  const taken = new Set<number>([
    ...(settings.useHttp ? [settings.httpPort] : []),
    ...(settings.useHttps ? [settings.httpsPort] : []),
  ]);
  const keys = new Set<string>();
  for (const { repoKey, port } of settings.reverseProxyRepositories) {
    if (keys.has(repoKey)) throw new BadRequest(M.repeatedRepository(repoKey), FIELD_PORTS);
    if (taken.has(port)) throw new BadRequest(M.portTaken(port), FIELD_PORTS);
    keys.add(repoKey);
    taken.add(port);
  }
}

/**
 * The reverse proxy settings (docs/docker.md, "Reverse proxy"): refused when the nginx
 * configuration generated from them could not work, so that what an admin saves is what
 * the proxy can serve.
 */
export function reverseProxyHooks(services: () => HookServices): EntityHooks {
  return {
    async beforeWrite({ document }) {
      const settings = document as unknown as ReverseProxySettings;
      checkFields(settings);
      checkPorts(settings);
      for (const { repoKey } of settings.reverseProxyRepositories) {
        const repo = await services().repositories.findRow(repoKey);
        if (repo?.package_type !== 'docker')
          throw new BadRequest(M.notDocker(repoKey), FIELD_PORTS);
      }
    },
  };
}
