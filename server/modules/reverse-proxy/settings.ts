/** How Docker clients name a repository through the reverse proxy (spec 03 reverse proxy data). */
export type DockerAccessMethod = 'repoPathPrefix' | 'subDomain' | 'portPerRepo';

/** A Docker repository's own port on the proxy (the Port method). */
export interface RepositoryPort {
  repoKey: string;
  port: number;
}

/**
 * The reverse proxy in front of Depot (schemas/entities/reverse-proxy.schema.json): what the
 * nginx configuration is generated from and what Set Me Up names Docker registries by.
 */
export interface ReverseProxySettings {
  serverName: string;
  internalHostname: string;
  internalPort: number;
  useHttp: boolean;
  httpPort: number;
  useHttps: boolean;
  httpsPort: number;
  sslCertificate: string;
  sslKey: string;
  dockerReverseProxyMethod: DockerAccessMethod;
  reverseProxyRepositories: RepositoryPort[];
}

export const REVERSE_PROXY_MESSAGES = {
  required: 'You must fill in this field',
  noProtocol: 'Use HTTP, HTTPS or both',
  needsServerName: 'The Sub Domain and Port methods need the public server name',
  notDocker: (key: string) => `'${key}' is not a Docker repository`,
  repeatedRepository: (key: string) => `'${key}' has more than one port`,
  portTaken: (port: number) => `Port ${port} is used twice`,
} as const;
