import type { ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { basic, startTestDepot, TEST_ADMIN_PASSWORD, type TestDepot } from './test-app.ts';

/** A test Depot listening on loopback, for requests over real HTTP as curl would send them. */
export interface HttpDepot extends TestDepot {
  base: string;
  /** fetch with admin basic auth unless other headers say otherwise. */
  request(path: string, init?: RequestInit): Promise<Response>;
}

type ServerSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Ends the server's keep-alive sockets once their answers are out. The server's close ends
 * the idle ones only at the moment it starts: a response whose last read from disk is still
 * under way then (the client already has every byte it was promised) leaves its socket open
 * for the keep-alive timeout (72 s), longer than a test's hook may take.
 */
function endSocketsWhenIdle(sockets: Set<ServerSocket>) {
  for (const socket of sockets) {
    const answer = socket._httpMessage;
    if (answer && !answer.writableFinished) {
      answer.once('finish', () => setImmediate(() => socket.destroy()));
    } else {
      socket.destroy();
    }
  }
}

export async function startHttpDepot(env: Record<string, string> = {}): Promise<HttpDepot> {
  const depot = await startTestDepot(env);
  await depot.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = depot.app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const sockets = new Set<ServerSocket>();
  depot.app.server.on('connection', (socket: ServerSocket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A body a test never read is dropped at close rather than left to the garbage collector.
  const responses = new Set<Response>();
  return {
    ...depot,
    base,
    request: async (path, init = {}) => {
      const response = await fetch(`${base}${path}`, {
        ...init,
        headers: {
          authorization: basic('admin', TEST_ADMIN_PASSWORD),
          ...(init.headers as Record<string, string>),
        },
        // Node's fetch needs this to stream a request body.
        ...(init.body ? { duplex: 'half' } : {}),
      } as RequestInit);
      responses.add(response);
      return response;
    },
    async close() {
      for (const response of responses) {
        if (!response.bodyUsed) await response.body?.cancel().catch(() => undefined);
      }
      const closed = depot.close();
      endSocketsWhenIdle(sockets);
      await closed;
    },
  };
}
