import type { ReverseProxySettings } from './settings.ts';

const indent = (lines: string[]) => lines.map((line) => `  ${line}`);

/**
 * Everything a virtual host passes on to Depot: the client's Host (the token realm and
 * upload locations Depot answers point back through it), encoded slashes left as sent,
 * bodies streamed, the scheme passed on. Rewrite rules run before ProxyPass (Apache's
 * documentation says so), so a registry rewrite takes `/v2/` before `ProxyPass /` does.
 */
const proxyToDepot = (tls: boolean) => [
  'ProxyPreserveHost On',
  'ProxyRequests Off',
  'AllowEncodedSlashes NoDecode',
  'ProxyTimeout 900',
  `RequestHeader set X-Forwarded-Proto "${tls ? 'https' : 'http'}"`,
  'RewriteEngine On',
];

const passAll = (depot: string) => [
  `ProxyPass / ${depot}/ nocanon`,
  `ProxyPassReverse / ${depot}/`,
];

/** `/v2/` of a sub domain or a port to a repository's registry path (`%1`: the sub domain). */
const registryRewrite = (depot: string, repo: string) =>
  `RewriteRule ^/v2/(.*)$ ${depot}/artifactory/api/docker/${repo}/v2/$1 [P,NE,L]`;

const escapeRegex = (name: string) => name.replace(/\./g, '\\.');

function virtualHost(port: number, tls: boolean, settings: ReverseProxySettings, body: string[]) {
  const depot = `http://${settings.internalHostname}:${settings.internalPort}`;
  return [
    `<VirtualHost *:${port}>`,
    ...indent([
      ...(settings.serverName ? [`ServerName ${settings.serverName}`] : []),
      ...(tls
        ? [
            'SSLEngine on',
            `SSLCertificateFile ${settings.sslCertificate}`,
            `SSLCertificateKeyFile ${settings.sslKey}`,
          ]
        : []),
      ...proxyToDepot(tls),
      ...body,
      ...passAll(depot),
    ]),
    '</VirtualHost>',
  ];
}

/** The ports of the main server, each with whether it speaks TLS. */
function mainPorts(settings: ReverseProxySettings): [number, boolean][] {
  return [
    ...(settings.useHttp ? [[settings.httpPort, false] as [number, boolean]] : []),
    ...(settings.useHttps ? [[settings.httpsPort, true] as [number, boolean]] : []),
  ];
}

/**
 * Apache httpd's configuration for Depot behind it (docs/docker.md, "Reverse proxy"), from
 * the same settings as nginx's (nginx-config.ts), for a file of `sites-enabled` or `conf.d`:
 * mod_proxy, mod_proxy_http, mod_rewrite and mod_headers (and mod_ssl for HTTPS). Every
 * virtual host passes all of Depot through; a Docker repository's sub domain
 * (`ServerAlias *.<serverName>`) or port also maps `/v2/` to its registry path.
 */
export function apacheConfig(settings: ReverseProxySettings): string {
  const depot = `http://${settings.internalHostname}:${settings.internalPort}`;
  const subDomain = settings.dockerReverseProxyMethod === 'subDomain' && settings.serverName;
  const lines = [
    '## Depot behind Apache httpd: put this in sites-enabled/depot.conf (or conf.d/).',
    '## It needs mod_proxy, mod_proxy_http, mod_rewrite and mod_headers (mod_ssl for HTTPS).',
  ];
  const ports = mainPorts(settings);
  const extraPorts =
    settings.dockerReverseProxyMethod === 'portPerRepo' ? settings.reverseProxyRepositories : [];
  // Debian's ports.conf listens on 80 and 443 already: only the others are added.
  for (const port of [...ports.map(([port]) => port), ...extraPorts.map((r) => r.port)])
    if (port !== 80 && port !== 443) lines.push(`Listen ${port}`);
  for (const [port, tls] of ports)
    lines.push(
      ...virtualHost(
        port,
        tls,
        settings,
        subDomain
          ? [
              `ServerAlias *.${settings.serverName}`,
              `RewriteCond %{HTTP_HOST} ^([a-z0-9][a-z0-9._-]*)\\.${escapeRegex(settings.serverName)}(:\\d+)?$ [NC]`,
              registryRewrite(depot, '%1'),
            ]
          : [],
      ),
    );
  for (const { repoKey, port } of extraPorts)
    lines.push(
      ...virtualHost(port, settings.useHttps, settings, [registryRewrite(depot, repoKey)]),
    );
  return `${lines.join('\n')}\n`;
}
