import type { FastifyInstance } from 'fastify';
import { NotFound } from '../../errors.ts';
import type { Metrics } from './metrics.ts';

export const METRICS_OFF_MESSAGE = 'Metrics are turned off on this server (DEPOT_METRICS=false).';

/**
 * The metrics for Prometheus and its kin, in the OpenMetrics text format, at Artifactory's
 * path (docs/metrics.md). Admins only: the figures tell who uses which repository how much.
 */
export async function metricsRoutes(
  app: FastifyInstance,
  { metrics }: { metrics: Metrics | undefined },
) {
  app.get(
    '/artifactory/api/v1/metrics',
    {
      config: { permission: 'admin' },
      schema: {
        summary: 'Metrics in the OpenMetrics text format',
        tags: ['system'],
        response: { 200: { type: 'string' } },
      },
    },
    async (_request, reply) => {
      if (!metrics) throw new NotFound(METRICS_OFF_MESSAGE);
      const text = await metrics.render();
      return reply.type(metrics.contentType).send(text);
    },
  );
}
