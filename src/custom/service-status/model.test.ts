import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import type { ClusterNode } from '../../api/systemLogs';
import {
  $services,
  fetchServicesFx,
  pageMounted,
  removeClicked,
  removeConfirmed,
  removeNodeFx,
} from './model';
import { dismissLaterFx } from '../../shell/notifications/model';
import { humanUptime } from './messages';

const node = (id: string, status: string, service = 'artifactory') =>
  ({ service_id: service, node_id: id, status }) as ClusterNode;

describe('service status', () => {
  it('shows an uptime in its two largest units', () => {
    expect(humanUptime(0)).toBe('0s');
    expect(humanUptime(12_400)).toBe('12s');
    expect(humanUptime(5 * 60_000 + 12_000)).toBe('5m 12s');
    expect(humanUptime(2 * 86_400_000 + 3 * 3_600_000 + 59 * 60_000)).toBe('2d 3h');
    expect(humanUptime(3_600_000 + 30_000)).toBe('1h 0m');
  });

  it('lists a service only while one of its nodes is online, with its stopped nodes', async () => {
    const scope = fork({
      handlers: [
        [
          fetchServicesFx,
          async () => ({
            artifactory: [node('a', 'ONLINE'), node('b', 'OFFLINE')],
            gone: [node('c', 'OFFLINE', 'gone')],
          }),
        ],
      ],
    });
    await allSettled(pageMounted, { scope });
    expect(scope.getState($services)).toEqual([
      ['artifactory', [node('a', 'ONLINE'), node('b', 'OFFLINE')]],
    ]);
  });

  it('removes a confirmed node and loads the services again', async () => {
    const remove = vi.fn(async () => ({ removed: 'b' }));
    const fetchServices = vi.fn(async () => ({ artifactory: [node('a', 'ONLINE')] }));
    const scope = fork({
      handlers: [
        [fetchServicesFx, fetchServices],
        [removeNodeFx, remove],
        // The success notice's dismissal timer is the shell's, not this test's.
        [dismissLaterFx, async () => undefined],
      ],
    });
    await allSettled(removeClicked, { scope, params: node('b', 'OFFLINE') });
    await allSettled(removeConfirmed, { scope });
    expect(remove).toHaveBeenCalledWith({ serviceId: 'artifactory', nodeId: 'b' });
    expect(fetchServices).toHaveBeenCalledTimes(1);
  });
});
