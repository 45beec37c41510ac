import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';
import { until } from './helpers/webhook-receiver.ts';

/** The nodes table, heartbeats, and the service status calls (docs/service-status.md). */
let depot: TestDepot;
const NODE = 'node-status-a';

interface NodeView {
  node_id: string;
  status: string;
  local: boolean;
  start_time: string;
  micro_services: { artifactory: { last_heartbeat: string; uptime: number; status: string } };
  health: Record<string, string>;
}

const get = async (url: string, headers: Record<string, string> = adminAuth()) =>
  depot.app.inject({ method: 'GET', url, headers });
const nodes = async () => (await get('/mc/api/v1/system/status/nodes')).json() as NodeView[];

/** A node that started an hour ago and fell silent 40 minutes ago: it died. */
async function addDeadNode(id: string) {
  const hour = 60 * 60 * 1000;
  await depot.db
    .insertInto('cluster_nodes')
    .values({
      id,
      host: 'gone-host',
      version: '0.0.9',
      started_at: new Date(Date.now() - hour),
      last_heartbeat: new Date(Date.now() - (hour * 2) / 3),
      heartbeat_seconds: 10,
      health: JSON.stringify({ database: 'ONLINE', filestore: 'ONLINE', jobs: 'ONLINE' }),
    })
    .execute();
}

beforeAll(async () => {
  depot = await startTestDepot({ DEPOT_NODE_ID: NODE, DEPOT_HEARTBEAT_SECONDS: '1' });
});
afterAll(async () => depot?.close());

describe('service status', () => {
  it('shows the running node ONLINE with its heartbeat advancing and its parts healthy', async () => {
    const [first] = await nodes();
    expect(first).toMatchObject({
      service_id: 'artifactory',
      node_id: NODE,
      status: 'ONLINE',
      local: true,
      health: { database: 'ONLINE', filestore: 'ONLINE', jobs: 'ONLINE' },
    });
    let later = first;
    await until(async () => {
      [later] = await nodes();
      return (
        later.micro_services.artifactory.last_heartbeat !==
        first.micro_services.artifactory.last_heartbeat
      );
    }, 'a second heartbeat');
    expect(later.start_time).toBe(first.start_time);
    expect(later.micro_services.artifactory.uptime).toBeGreaterThan(
      first.micro_services.artifactory.uptime,
    );
  });

  it('shows a node that stopped beating OFFLINE, its parts UNAVAILABLE, and lists services to nodes', async () => {
    await addDeadNode('node-status-dead');
    const dead = (await nodes()).find((node) => node.node_id === 'node-status-dead');
    expect(dead).toMatchObject({
      status: 'OFFLINE',
      local: false,
      health: { database: 'UNAVAILABLE', filestore: 'UNAVAILABLE', jobs: 'UNAVAILABLE' },
    });
    // Its uptime ran from its start to its last heartbeat: 20 minutes.
    expect(Math.round(dead!.micro_services.artifactory.uptime / 60000)).toBe(20);
    const ha = (await get('/mc/api/v1/system/status/ha')).json();
    expect(Object.keys(ha)).toEqual(['artifactory']);
    expect(ha.artifactory.map((node: NodeView) => node.node_id)).toEqual([
      NODE,
      'node-status-dead',
    ]);
  });

  it('lets an admin remove a dead node, never a live one', async () => {
    const remove = (id: string, service = 'artifactory') =>
      depot.app.inject({
        method: 'DELETE',
        url: `/access/api/v1/topology/${service}/${id}`,
        headers: adminAuth(),
      });
    const self = await remove(NODE);
    expect(self.statusCode).toBe(409);
    expect(self.json().errors[0].message).toBe(
      `Node '${NODE}' answered this request: a running node cannot be removed`,
    );
    // Another node that still beats: it would only write itself back.
    await depot.db
      .insertInto('cluster_nodes')
      .values({
        id: 'node-status-alive',
        host: 'other-host',
        version: '0.1.0',
        started_at: new Date(),
        last_heartbeat: new Date(),
        heartbeat_seconds: 60,
        health: JSON.stringify({ database: 'ONLINE' }),
      })
      .execute();
    const alive = await remove('node-status-alive');
    expect(alive.statusCode).toBe(409);
    expect(alive.json().errors[0].message).toBe(
      "Node 'node-status-alive' is online: only a node that stopped sending heartbeats can be removed",
    );
    expect((await remove('node-status-nowhere')).statusCode).toBe(404);
    expect((await remove('node-status-dead', 'xray')).statusCode).toBe(404);

    const removed = await remove('node-status-dead');
    expect(removed.statusCode).toBe(200);
    expect((await nodes()).map((node) => node.node_id)).toEqual([NODE, 'node-status-alive']);
  });

  it('is for admins only', async () => {
    await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/api/security/users/status-plain',
      headers: adminAuth(),
      payload: { email: 'plain@example.com', password: 'Plain-status-1' },
    });
    const plain = { authorization: basic('status-plain', 'Plain-status-1') };
    expect((await get('/mc/api/v1/system/status/nodes', plain)).statusCode).toBe(403);
    expect((await get('/mc/api/v1/system/status/ha', {})).statusCode).toBe(401);
  });
});
