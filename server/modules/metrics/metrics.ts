import { statfs } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Counter, Gauge, Histogram, Registry, type OpenMetricsContentType } from 'prom-client';
import { collectNodeMetrics } from './node-metrics.ts';
import { createRequestMetrics } from './request-metrics.ts';

const PREFIX = 'depot';

/** Job durations run from a second's fraction (the trash purge) to hours (garbage collection). */
const JOB_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600];

/** What the gauges read when the endpoint is scraped. */
export interface MetricSources {
  filestoreDir: string;
  /** Bytes and count of the stored binaries (each content once). */
  binaryTotals: () => Promise<{ size: number; count: number }>;
  /** The database driver's connections; undefined when the driver tells none. */
  poolStats: () => { size: number; idle: number; waiting: number } | undefined;
  /** Whether to time every garbage collection too (DEPOT_METRICS_GC; node-metrics.ts). */
  garbageCollection?: boolean;
}

/** Reading the binaries' totals is a pass over a table: at most once in this long. */
const BINARY_TOTALS_MAX_AGE_MS = 60_000;

/** Calls `read` at most once every `maxAgeMs`, answering the last value in between. */
function cached<T>(read: () => Promise<T>, maxAgeMs: number): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > maxAgeMs) {
      last = { at: now, value: read() };
      last.value.catch(() => (last = undefined));
    }
    return last.value;
  };
}

/**
 * Depot's metrics in one prom-client registry that writes the OpenMetrics text format
 * (docs/metrics.md): requests by route family, bytes on the wire, the database pool,
 * Node's own figures (event-loop delay among them), the filestore, jobs and upstream
 * failures. Values that only the scrape needs are read at scrape time (`collect`); the
 * request path only adds to numbers (request-metrics.ts).
 */
export function createMetrics(sources: MetricSources) {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  const registers = [registry];
  // Node's process and runtime metrics: CPU, memory, heap, handles and event-loop delay.
  collectNodeMetrics(registry, {
    prefix: `${PREFIX}_`,
    eventLoopMonitoringPrecision: 20,
    garbageCollection: sources.garbageCollection ?? false,
  });

  const requests = createRequestMetrics(PREFIX);
  for (const metric of requests.metrics) registry.registerMetric(metric as never);

  const bytes = trackConnectionBytes(registers);

  new Gauge({
    name: `${PREFIX}_db_pool_connections`,
    help: 'Database connections open (PostgreSQL), or queries running in the embedded database.',
    registers,
    collect() {
      const stats = sources.poolStats();
      if (stats) this.set(stats.size);
    },
  });
  new Gauge({
    name: `${PREFIX}_db_pool_idle_connections`,
    help: 'Database connections open and unused.',
    registers,
    collect() {
      const stats = sources.poolStats();
      if (stats) this.set(stats.idle);
    },
  });
  new Gauge({
    name: `${PREFIX}_db_pool_waiting`,
    help: 'Queries waiting for a database connection, or for the embedded database to be free.',
    registers,
    collect() {
      const stats = sources.poolStats();
      if (stats) this.set(stats.waiting);
    },
  });

  const binaryTotals = cached(sources.binaryTotals, BINARY_TOTALS_MAX_AGE_MS);
  new Gauge({
    name: `${PREFIX}_filestore_binaries_bytes`,
    help: 'Bytes of the binaries the filestore holds, each content once (read at most once a minute).',
    registers,
    async collect() {
      this.set((await binaryTotals()).size);
    },
  });
  new Gauge({
    name: `${PREFIX}_filestore_binaries`,
    help: 'Binaries the filestore holds (read at most once a minute).',
    registers,
    async collect() {
      this.set((await binaryTotals()).count);
    },
  });
  const volume = () => statfs(sources.filestoreDir);
  new Gauge({
    name: `${PREFIX}_filestore_volume_free_bytes`,
    help: "Bytes free for Depot on the filestore's volume.",
    registers,
    async collect() {
      const stats = await volume();
      this.set(stats.bavail * stats.bsize);
    },
  });
  new Gauge({
    name: `${PREFIX}_filestore_volume_size_bytes`,
    help: "Size of the filestore's volume in bytes.",
    registers,
    async collect() {
      const stats = await volume();
      this.set(stats.blocks * stats.bsize);
    },
  });

  const jobRuns = new Counter({
    name: `${PREFIX}_job_runs`,
    help: 'Scheduled and manual job runs that ended on this node, by job and outcome.',
    labelNames: ['job', 'outcome'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: `${PREFIX}_job_duration_seconds`,
    help: 'How long job runs took on this node, by job and outcome.',
    labelNames: ['job', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  const upstreamFailures = new Counter({
    name: `${PREFIX}_remote_upstream_failures`,
    help: "Requests to a remote repository's upstream that failed: blocked, unreachable, timeout or redirects.",
    labelNames: ['repository', 'kind'] as const,
    registers,
  });

  return {
    registry,
    /** The per-route recorder the request hook uses (http-hooks.ts). */
    requests,
    /** Counts the bytes of every connection of this HTTP server. */
    watchServer: bytes.watch,
    recordJobRun(job: string, outcome: 'success' | 'failure', seconds: number) {
      jobRuns.inc({ job, outcome });
      jobDuration.observe({ job, outcome }, seconds);
    },
    recordUpstreamFailure(repository: string, kind: string) {
      upstreamFailures.inc({ repository, kind });
    },
    contentType: registry.contentType,
    render: () => registry.metrics(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Bytes received and sent over HTTP, read from the sockets themselves (headers included):
 * a closed connection adds its total once, and an open one is read at scrape time. Nothing
 * is done per request, and streamed bodies of unknown length are counted all the same.
 */
function trackConnectionBytes(registers: Registry<OpenMetricsContentType>[]) {
  const open = new Set<Socket>();
  let closedIn = 0;
  let closedOut = 0;
  new Counter({
    name: `${PREFIX}_http_received_bytes`,
    help: 'Bytes received over HTTP connections, headers included.',
    registers,
    collect() {
      let total = closedIn;
      for (const socket of open) total += socket.bytesRead;
      this.reset();
      this.inc(total);
    },
  });
  new Counter({
    name: `${PREFIX}_http_sent_bytes`,
    help: 'Bytes sent over HTTP connections, headers included.',
    registers,
    collect() {
      let total = closedOut;
      for (const socket of open) total += socket.bytesWritten;
      this.reset();
      this.inc(total);
    },
  });
  return {
    watch(server: Server) {
      server.on('connection', (socket: Socket) => {
        open.add(socket);
        socket.once('close', () => {
          open.delete(socket);
          closedIn += socket.bytesRead;
          closedOut += socket.bytesWritten;
        });
      });
    },
  };
}
