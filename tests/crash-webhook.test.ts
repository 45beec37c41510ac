import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnDepot, waitForPing } from './helpers/server-process.ts';
import { startReceiver, until, type Receiver } from './helpers/webhook-receiver.ts';

const home = mkdtempSync(join(tmpdir(), 'depot-crash-hook-'));
const auth = `Basic ${Buffer.from('admin:crash-admin-1').toString('base64')}`;
let server: ChildProcess | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  // Gone before its home is removed, even when the test ended while it was starting.
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
  }
  await receiver?.close();
  rmSync(home, { recursive: true, force: true });
});

async function startServer(port: number) {
  const child = spawnDepot(home, port, {
    DEPOT_ADMIN_PASSWORD: 'crash-admin-1',
    DEPOT_WEBHOOK_POLL_MS: '100',
    DEPOT_WEBHOOK_RETRY_BASE_MS: '100',
    DEPOT_WEBHOOK_RETRY_MAX_MS: '200',
  });
  await waitForPing(`http://127.0.0.1:${port}`, child);
  return child;
}

async function call(base: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return response;
}

type History = { deliveries: { id: string; state: string; attempts: number }[] };

describe('Depot killed between a deploy and its delivery', () => {
  // Two starts of the real entry point: slower than the default limit on a busy machine.
  it('delivers the event exactly once after it starts again', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // The receiver's port, with nobody listening yet: every attempt before the crash fails.
    const receiverPort = await freePort();
    server = await startServer(port);
    await call(base, 'PUT', '/ui/api/v1/ui/securityconfig', { remoteAllowList: ['127.0.0.1'] });
    await call(base, 'PUT', '/artifactory/api/repositories/crash-local', {
      rclass: 'local',
      packageType: 'generic',
    });
    await call(base, 'POST', '/event/api/v1/subscriptions', {
      key: 'crash-hook',
      enabled: true,
      event_filter: {
        domain: 'artifact',
        event_types: ['deployed'],
        criteria: { anyLocal: true, anyRemote: false, repoKeys: [] },
      },
      handlers: [{ handler_type: 'webhook', url: `http://127.0.0.1:${receiverPort}/hook` }],
    });

    const deployed = await fetch(`${base}/artifactory/crash-local/org/app.txt`, {
      method: 'PUT',
      headers: { authorization: auth },
      body: 'crash content',
    });
    expect(deployed.status).toBe(201);
    server.kill('SIGKILL');
    await new Promise((resolve) => server!.once('exit', resolve));

    receiver = await startReceiver('127.0.0.1', receiverPort);
    server = await startServer(port);
    const history = async () =>
      (await (
        await call(base, 'GET', '/ui/api/v1/ui/webhooks/crash-hook/deliveries')
      ).json()) as History;
    await until(
      async () => (await history()).deliveries[0]?.state === 'delivered',
      'the delivery after the restart',
      30000,
    );
    const { deliveries } = await history();
    expect(deliveries).toHaveLength(1);
    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    expect(received!.headers['x-depot-delivery']).toBe(deliveries[0]!.id);
    expect(received!.json).toMatchObject({
      domain: 'artifact',
      event_type: 'deployed',
      data: { repo_key: 'crash-local', path: 'org/app.txt', size: 13 },
    });
  });
});
