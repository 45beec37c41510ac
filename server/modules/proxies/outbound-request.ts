import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { guardedLookup } from '../remote/upstream-guard.ts';
import { PROXY_MESSAGES as M } from './messages.ts';
import { ntlmNegotiate, ntlmTunnel, usesNtlm } from './ntlm-handshake.ts';
import { ProxyFailure } from './proxy-failure.ts';
import type { OutboundProxy } from './service.ts';

export interface OutboundRequestInit {
  method: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The admin's allow list of private addresses the target may have. */
  allowList: string[];
  /** Go through this proxy; directly when absent. */
  proxy?: OutboundProxy;
}

export { ProxyFailure };

const proxyAuthorization = (proxy: OutboundProxy): Record<string, string> =>
  proxy.username && !usesNtlm(proxy)
    ? {
        'proxy-authorization': `Basic ${Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64')}`,
      }
    : {};

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/**
 * Checks the target's addresses as the upstream guard does for a direct connection: the
 * proxy connects for Depot, so without this a URL could reach the proxy's own network.
 * An IP literal is checked by the callers, as for a direct connection.
 */
function checkTarget(url: URL, allowList: string[]): Promise<void> {
  const host = bare(url.hostname);
  if (isIP(host)) return Promise.resolve();
  const lookup = guardedLookup(allowList);
  return new Promise((resolve, reject) =>
    lookup(host, { all: true }, (error) => (error ? reject(error) : resolve())),
  );
}

/** A CONNECT tunnel through the proxy to the target's host and port. */
function tunnel(url: URL, proxy: OutboundProxy, timeoutMs: number): Promise<Socket> {
  const target = `${url.hostname}:${url.port || 443}`;
  if (usesNtlm(proxy)) return ntlmTunnel(proxy, target, timeoutMs);
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: proxy.host,
      port: proxy.port,
      method: 'CONNECT',
      path: target,
      headers: { host: target, ...proxyAuthorization(proxy) },
      timeout: timeoutMs,
    });
    request.on('connect', (response, socket) => {
      if (response.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(
        new ProxyFailure(M.refusedTunnel(proxy.key, target, response.statusCode ?? 0), false, true),
      );
    });
    request.on('timeout', () =>
      request.destroy(new ProxyFailure(M.noAnswer(proxy.key, timeoutMs / 1000), true)),
    );
    request.on('error', (error) =>
      reject(
        error instanceof ProxyFailure
          ? error
          : new ProxyFailure(M.unreachable(proxy.key, error.message)),
      ),
    );
    request.end();
  });
}

/**
 * A plain http request through the proxy, as an absolute URI. With NTLM, the request goes on
 * the connection the handshake authenticated; its probe carries no body and none of the
 * request's headers, in case the proxy passes it on.
 */
async function plainThroughProxy(url: URL, init: OutboundRequestInit, proxy: OutboundProxy) {
  const { method, headers, timeoutMs } = init;
  const options = {
    host: proxy.host,
    port: proxy.port,
    method,
    path: url.href,
    timeout: timeoutMs,
  };
  if (!usesNtlm(proxy))
    return httpRequest({
      ...options,
      headers: { ...headers, host: url.host, ...proxyAuthorization(proxy) },
    });
  const probe = {
    line: `${method} ${url.href} HTTP/1.1`,
    headers: { host: url.host, 'content-length': '0' },
  };
  const { socket, authorization } = await ntlmNegotiate(proxy, probe, timeoutMs);
  return httpRequest({
    ...options,
    headers: { ...headers, host: url.host, 'proxy-authorization': authorization },
    createConnection: () => socket,
  });
}

/**
 * A proxy's 407 to a plain http request (a tunnel's is a ProxyFailure already): the proxy
 * refused the credentials, so the caller reports the proxy, not the target.
 */
export function proxyRefusal(url: URL, proxy: OutboundProxy | undefined, status: number) {
  if (!proxy || url.protocol !== 'http:' || status !== 407) return undefined;
  return new ProxyFailure(M.refusedRequest(proxy.key, url.host), false, true);
}

/**
 * An error on a plain http request through a proxy: Depot's connection is with the proxy
 * alone (a target the proxy cannot reach is its 502 answer), so a refused or broken
 * connection is the proxy's, and is reported as such rather than as the target's.
 */
export function proxyConnectionFailure(
  url: URL,
  proxy: OutboundProxy | undefined,
  error: Error,
): ProxyFailure | undefined {
  if (!proxy || url.protocol !== 'http:' || error instanceof ProxyFailure) return undefined;
  return new ProxyFailure(M.unreachable(proxy.key, error.message));
}

/**
 * Opens a request to `url` and hands it to `wire` at once (before any of its events): a
 * direct one whose every resolved address passes the upstream guard, or one through the
 * proxy, after the target's addresses passed the same guard: plain http as an absolute-URI
 * request to the proxy, https through a CONNECT tunnel with TLS to the target inside it.
 * Rejects with the guard's BlockedAddress or a ProxyFailure before any request exists.
 */
export async function openOutboundRequest(
  url: URL,
  init: OutboundRequestInit,
  wire: (request: ClientRequest) => void,
): Promise<void> {
  const { method, headers, timeoutMs, proxy } = init;
  const requestOf = url.protocol === 'https:' ? httpsRequest : httpRequest;
  if (!proxy) {
    const lookup = guardedLookup(init.allowList) as never;
    return wire(requestOf(url, { method, lookup, headers, timeout: timeoutMs }));
  }
  await checkTarget(url, init.allowList);
  if (url.protocol === 'http:') return wire(await plainThroughProxy(url, init, proxy));
  const socket = await tunnel(url, proxy, timeoutMs);
  const host = bare(url.hostname);
  wire(
    httpsRequest(url, {
      method,
      headers,
      timeout: timeoutMs,
      createConnection: () =>
        tlsConnect({ socket, host, servername: isIP(host) ? undefined : host }),
    }),
  );
}
