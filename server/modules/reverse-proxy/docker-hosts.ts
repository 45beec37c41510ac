import type { DockerAccessMethod, ReverseProxySettings } from './settings.ts';

/** What Set Me Up needs of the reverse proxy settings (GET /ui/reverseProxyData). */
export type ReverseProxyData = Pick<
  ReverseProxySettings,
  | 'serverName'
  | 'dockerReverseProxyMethod'
  | 'reverseProxyRepositories'
  | 'useHttp'
  | 'useHttps'
  | 'httpPort'
  | 'httpsPort'
>;

/** One way a Docker client reaches a repository, and the registry host it writes. */
export interface DockerRegistryHost {
  method: DockerAccessMethod;
  /** `host[:port]` as it starts an image name. */
  host: string;
  /** The image's name under that host: `<repoKey>/` for the repository path method. */
  imagePrefix: string;
  /** The client talks plain HTTP (it needs insecure-registries or --tls-verify=false). */
  plainHttp: boolean;
}

/** The proxy's scheme and port: HTTPS when it is on, the port omitted where it is the default. */
function proxyAddress(proxy: ReverseProxyData) {
  const https = proxy.useHttps;
  const port = https ? proxy.httpsPort : proxy.httpPort;
  return { https, portSuffix: port === (https ? 443 : 80) ? '' : `:${port}` };
}

/**
 * The registry hosts of a Docker repository, one per method that reaches it (docs/docker.md,
 * "Reverse proxy"): the repository path at Depot's own address always; a sub domain of the
 * proxy's server name, and the repository's own port, once the proxy is set up for them.
 * The method the admin chose comes first.
 */
export function dockerRegistryHosts(
  baseUrl: string,
  repoKey: string,
  proxy: Partial<ReverseProxyData> = {},
): DockerRegistryHost[] {
  const own = new URL(baseUrl);
  const hosts: DockerRegistryHost[] = [
    {
      method: 'repoPathPrefix',
      host: own.host,
      imagePrefix: `${repoKey}/`,
      plainHttp: own.protocol === 'http:',
    },
  ];
  if (proxy.serverName && (proxy.useHttp || proxy.useHttps)) {
    const { https, portSuffix } = proxyAddress(proxy as ReverseProxyData);
    hosts.push({
      method: 'subDomain',
      host: `${repoKey}.${proxy.serverName}${portSuffix}`,
      imagePrefix: '',
      plainHttp: !https,
    });
    const port = proxy.reverseProxyRepositories?.find((r) => r.repoKey === repoKey)?.port;
    if (port !== undefined)
      hosts.push({
        method: 'portPerRepo',
        host: `${proxy.serverName}:${port}`,
        imagePrefix: '',
        plainHttp: !https,
      });
  }
  const chosen = hosts.findIndex((h) => h.method === proxy.dockerReverseProxyMethod);
  return chosen > 0 ? [hosts[chosen]!, ...hosts.filter((_, i) => i !== chosen)] : hosts;
}
