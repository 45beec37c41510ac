import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import type { ClusterNode, LogData } from '../../api/systemLogs';
import {
  $countdown,
  $failure,
  $logId,
  $logs,
  $nodeId,
  $paused,
  $text,
  fetchConfigFx,
  fetchDataFx,
  fetchNodesFx,
  nodeSelected,
  pageMounted,
  pauseClicked,
  refreshNowClicked,
  resumeClicked,
  secondTicked,
} from './model';

const node = (id: string, local: boolean) => ({ node_id: id, local }) as ClusterNode;
const data = (content: string, size: number): LogData => ({
  log_content: content,
  file_size: size,
  last_update_modified: 1,
  last_update_label: '2026-01-01T00:00:00.000Z',
});

/** A scope whose log grows by one line at each read. */
function scopeWith(config: () => Promise<{ logs: string[]; refresh_rate_millis?: number }>) {
  const reads: Array<{ nodeId: string; id: string; offset: number }> = [];
  const scope = fork({
    handlers: [
      [fetchNodesFx, async () => [node('a', false), node('b', true)]],
      [fetchConfigFx, vi.fn(config)],
      [
        fetchDataFx,
        async (request: { nodeId: string; id: string; offset: number }) => {
          reads.push({ nodeId: request.nodeId, id: request.id, offset: request.offset });
          const line = `line at ${request.offset}\n`;
          return { offset: request.offset, data: data(line, request.offset + line.length) };
        },
      ],
    ],
  });
  return { scope, reads };
}

const ticks = async (scope: ReturnType<typeof fork>, count: number) => {
  for (let i = 0; i < count; i++) await allSettled(secondTicked, { scope });
};

describe('the live log viewer', () => {
  it('opens on the node that answered, its first log, and reads on when the countdown ends', async () => {
    const { scope, reads } = scopeWith(async () => ({
      logs: ['depot-service.log', 'depot-request.log'],
      refresh_rate_millis: 3000,
    }));
    await allSettled(pageMounted, { scope });
    expect(scope.getState($nodeId)).toBe('b');
    expect(scope.getState($logs)).toEqual(['depot-service.log', 'depot-request.log']);
    expect(scope.getState($logId)).toBe('depot-service.log');
    expect(scope.getState($text)).toBe('line at 0\n');
    expect(scope.getState($countdown)).toBe(3);

    await ticks(scope, 3);
    expect(reads.at(-1)).toEqual({ nodeId: 'b', id: 'depot-service.log', offset: 10 });
    expect(scope.getState($text)).toBe('line at 0\nline at 10\n');
    expect(scope.getState($countdown)).toBe(3);
  });

  it('stops counting while paused, goes on when resumed, and reads at once on Refresh now', async () => {
    const { scope, reads } = scopeWith(async () => ({ logs: ['depot-audit.log'] }));
    await allSettled(pageMounted, { scope });
    // The spec's default when the server gives none: 10 seconds.
    expect(scope.getState($countdown)).toBe(10);
    await allSettled(pauseClicked, { scope });
    await ticks(scope, 12);
    expect(reads).toHaveLength(1);
    expect(scope.getState($countdown)).toBe(10);

    await allSettled(resumeClicked, { scope });
    await ticks(scope, 10);
    expect(reads).toHaveLength(2);
    await allSettled(refreshNowClicked, { scope });
    expect(reads).toHaveLength(3);
    expect(reads.at(-1)!.offset).toBe(reads[1].offset + 'line at 10\n'.length);
  });

  it('starts a node afresh when another is picked', async () => {
    const { scope, reads } = scopeWith(async () => ({ logs: ['depot-service.log'] }));
    await allSettled(pageMounted, { scope });
    await allSettled(nodeSelected, { scope, params: 'a' });
    expect(reads.at(-1)).toEqual({ nodeId: 'a', id: 'depot-service.log', offset: 0 });
    expect(scope.getState($text)).toBe('line at 0\n');
  });

  it('pauses and says why when the configuration fails', async () => {
    const { scope, reads } = scopeWith(async () => {
      throw new ApiError({
        message: 'Forbidden',
        status: 403,
        body: { errors: [{ status: 403, message: 'Admin only' }] },
        method: 'GET',
        url: '/ui/api/v1/system/logs/config/artifactory',
      });
    });
    await allSettled(pageMounted, { scope });
    expect(scope.getState($failure)).toBe('Admin only');
    expect(scope.getState($paused)).toBe(true);
    await ticks(scope, 12);
    expect(reads).toHaveLength(0);
  });
});
