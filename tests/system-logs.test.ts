import { appendFileSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHUNK_BYTES } from '../server/modules/system-logs/log-reader.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { basic, createRepository, TEST_ADMIN_PASSWORD } from './helpers/test-app.ts';
import { until } from './helpers/webhook-receiver.ts';

/** The request and audit logs as written over real HTTP, and the log viewer's calls. */
let depot: HttpDepot;
const NODE = 'node-logs-a';
const BOB = { name: 'bob-logs', password: 'Bob-logs-secret-1' };
const logsDir = () => join(depot.config.home, 'logs');

interface LogData {
  log_content: string;
  file_size: number;
  last_update_modified: number;
  last_update_label: string;
}

async function readLog(id: string, offset = 0, headers: Record<string, string> = {}) {
  const response = await depot.request(
    `/ui/api/v1/system/logs/data/artifactory?nodeId=${NODE}&id=${encodeURIComponent(id)}&file_size=${offset}`,
    { headers },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as LogData;
}

/** Lines of a log from the start, once one of them matches. */
async function linesOnceSeen(id: string, match: (line: string) => boolean) {
  let lines: string[] = [];
  await until(async () => {
    lines = (await readLog(id)).log_content.split('\n').filter(Boolean);
    return lines.some(match);
  }, `a line of ${id}`);
  return lines;
}

beforeAll(async () => {
  depot = await startHttpDepot({ DEPOT_NODE_ID: NODE, DEPOT_LOG_VIEWER_REFRESH_MS: '2500' });
  await createRepository(depot, 'logs-local', 'local');
});
afterAll(async () => depot?.close());

describe('the request log', () => {
  it('writes one line a request: time, node, address, user, method, path, status, bytes, duration', async () => {
    const put = await depot.request('/artifactory/logs-local/a/file.txt', {
      method: 'PUT',
      body: 'x'.repeat(3000),
    });
    expect(put.status).toBe(201);
    // A repeated download is answered by the fast path, before Fastify: logged all the same.
    // Usually the second is; on PostgreSQL the deploy's change notification may arrive after
    // the first download filled the cache and empty it again, so a few tries are allowed.
    const served = depot.downloadFastPath.served;
    const download = async (query = '') => {
      const get = await depot.request(`/artifactory/logs-local/a/file.txt${query}`);
      expect(await get.text()).toHaveLength(3000);
    };
    let downloadCount = 0;
    while (depot.downloadFastPath.served === served && downloadCount < 5) {
      await download();
      downloadCount += 1;
    }
    expect(depot.downloadFastPath.served).toBe(served + 1);
    await download('?access_token=sekrit-q');
    downloadCount += 1;

    const lines = await linesOnceSeen(
      'depot-request.log',
      (line) => line.split('|').length === 9 && line.includes('|GET|') && line.includes('file.txt'),
    );
    const downloads = lines
      .map((line) => line.split('|'))
      .filter((f) => f[4] === 'GET' && f[5] === '/artifactory/logs-local/a/file.txt');
    expect(downloads.length).toBeGreaterThanOrEqual(1);
    await until(
      async () =>
        (await readLog('depot-request.log')).log_content
          .split('\n')
          .filter((line) => line.includes('|GET|/artifactory/logs-local/a/file.txt|')).length ===
        downloadCount,
      'every download logged, the query string left out',
    );
    const [time, node, address, user, method, path, status, bytes, ms] = downloads[0];
    expect(new Date(time).toISOString()).toBe(time);
    expect([node, address, user, method, path, status]).toEqual([
      NODE,
      '127.0.0.1',
      'admin',
      'GET',
      '/artifactory/logs-local/a/file.txt',
      '200',
    ]);
    expect(Number(bytes)).toBeGreaterThan(3000);
    expect(Number(ms)).toBeGreaterThanOrEqual(0);
    const deploy = lines.find((line) => line.includes('|PUT|/artifactory/logs-local/a/file.txt|'));
    expect(deploy?.split('|')[6]).toBe('201');
    // The query string (where tokens travel) is never written.
    expect(readFileSync(join(logsDir(), 'depot-request.log'), 'utf8')).not.toContain('sekrit-q');
  });
});

describe('the audit log', () => {
  it('records sign-ins that worked and failed, user and configuration changes, and never a password', async () => {
    const login = (password: string) =>
      fetch(`${depot.base}/ui/api/v1/ui/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'admin', password }),
      });
    expect((await login(TEST_ADMIN_PASSWORD)).status).toBe(200);
    expect((await login('Wrong-password-9')).status).toBe(401);
    const created = await depot.request(`/artifactory/api/security/users/${BOB.name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bob@example.com', password: BOB.password }),
    });
    expect(created.status).toBe(201);
    const wrongBasic = await depot.request('/artifactory/api/repositories', {
      headers: { authorization: basic(BOB.name, 'not-his-password') },
    });
    expect(wrongBasic.status).toBe(401);
    // A configuration change an admin made, and one refused to a user.
    const createRepo = (auth: Record<string, string>) =>
      depot.request('/artifactory/api/repositories/audited-local', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
      });
    expect((await createRepo({})).status).toBe(200);
    expect((await createRepo({ authorization: basic(BOB.name, BOB.password) })).status).toBe(403);
    // A download is no change: the request log has it, the audit log does not.
    await depot.request('/artifactory/logs-local/a/file.txt');

    const lines = await linesOnceSeen('depot-audit.log', (line) =>
      line.includes(`|${BOB.name}|configuration|failed 403|`),
    );
    const events = lines.map((line) => line.split('|').slice(1));
    expect(events).toEqual([
      [NODE, '127.0.0.1', 'admin', 'sign-in', 'ok', 'POST /ui/api/v1/ui/auth/login', ''],
      [NODE, '127.0.0.1', 'admin', 'sign-in', 'failed 401', 'POST /ui/api/v1/ui/auth/login', ''],
      [
        NODE,
        '127.0.0.1',
        'admin',
        'user',
        'ok',
        'PUT /artifactory/api/security/users/:name',
        `name=${BOB.name}`,
      ],
      [
        NODE,
        '127.0.0.1',
        BOB.name,
        'sign-in',
        'failed 401',
        'GET /artifactory/api/repositories',
        '',
      ],
      [
        NODE,
        '127.0.0.1',
        'admin',
        'configuration',
        'ok',
        'PUT /artifactory/api/repositories/:key',
        'key=audited-local',
      ],
      [
        NODE,
        '127.0.0.1',
        BOB.name,
        'configuration',
        'failed 403',
        'PUT /artifactory/api/repositories/:key',
        'key=audited-local',
      ],
    ]);
    for (const name of readdirSync(logsDir())) {
      const text = readFileSync(join(logsDir(), name), 'utf8');
      for (const secret of [TEST_ADMIN_PASSWORD, 'Wrong-password-9', BOB.password])
        expect(text, name).not.toContain(secret);
    }
  });
});

