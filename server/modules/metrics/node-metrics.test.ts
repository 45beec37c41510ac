import { collectDefaultMetrics, Registry, type OpenMetricsContentType } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { collectNodeMetrics } from './node-metrics.ts';

const GC_FAMILY = 'depot_nodejs_gc_duration_seconds';

function openMetricsRegistry() {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  return registry;
}

async function familyNames(registry: Registry<OpenMetricsContentType>) {
  return (await registry.getMetricsAsJSON()).map((metric) => metric.name).sort();
}

describe('collectNodeMetrics', () => {
  it("registers prom-client's default families, leaving out the GC timing unless asked", async () => {
    const defaults = openMetricsRegistry();
    collectDefaultMetrics({ register: defaults, prefix: 'depot_' });
    const expected = await familyNames(defaults);
    expect(expected).toContain(GC_FAMILY);

    const withGc = openMetricsRegistry();
    collectNodeMetrics(withGc, {
      prefix: 'depot_',
      eventLoopMonitoringPrecision: 20,
      garbageCollection: true,
    });
    // Every family prom-client's own collection gives: a collector added by a newer
    // prom-client and missing here fails this.
    expect(await familyNames(withGc)).toEqual(expected);

    const withoutGc = openMetricsRegistry();
    collectNodeMetrics(withoutGc, {
      prefix: 'depot_',
      eventLoopMonitoringPrecision: 20,
      garbageCollection: false,
    });
    expect(await familyNames(withoutGc)).toEqual(expected.filter((name) => name !== GC_FAMILY));
  });

  it('reads the process figures at scrape time', async () => {
    const registry = openMetricsRegistry();
    collectNodeMetrics(registry, {
      prefix: 'depot_',
      eventLoopMonitoringPrecision: 20,
      garbageCollection: false,
    });
    const text = await registry.metrics();
    const residentBytes = Number(/^depot_process_resident_memory_bytes (\d+)$/m.exec(text)?.[1]);
    expect(residentBytes).toBeGreaterThan(10 * 1024 * 1024);
    const cpuSeconds = Number(/^depot_process_cpu_seconds_total (\S+)$/m.exec(text)?.[1]);
    expect(cpuSeconds).toBeGreaterThan(0);
  });
});
