import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import { beat, registerNode } from './queries.ts';

/** The spec's topology statuses (spec 03 "Topology, service status, logs"). */
export type NodeStatus = 'ONLINE' | 'PARTIAL' | 'OFFLINE' | 'UNAUTHORIZED' | 'UNAVAILABLE';

export interface HeartbeatOptions {
  db: Database;
  nodeId: string;
  version: string;
  heartbeatSeconds: number;
  filestoreDir: string;
  scheduler: Pick<Scheduler, 'lastRuns'>;
  logger: Logger;
}

/**
 * What this node measures of its parts at each heartbeat. The database is ONLINE when the
 * heartbeat's own write goes through (a node that cannot write stops beating and turns
 * OFFLINE); the filestore when its directory is writable; the jobs when none's last run failed.
 */
async function measureHealth(options: HeartbeatOptions): Promise<Record<string, NodeStatus>> {
  const filestore = await access(options.filestoreDir, constants.W_OK).then(
    () => 'ONLINE' as const,
    () => 'UNAVAILABLE' as const,
  );
  const runs = await options.scheduler.lastRuns().catch(() => undefined);
  const jobs = !runs
    ? 'UNAVAILABLE'
    : Object.values(runs).some((run) => run.outcome === 'failure')
      ? 'PARTIAL'
      : 'ONLINE';
  return { database: 'ONLINE', filestore, jobs };
}

/**
 * Writes this node's row at start, then its heartbeat every `heartbeatSeconds`
 * (DEPOT_HEARTBEAT_SECONDS). A failed beat is logged and the next one tries again.
 */
export async function startHeartbeat(options: HeartbeatOptions) {
  const node = {
    id: options.nodeId,
    host: hostname(),
    version: options.version,
    heartbeatSeconds: options.heartbeatSeconds,
  };
  await registerNode(options.db, node, await measureHealth(options));
  const startedAt = new Date();
  let beating: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (beating) return;
    beating = measureHealth(options)
      .then((health) => beat(options.db, node, startedAt, health))
      .catch((error) => options.logger.warn({ err: error }, 'writing the node heartbeat failed'))
      .finally(() => (beating = undefined));
  }, options.heartbeatSeconds * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await beating;
    },
  };
}
