import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface Proxied {
  method: string;
  /** The absolute URI of a plain request, `host:port` of a CONNECT. */
  target: string;
  headers: IncomingHttpHeaders;
}

/**
 * A forward HTTP proxy on loopback that keeps every request it gets: plain http requests
 * (absolute URIs) are passed on, CONNECT opens a tunnel. With `credentials`, a request
 * without the matching basic Proxy-Authorization gets 407 and goes nowhere.
 */
export async function startCountingProxy(credentials?: { username: string; password: string }) {
  const seen: Proxied[] = [];
  const sockets = new Set<Socket>();
  const expected = credentials
    ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`
    : undefined;
  const authorized = (headers: IncomingHttpHeaders) =>
    expected === undefined || headers['proxy-authorization'] === expected;

  const server = createServer((request, response) => {
    seen.push({
      method: request.method ?? '',
      target: request.url ?? '',
      headers: request.headers,
    });
    if (!authorized(request.headers)) return response.writeHead(407).end('proxy auth');
    const target = new URL(request.url ?? '');
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    const onward = httpRequest(target, { method: request.method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    onward.on('error', () => response.writeHead(502).end('bad gateway'));
    request.pipe(onward);
  });
  server.on('connect', (request, client: Socket) => {
    sockets.add(client);
    seen.push({ method: 'CONNECT', target: request.url ?? '', headers: request.headers });
    if (!authorized(request.headers)) return client.end('HTTP/1.1 407 Proxy Auth Required\r\n\r\n');
    const [host, port] = (request.url ?? '').split(/:(?=\d+$)/);
    const upstream = connect(Number(port), host!.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type CountingProxy = Awaited<ReturnType<typeof startCountingProxy>>;
