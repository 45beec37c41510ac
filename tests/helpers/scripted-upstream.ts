import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHttpDepot, type HttpDepot } from './http-depot.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A real HTTP server on loopback playing an upstream whose behaviour a test sets path by
 * path: files with validators (answering conditional requests with 304), or a handler of the
 * test's own for slow, broken or lying answers. It records every request it gets.
 */
export interface ScriptedUpstream {
  base: string;
  requests: { path: string; headers: IncomingMessage['headers'] }[];
  /** Serves `content` at `path` with an ETag of its SHA-1 and a fixed Last-Modified. */
  file(path: string, content: string | Buffer): void;
  handle(path: string, handler: Handler): void;
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  const handlers = new Map<string, Handler>();
  const requests: ScriptedUpstream['requests'] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ path, headers: request.headers });
    const handler = handlers.get(path);
    if (handler) return handler(request, response);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    file(path, content) {
      const etag = `"${createHash('sha1').update(content).digest('hex')}"`;
      handlers.set(path, (request, response) => {
        if (request.headers['if-none-match'] === etag) return response.writeHead(304).end();
        response
          .writeHead(200, { etag, 'last-modified': 'Tue, 01 Jul 2025 10:00:00 GMT' })
          .end(content);
      });
    },
    handle(path, handler) {
      handlers.set(path, handler);
    },
    hits: (path) => requests.filter((r) => r.path === path).length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A Depot over real HTTP whose remote repository `proxy` fronts `path` of a fresh scripted
 * upstream (loopback allowed), with `settings` added to the repository's configuration.
 */
export async function startProxyOfScriptedUpstream(
  path: string,
  settings: Record<string, unknown> = {},
): Promise<{ depot: HttpDepot; upstream: ScriptedUpstream }> {
  const [depot, upstream] = await Promise.all([startHttpDepot(), startScriptedUpstream()]);
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.0/8'] });
  const created = await depot.request('/artifactory/api/repositories/proxy', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      rclass: 'remote',
      packageType: 'generic',
      url: `${upstream.base}${path}`,
      ...settings,
    }),
  });
  if (!created.ok) throw new Error(`creating the proxy answered ${created.status}`);
  return { depot, upstream };
}
