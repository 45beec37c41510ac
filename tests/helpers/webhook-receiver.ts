import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
}

/** How the receiver answers a request: a status (and a body), given what it received. */
export type Answer = (request: Received) => {
  status: number;
  body?: string;
  headers?: Record<string, string>;
};

/**
 * A webhook receiver on loopback that keeps every request it gets and answers as told
 * (200 unless `answer` says otherwise), on `listenPort` when given (one chosen before).
 */
export async function startReceiver(host = '127.0.0.1', listenPort = 0) {
  const requests: Received[] = [];
  let answer: Answer = () => ({ status: 200, body: 'ok' });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        json = {};
      }
      const received = { path: request.url ?? '/', headers: request.headers, body, json };
      requests.push(received);
      const reply = answer(received);
      response.writeHead(reply.status, reply.headers).end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(listenPort, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/hook`,
    port,
    requests,
    answerWith(next: Answer) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `check` holds, polling; fails with `what` after the deadline. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
