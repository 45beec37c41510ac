import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS_OFF_MESSAGE } from '../server/modules/metrics/routes.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { parseOpenMetrics, sampleValue } from './helpers/openmetrics.ts';
import { basic, createRepository, startTestDepot, type TestDepot } from './helpers/test-app.ts';

const METRICS = '/artifactory/api/v1/metrics';
const DOWNLOAD_ROUTE = '/artifactory/:repoKey/*';
const PING_ROUTE = '/artifactory/api/system/ping';

let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot();
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pass-1',
  });
  await createRepository(depot, 'files-local', 'local');
  await createRepository(depot, 'away-remote', 'remote', { url: 'http://127.0.0.1:9/' });
  const deployed = await depot.request('/artifactory/files-local/small.bin', {
    method: 'PUT',
    body: Buffer.alloc(10 * 1024, 7),
  });
  expect(deployed.status).toBe(201);
});
afterAll(() => depot?.close());

async function scrape(headers: Record<string, string> = {}) {
  const response = await depot.request(METRICS, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe(
    'application/openmetrics-text; version=1.0.0; charset=utf-8',
  );
  return parseOpenMetrics(await response.text());
}

const requests = (families: Awaited<ReturnType<typeof scrape>>, labels: Record<string, string>) =>
  sampleValue(families, 'depot_http_requests_total', labels);

describe('GET /artifactory/api/v1/metrics', () => {
  it('answers admins and admin tokens only', async () => {
    expect((await depot.request(METRICS, { headers: { authorization: '' } })).status).toBe(401);
    const dev = { authorization: basic('dev', 'dev-pass-1') };
    expect((await depot.request(METRICS, { headers: dev })).status).toBe(403);

    const token = async (headers: Record<string, string>, body: object) => {
      const response = await depot.request('/access/api/v1/tokens', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      return `Bearer ${(await response.json()).access_token}`;
    };
    const devToken = await token(dev, {});
    expect((await depot.request(METRICS, { headers: { authorization: devToken } })).status).toBe(
      403,
    );
    const adminToken = await token({}, { scope: 'applied-permissions/admin', expires_in: 60 });
    await scrape({ authorization: adminToken });
  });

  it('writes every promised family in the OpenMetrics text format', async () => {
    const families = await scrape();
    for (const name of [
      'depot_http_requests',
      'depot_http_request_duration_seconds',
      'depot_http_received_bytes',
      'depot_http_sent_bytes',
      'depot_db_pool_connections',
      'depot_db_pool_waiting',
      'depot_nodejs_eventloop_lag_p99_seconds',
      'depot_filestore_binaries_bytes',
      'depot_filestore_volume_free_bytes',
      'depot_filestore_volume_size_bytes',
      'depot_job_runs',
      'depot_job_duration_seconds',
      'depot_remote_upstream_failures',
    ])
      expect(families.has(name), name).toBe(true);
    expect(families.get('depot_http_request_duration_seconds')?.type).toBe('histogram');
    expect(sampleValue(families, 'depot_filestore_binaries_bytes')).toBe(10 * 1024);
    expect(sampleValue(families, 'depot_filestore_volume_size_bytes')).toBeGreaterThan(
      sampleValue(families, 'depot_filestore_volume_free_bytes'),
    );
  });

  it('counts requests by route template and status class, never by raw URL', async () => {
    const before = await scrape();
    const missing = `/no-such-call-${Date.now()}`;
    for (let i = 0; i < 3; i++) await depot.request(PING_ROUTE);
    // Fastify's HEAD twin of a GET route is counted once, as HEAD.
    expect((await depot.request(PING_ROUTE, { method: 'HEAD' })).status).toBe(200);
    expect((await depot.request(missing)).status).toBe(404);
    // Downloads answered before Fastify (the download fast path) count under their route too.
    const servedBefore = depot.downloadFastPath.served;
    for (let i = 0; i < 4; i++) {
      const download = await depot.request('/artifactory/files-local/small.bin');
      expect((await download.arrayBuffer()).byteLength).toBe(10 * 1024);
    }
    expect(depot.downloadFastPath.served).toBeGreaterThan(servedBefore);
    expect((await depot.request('/artifactory/files-local/absent.bin')).status).toBe(404);

    const response = await depot.request(METRICS);
    const text = await response.text();
    expect(text).not.toContain('no-such-call');
    expect(text).not.toContain('small.bin');
    const after = parseOpenMetrics(text);
    const moved = (labels: Record<string, string>) =>
      requests(after, labels) - requests(before, labels);
    expect(moved({ route: PING_ROUTE, method: 'GET', status: '2xx' })).toBe(3);
    expect(moved({ route: PING_ROUTE, method: 'HEAD', status: '2xx' })).toBe(1);
    expect(moved({ route: 'unmatched', method: 'GET', status: '4xx' })).toBe(1);
    expect(moved({ route: DOWNLOAD_ROUTE, method: 'GET', status: '2xx' })).toBe(4);
    expect(moved({ route: DOWNLOAD_ROUTE, method: 'GET', status: '4xx' })).toBe(1);

    const ping = { route: PING_ROUTE, method: 'GET', status: '2xx' };
    const count = sampleValue(after, 'depot_http_request_duration_seconds_count', ping);
    expect(count).toBe(requests(after, ping));
    expect(
      sampleValue(after, 'depot_http_request_duration_seconds_bucket', { ...ping, le: '+Inf' }),
    ).toBe(count);
    const buckets = after
      .get('depot_http_request_duration_seconds')!
      .samples.filter(
        (s) =>
          s.name.endsWith('_bucket') && s.labels.route === PING_ROUTE && s.labels.method === 'GET',
      )
      .map((s) => s.value);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));

    const sent = (families: typeof after) => sampleValue(families, 'depot_http_sent_bytes_total');
    expect(sent(after) - sent(before)).toBeGreaterThan(4 * 10 * 1024);
    const received = (families: typeof after) =>
      sampleValue(families, 'depot_http_received_bytes_total');
    expect(received(after)).toBeGreaterThan(received(before));
  });

  it('counts job runs with their durations, and upstream failures', async () => {
    const job = { job: 'cleanVirtualRepo', outcome: 'success' };
    const failure = { repository: 'away-remote', kind: 'blocked' };
    const before = await scrape();
    const run = await depot.request('/ui/api/v1/ui/maintenance/cleanVirtualRepo', {
      method: 'POST',
    });
    expect(run.status).toBe(200);
    // A loopback upstream is refused by the address guard: a failure of kind `blocked`.
    expect(
      (await depot.request('/artifactory/away-remote/thing.txt')).status,
    ).toBeGreaterThanOrEqual(400);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(moved('depot_job_runs_total', job)).toBe(1);
    expect(moved('depot_job_duration_seconds_count', job)).toBe(1);
    expect(moved('depot_remote_upstream_failures_total', failure)).toBe(1);
  });
});

describe('DEPOT_METRICS=false', () => {
  let quiet: TestDepot;
  beforeAll(async () => {
    quiet = await startTestDepot({ DEPOT_METRICS: 'false' });
  });
  afterAll(() => quiet?.close());

  it('answers 404 with the reason, to an admin, and still refuses others', async () => {
    const off = await quiet.app.inject({
      url: METRICS,
      headers: { authorization: basic('admin', 'admin-secret-1') },
    });
    expect(off.statusCode).toBe(404);
    expect(off.json().errors[0].message).toBe(METRICS_OFF_MESSAGE);
    expect((await quiet.app.inject({ url: METRICS })).statusCode).toBe(401);
  });
});
