import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import {
  openOutboundRequest,
  proxyConnectionFailure,
  ProxyFailure,
  proxyRefusal,
} from '../proxies/outbound-request.ts';
import type { OutboundProxy } from '../proxies/service.ts';
import { BlockedAddress, isAllowedAddress } from './upstream-guard.ts';
import { isUpstreamScheme } from './upstream-url.ts';

export interface UpstreamOptions {
  allowList: string[];
  timeoutMs: number;
  maxRedirects?: number;
  /** Basic auth for the upstream; sent only to the origin of the URL asked for. */
  credentials?: { username: string; password: string };
  /** A token from the upstream's Bearer challenge, sent instead of `credentials` (same origin only). */
  bearer?: string;
  /** Extra request headers (conditional ones: If-None-Match, If-Modified-Since). */
  headers?: Record<string, string>;
  /** A POST with this body (npm audit's advisories); GET when absent. */
  body?: Buffer;
  /** The outbound proxy to go through (docs/proxies.md); directly when absent. */
  proxy?: OutboundProxy;
}

export class UpstreamFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'blocked' | 'unreachable' | 'timeout' | 'redirects' | 'proxy',
  ) {
    super(message);
  }
}

/** A refusing proxy is not an offline upstream: the repository is not marked offline for it. */
const proxyFailureKind = (error: ProxyFailure) =>
  error.timedOut ? 'timeout' : error.refused ? 'proxy' : 'unreachable';

function send(
  url: URL,
  options: UpstreamOptions,
  authorization: string | undefined,
): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An IP literal is connected to without a DNS lookup, so it is checked here.
  if (isIP(host) && !isAllowedAddress(host, options.allowList)) {
    return Promise.reject(
      new UpstreamFailure(
        `The upstream address ${host} is private or reserved; an admin can allow it in the security settings`,
        'blocked',
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => {
      if (error instanceof UpstreamFailure) return reject(error);
      if (error instanceof BlockedAddress)
        return reject(new UpstreamFailure(error.message, 'blocked'));
      const failure = proxyConnectionFailure(url, options.proxy, error) ?? error;
      if (failure instanceof ProxyFailure)
        return reject(new UpstreamFailure(failure.message, proxyFailureKind(failure)));
      reject(
        new UpstreamFailure(`${url.host} could not be reached: ${error.message}`, 'unreachable'),
      );
    };
    const init = {
      method: options.body ? 'POST' : 'GET',
      headers: {
        'user-agent': 'Depot',
        accept: '*/*',
        ...options.headers,
        ...(authorization ? { authorization } : {}),
      },
      timeoutMs: options.timeoutMs,
      allowList: options.allowList,
      proxy: options.proxy,
    };
    openOutboundRequest(url, init, (request) => {
      request.on('response', (response) => {
        const refused = proxyRefusal(url, options.proxy, response.statusCode ?? 0);
        if (!refused) return resolve(response);
        response.resume();
        failed(refused);
      });
      request.on('timeout', () =>
        request.destroy(
          new UpstreamFailure(
            `${url.host} did not answer within ${options.timeoutMs / 1000} s`,
            'timeout',
          ),
        ),
      );
      request.on('error', failed);
      request.end(options.body);
    }).catch(failed);
  });
}

const basicAuth = ({ username, password }: { username: string; password: string }) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/**
 * Whether the upstream's credentials go to `current`: its own origin, or a host the proxy's
 * admin named as one its upstreams redirect to (a storage host of the same service).
 */
function credentialsGoTo(current: URL, asked: URL, proxy: OutboundProxy | undefined): boolean {
  if (current.origin === asked.origin) return true;
  const host = current.hostname.toLowerCase();
  return (proxy?.redirectedToHosts ?? []).some((named) => named.toLowerCase() === host);
}

/**
 * GET (or POST) an upstream URL, following a GET's redirects (each target is checked against the address
 * rules again). Only http and https. Answers the final response, body unread. Credentials
 * go only to the upstream's own origin: a redirect to a storage host or CDN elsewhere must
 * not receive them.
 */
export async function fetchUpstream(url: URL, options: UpstreamOptions): Promise<IncomingMessage> {
  const authorization = options.bearer
    ? `Bearer ${options.bearer}`
    : options.credentials
      ? basicAuth(options.credentials)
      : undefined;
  let current = url;
  for (let hop = 0; hop <= (options.maxRedirects ?? 5); hop++) {
    if (!isUpstreamScheme(current)) {
      throw new UpstreamFailure(
        `Upstream URLs must be http or https, not ${current.protocol}`,
        'blocked',
      );
    }
    const response = await send(
      current,
      options,
      credentialsGoTo(current, url, options.proxy) ? authorization : undefined,
    );
    const location = response.headers.location;
    // A POST is answered where it was sent: its body is not sent on to another place.
    if (options.body || !location || ![301, 302, 303, 307, 308].includes(response.statusCode ?? 0))
      return response;
    response.resume(); // discard the redirect's body
    current = new URL(location, current);
  }
  throw new UpstreamFailure(`Too many redirects from ${url.host}`, 'redirects');
}
