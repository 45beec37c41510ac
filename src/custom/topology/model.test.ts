import { describe, expect, it } from 'vitest';
import { allSettled, fork } from 'effector';
import type { ClusterNode } from '../../api/systemLogs';
import {
  $nodesError,
  $storageError,
  deploymentStatus,
  fetchNodesFx,
  fetchStorageFx,
  pageMounted,
  partStatus,
  statusMessage,
} from './model';

const node = (id: string, status: string, health: Record<string, string> = {}) =>
  ({ node_id: id, status, health }) as unknown as ClusterNode;

describe('the topology', () => {
  it("gives the deployment the spec's statuses from its nodes' heartbeats", () => {
    expect(deploymentStatus(null)).toBe('UNAVAILABLE');
    expect(deploymentStatus([node('a', 'ONLINE'), node('b', 'ONLINE')])).toBe('ONLINE');
    expect(deploymentStatus([node('a', 'ONLINE'), node('b', 'OFFLINE')])).toBe('PARTIAL');
    expect(deploymentStatus([node('a', 'OFFLINE')])).toBe('OFFLINE');
    expect(statusMessage('PARTIAL')).toBe('Some services are offline');
    expect(statusMessage('ONLINE')).toBeUndefined();
  });

  it('gives the database and filestore what the online nodes measured', () => {
    const nodes = [
      node('a', 'ONLINE', { database: 'ONLINE', filestore: 'ONLINE' }),
      node('b', 'ONLINE', { database: 'ONLINE', filestore: 'OFFLINE' }),
      node('c', 'OFFLINE', { database: 'UNAVAILABLE', filestore: 'UNAVAILABLE' }),
    ];
    expect(partStatus(nodes, 'database')).toBe('ONLINE');
    expect(partStatus(nodes, 'filestore')).toBe('PARTIAL');
    expect(partStatus([nodes[2]!], 'database')).toBe('UNAVAILABLE');
  });

  it("says which data could not be fetched, in the spec's words", async () => {
    const scope = fork({
      handlers: [
        [fetchNodesFx, () => Promise.reject(new Error('offline'))],
        [fetchStorageFx, () => Promise.reject(new Error('offline'))],
      ],
    });
    await allSettled(pageMounted, { scope });
    expect(scope.getState($nodesError)).toBe('Unable to fetch the list of units');
    expect(scope.getState($storageError)).toBe('Unable to fetch Storage data');
  });
});
