import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { RequestMetrics, RouteFamily } from './request-metrics.ts';

/** The family of requests no route matched: their URLs are never labels. */
export const UNMATCHED_ROUTE = 'unmatched';

function recorder(family: RouteFamily): onResponseHookHandler {
  return function recordRequest(request, reply, done) {
    family.observe(request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  };
}

/**
 * Counts every answered request under its route's URL template. Each route gets its own
 * onResponse hook holding its family, added as the route registers, so a request does no
 * lookup and builds no label set.
 */
export const requestMetricsPlugin = fp<{ requests: RequestMetrics }>(
  async (app: FastifyInstance, { requests }) => {
    app.addHook('onRoute', (route) => {
      const hook = recorder(requests.family(route.url));
      route.onResponse = [route.onResponse ?? []].flat().concat(hook);
    });
  },
  { name: 'depot-request-metrics' },
);

/**
 * Counts requests no route matched once they are answered (error-handler.ts's 404 handler
 * calls it): the not-found handler takes no onResponse hook of its own.
 */
export function unmatchedRecorder(requests: RequestMetrics) {
  const family = requests.family(UNMATCHED_ROUTE);
  return (request: FastifyRequest, reply: FastifyReply) =>
    reply.raw.once('finish', () =>
      family.observe(request.method, reply.statusCode, reply.elapsedTime / 1000),
    );
}
