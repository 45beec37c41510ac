import type { OpenMetricsContentType, Registry } from 'prom-client';
import eventLoopLag from 'prom-client/lib/metrics/eventLoopLag.js';
import garbageCollection from 'prom-client/lib/metrics/gc.js';
import heapSizeAndUsed from 'prom-client/lib/metrics/heapSizeAndUsed.js';
import heapSpacesSizeAndUsed from 'prom-client/lib/metrics/heapSpacesSizeAndUsed.js';
import osMemoryHeap from 'prom-client/lib/metrics/osMemoryHeap.js';
import processCpuTotal from 'prom-client/lib/metrics/processCpuTotal.js';
import processHandles from 'prom-client/lib/metrics/processHandles.js';
import processMaxFileDescriptors from 'prom-client/lib/metrics/processMaxFileDescriptors.js';
import processOpenFileDescriptors from 'prom-client/lib/metrics/processOpenFileDescriptors.js';
import processRequests from 'prom-client/lib/metrics/processRequests.js';
import processResources from 'prom-client/lib/metrics/processResources.js';
import processStartTime from 'prom-client/lib/metrics/processStartTime.js';
import version from 'prom-client/lib/metrics/version.js';

/**
 * prom-client's own collectors of Node's process and runtime figures, read at scrape time:
 * CPU, memory, heap and its spaces, file descriptors, handles, requests and resources, the
 * start time, the version, and the event-loop delay (Node's `monitorEventLoopDelay`, which
 * samples in native code).
 */
const SCRAPE_TIME_COLLECTORS = [
  processCpuTotal,
  processStartTime,
  osMemoryHeap,
  processOpenFileDescriptors,
  processMaxFileDescriptors,
  eventLoopLag,
  processResources,
  processHandles,
  processRequests,
  heapSizeAndUsed,
  heapSpacesSizeAndUsed,
  version,
];

export interface NodeMetricsOptions {
  prefix: string;
  /** Event-loop delay sampling interval in milliseconds. */
  eventLoopMonitoringPrecision: number;
  /**
   * Whether to time every garbage collection (`nodejs_gc_duration_seconds`). Off unless
   * asked (DEPOT_METRICS_GC): it is the one collector that works as the process runs rather
   * than at scrape time, and its cost is not in its own code. Subscribing to V8's collection
   * events at all (prom-client's observer, or even an observer that does nothing) made an
   * allocating loop 25-35 % slower and a 10 KiB download's requests measurably dearer
   * (docs/metrics.md, "Cost").
   */
  garbageCollection: boolean;
}

/**
 * What prom-client's `collectDefaultMetrics` registers, with the garbage collector's timing
 * only when asked. prom-client offers no way to leave one default collector out, so its
 * collectors are taken one by one; tests/metrics.test.ts checks every family they give.
 */
export function collectNodeMetrics(
  registry: Registry<OpenMetricsContentType>,
  options: NodeMetricsOptions,
): void {
  const collectors = options.garbageCollection
    ? [...SCRAPE_TIME_COLLECTORS, garbageCollection]
    : SCRAPE_TIME_COLLECTORS;
  const config = {
    prefix: options.prefix,
    eventLoopMonitoringPrecision: options.eventLoopMonitoringPrecision,
  };
  for (const collect of collectors) collect(registry, config);
}
