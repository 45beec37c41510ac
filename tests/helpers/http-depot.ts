import type { AddressInfo } from 'node:net';
import { basic, startTestDepot, TEST_ADMIN_PASSWORD, type TestDepot } from './test-app.ts';

/** A test Depot listening on loopback, for requests over real HTTP as curl would send them. */
export interface HttpDepot extends TestDepot {
  base: string;
  /** fetch with admin basic auth unless other headers say otherwise. */
  request(path: string, init?: RequestInit): Promise<Response>;
}

export async function startHttpDepot(): Promise<HttpDepot> {
  const depot = await startTestDepot();
  await depot.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = depot.app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    ...depot,
    base,
    request: (path, init = {}) =>
      fetch(`${base}${path}`, {
        ...init,
        headers: {
          authorization: basic('admin', TEST_ADMIN_PASSWORD),
          ...(init.headers as Record<string, string>),
        },
        // Node's fetch needs this to stream a request body.
        ...(init.body ? { duplex: 'half' } : {}),
      } as RequestInit),
  };
}
