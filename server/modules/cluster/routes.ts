import type { FastifyInstance } from 'fastify';
import type { ClusterStatus } from './service.ts';

const admin = { permission: 'admin' } as const;

/**
 * Service status (spec 03 §7, "Service status"): the nodes at the mission-control base, and
 * the removal of a dead node at Access's topology path. Admins only.
 */
export async function clusterStatusRoutes(
  app: FastifyInstance,
  { cluster }: { cluster: ClusterStatus },
) {
  app.get('/mc/api/v1/system/status/nodes', { config: admin }, async () => cluster.nodes());

  // A map of services to their nodes; Depot has one service.
  app.get('/mc/api/v1/system/status/ha', { config: admin }, async () => {
    const nodes = await cluster.nodes();
    const services: Record<string, typeof nodes> = {};
    for (const node of nodes) (services[node.service_id] ??= []).push(node);
    return services;
  });

  app.delete<{ Params: { service_id: string; node_id: string } }>(
    '/access/api/v1/topology/:service_id/:node_id',
    { config: admin },
    async (request) => {
      await cluster.remove(request.params.service_id, request.params.node_id);
      return { removed: request.params.node_id };
    },
  );
}
