/** Upper bounds of the request duration histogram, in seconds. */
export const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
] as const;

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** One route family, method and status class: what one series of each metric counts. */
interface Cell {
  labels: { route: string; method: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative: summed when the metric is read). */
  buckets: Float64Array;
}

/** Records the requests of one route template. */
export interface RouteFamily {
  observe(method: string, statusCode: number, seconds: number): void;
}

/** The shape prom-client's registry reads from a metric (what its own metrics' `get` answers). */
interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

function bucketIndex(seconds: number): number {
  for (let index = 0; index < DURATION_BUCKETS.length; index++)
    if (seconds <= DURATION_BUCKETS[index]) return index;
  return DURATION_BUCKETS.length;
}

/**
 * Request counts and durations by route family (the route's URL template, never the raw
 * URL, so the label sets stay bounded), method and status class. prom-client's own
 * histogram hashes its labels into a new string at every observation; here each route
 * keeps its cells and a request only finds one and adds to it: no allocation per request
 * once a combination has been seen.
 */
export function createRequestMetrics(prefix: string) {
  const cells: Cell[] = [];

  function newCell(route: string, method: string, statusIndex: number): Cell {
    const cell = {
      labels: { route, method, status: STATUS_CLASSES[statusIndex] },
      count: 0,
      sum: 0,
      buckets: new Float64Array(DURATION_BUCKETS.length + 1),
    };
    cells.push(cell);
    return cell;
  }

  const families = new Map<string, RouteFamily>();

  /** The recorder of a route template: one per template, whoever asks (routes, the fast path). */
  function family(route: string): RouteFamily {
    let known = families.get(route);
    if (!known) families.set(route, (known = newFamily(route)));
    return known;
  }

  function newFamily(route: string): RouteFamily {
    const byMethod = new Map<string, (Cell | undefined)[]>();
    return {
      observe(method, statusCode, seconds) {
        let row = byMethod.get(method);
        if (!row) byMethod.set(method, (row = []));
        const statusIndex = Math.min(4, Math.max(0, Math.floor(statusCode / 100) - 1));
        const cell = (row[statusIndex] ??= newCell(route, method, statusIndex));
        cell.count += 1;
        cell.sum += seconds;
        cell.buckets[bucketIndex(seconds)] += 1;
      },
    };
  }

  function histogramValues(): MetricValue[] {
    const values: MetricValue[] = [];
    const name = `${prefix}_http_request_duration_seconds`;
    for (const cell of cells) {
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, index) => {
        cumulative += cell.buckets[index];
        values.push({
          labels: { ...cell.labels, le },
          value: cumulative,
          metricName: `${name}_bucket`,
        });
      });
      values.push({
        labels: { ...cell.labels, le: '+Inf' },
        value: cell.count,
        metricName: `${name}_bucket`,
      });
      values.push({ labels: cell.labels, value: cell.sum, metricName: `${name}_sum` });
      values.push({ labels: cell.labels, value: cell.count, metricName: `${name}_count` });
    }
    return values;
  }

  /** The two metrics, in the form prom-client's registry takes (`registerMetric`). */
  const metrics = [
    {
      name: `${prefix}_http_requests`,
      help: 'Requests answered, by route template, method and status class.',
      type: 'counter',
      get: async () => ({
        name: `${prefix}_http_requests`,
        help: 'Requests answered, by route template, method and status class.',
        type: 'counter',
        values: cells.map((cell) => ({ labels: cell.labels, value: cell.count })),
      }),
    },
    {
      name: `${prefix}_http_request_duration_seconds`,
      help: 'Time from a request arriving to its answer being sent, by route template, method and status class.',
      type: 'histogram',
      get: async () => ({
        name: `${prefix}_http_request_duration_seconds`,
        help: 'Time from a request arriving to its answer being sent, by route template, method and status class.',
        type: 'histogram',
        values: histogramValues(),
      }),
    },
  ];

  return { family, metrics };
}

export type RequestMetrics = ReturnType<typeof createRequestMetrics>;