describe('the log viewer calls', () => {
  it('lists the service, request and audit logs with the refresh rate', async () => {
    const response = await depot.request(
      `/ui/api/v1/system/logs/config/artifactory?nodeId=${NODE}`,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      logs: ['depot-service.log', 'depot-request.log', 'depot-audit.log'],
      refresh_rate_millis: 2500,
    });
  });

  it('reads on from an offset: only what was written since', async () => {
    const first = await readLog('depot-request.log');
    expect(first.file_size).toBe(Buffer.byteLength(first.log_content));
    expect(first.last_update_modified).toBeGreaterThan(Date.now() - 60_000);
    expect(new Date(first.last_update_label).toISOString()).toBe(first.last_update_label);
    await depot.request('/artifactory/api/system/ping?marker=1');
    let next = first;
    await until(async () => {
      next = await readLog('depot-request.log', first.file_size);
      return next.log_content.includes('/artifactory/api/system/ping');
    }, 'the ping logged');
    // The reads themselves are logged too: the new text holds only lines after the offset.
    expect(next.log_content).not.toContain('|PUT|/artifactory/logs-local/a/file.txt|');
    expect(next.file_size).toBe(first.file_size + Buffer.byteLength(next.log_content));
  });

  it('answers a 100 MB file with its newest lines, never the whole file', async () => {
    const big = join(logsDir(), 'depot-service.log.7');
    writeFileSync(big, 'the oldest line\n');
    truncateSync(big, 100 * 1024 * 1024);
    const tail = Array.from({ length: 2000 }, (_, i) => `tail line ${i + 1}`).join('\n');
    appendFileSync(big, `\n${tail}\n`);
    const config = await (await depot.request('/ui/api/v1/system/logs/config/artifactory')).json();
    expect(config.logs).toContain('depot-service.log.7');

    const data = await readLog('depot-service.log.7');
    expect(Buffer.byteLength(data.log_content)).toBeLessThanOrEqual(MAX_CHUNK_BYTES);
    expect(data.log_content.endsWith('tail line 2000\n')).toBe(true);
    expect(data.log_content).not.toContain('the oldest line');
    expect(data.file_size).toBe(100 * 1024 * 1024 + 1 + Buffer.byteLength(tail) + 1);
  });

  it('refuses names outside the logs directory, unknown services and nodes, and non-admins', async () => {
    for (const id of ['../db', '../security/master.key', '/etc/passwd', 'depot-service.log/..']) {
      const response = await depot.request(
        `/ui/api/v1/system/logs/data/artifactory?id=${encodeURIComponent(id)}`,
      );
      expect(response.status, id).toBe(404);
      expect((await response.json()).errors[0].message).toBe(`Log file '${id}' not found`);
    }
    const service = await depot.request('/ui/api/v1/system/logs/config/xray');
    expect(service.status).toBe(404);
    const node = await depot.request('/ui/api/v1/system/logs/config/artifactory?nodeId=elsewhere');
    expect(node.status).toBe(404);
    expect((await node.json()).errors[0].message).toBe("Node 'elsewhere' not found");
    const bob = await depot.request('/ui/api/v1/system/logs/data/artifactory?id=depot-audit.log', {
      headers: { authorization: basic(BOB.name, BOB.password) },
    });
    expect(bob.status).toBe(403);
    const anonymous = await fetch(`${depot.base}/ui/api/v1/system/logs/config/artifactory`);
    expect(anonymous.status).toBe(401);
  });
});
