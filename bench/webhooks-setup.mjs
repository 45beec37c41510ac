// What bench/webhooks.mjs and bench/webhooks-trace.mjs set up alike on the Depot they measure.
import { createServer } from 'node:http';

/** A port nobody listens on now. */
export function freePort() {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

/**
 * The benchmarks' request to the Depot at a port, with `authorization`: a string body is
 * sent as it is, any other as JSON; an answer that is not 2xx throws, saying what it was.
 */
export function depotCaller(authorization) {
  return async (port, method, path, body) => {
    const json = body !== undefined && typeof body !== 'string';
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json ? JSON.stringify(body) : body,
    });
    if (!response.ok)
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response;
  };
}

/**
 * Lets the Depot at `port` deliver to loopback, makes the `bench-local` generic repository and
 * `count` subscriptions (`bench-0`, ...) to its deploys, each delivering to the receiver on
 * `receiverPort`. `call(port, method, path, body)` is the benchmark's authenticated request.
 */
export async function prepareSubscriptions(call, port, count, receiverPort) {
  await call(port, 'PUT', '/ui/api/v1/ui/securityconfig', { remoteAllowList: ['127.0.0.1'] });
  await call(port, 'PUT', '/artifactory/api/repositories/bench-local', {
    rclass: 'local',
    packageType: 'generic',
  });
  for (let i = 0; i < count; i++)
    await call(port, 'POST', '/event/api/v1/subscriptions', {
      key: `bench-${i}`,
      enabled: true,
      event_filter: {
        domain: 'artifact',
        event_types: ['deployed'],
        criteria: { anyLocal: true, anyRemote: false, repoKeys: [] },
      },
      handlers: [
        { handler_type: 'webhook', url: `http://127.0.0.1:${receiverPort}/hook`, secret: 's3cret' },
      ],
    });
}
