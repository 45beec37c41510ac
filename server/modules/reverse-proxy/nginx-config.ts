import type { ReverseProxySettings } from './settings.ts';

/** Everything a location passes on to Depot: bodies streamed both ways, the client's address. */
const PROXY_TO_DEPOT = [
  'proxy_pass http://depot;',
  'proxy_http_version 1.1;',
  'proxy_set_header Connection "";',
  'proxy_set_header Host $http_host;',
  'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
  'proxy_set_header X-Forwarded-Proto $scheme;',
  'proxy_request_buffering off;',
  'proxy_buffering off;',
  'proxy_read_timeout 900s;',
];

const indent = (lines: string[], depth: number) => lines.map((l) => `${'  '.repeat(depth)}${l}`);

const location = (path: string, rewrite?: string) => [
  `location ${path} {`,
  ...indent([...(rewrite ? [rewrite] : []), ...PROXY_TO_DEPOT], 1),
  '}',
];

/** The registry path of a repository: where `/v2/` of a sub domain or a port is rewritten to. */
const registryRewrite = (repo: string) =>
  `rewrite ^/v2/(.*)$ /artifactory/api/docker/${repo}/v2/$1 break;`;

function listens(settings: ReverseProxySettings, port?: number): string[] {
  const tls = [
    `ssl_certificate ${settings.sslCertificate};`,
    `ssl_certificate_key ${settings.sslKey};`,
  ];
  if (port !== undefined)
    return settings.useHttps ? [`listen ${port} ssl;`, ...tls] : [`listen ${port};`];
  return [
    ...(settings.useHttp ? [`listen ${settings.httpPort};`] : []),
    ...(settings.useHttps ? [`listen ${settings.httpsPort} ssl;`, ...tls] : []),
  ];
}

function server(head: string[], body: string[]): string[] {
  return [
    'server {',
    ...indent([...head, 'client_max_body_size 0;', 'chunked_transfer_encoding on;', ...body], 1),
    '}',
  ];
}

const escapeRegex = (name: string) => name.replace(/\./g, '\\.');

/**
 * nginx's configuration for Depot behind it (docs/docker.md, "Reverse proxy"), for nginx's
 * `http {}` block, as Artifactory generates one from its reverse proxy settings. Every
 * server passes all of Depot through; a Docker repository's sub domain or port also maps
 * `/v2/` to that repository's registry path, where the token realm and upload locations
 * Depot answers point back through the same server.
 * `reverseProxyRepositories` are taken as they are: the service leaves out those that no
 * longer name a Docker repository.
 */
export function nginxConfig(settings: ReverseProxySettings): string {
  const name = settings.serverName || '_';
  const lines = [
    '## Depot behind nginx: put this in the http {} block (conf.d/depot.conf).',
    'upstream depot {',
    `  server ${settings.internalHostname}:${settings.internalPort};`,
    '  keepalive 16;',
    '}',
    ...server([...listens(settings), `server_name ${name};`], location('/')),
  ];
  if (settings.dockerReverseProxyMethod === 'subDomain' && settings.serverName)
    lines.push(
      ...server(
        [
          ...listens(settings),
          `server_name ~^(?<repo>[a-z0-9][a-z0-9._-]*)\\.${escapeRegex(settings.serverName)}$;`,
        ],
        [...location('/v2/', registryRewrite('$repo')), ...location('/')],
      ),
    );
  if (settings.dockerReverseProxyMethod === 'portPerRepo')
    for (const { repoKey, port } of settings.reverseProxyRepositories)
      lines.push(
        ...server(
          [...listens(settings, port), `server_name ${name};`],
          [...location('/v2/', registryRewrite(repoKey)), ...location('/')],
        ),
      );
  return `${lines.join('\n')}\n`;
}
