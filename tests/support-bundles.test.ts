import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_LOG_FILE } from '../server/logger.ts';
import { AUDIT_LOG_FILE } from '../server/logs/audit-log.ts';
import { unzip } from './helpers/archives.ts';
import {
  adminAuth,
  basic,
  startTestDepot,
  TEST_ADMIN_PASSWORD,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * Support bundles (docs/support-bundles.md) of a Depot whose remote repository, mail server,
 * webhook, access token and environment hold secrets: the zip has every promised part and
 * none of the secrets.
 */
const MASTER_KEY = 'ab'.repeat(32);
const SECRETS = {
  remote: 'remote-secret-Q7x',
  mail: 'smtp-secret-Z3k',
  webhook: 'hook-secret-W9m',
  environment: 'env-secret-P2v',
};
let depot: TestDepot;
let token: string;

const asAdmin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  depot.app.inject({ method, url, headers: adminAuth(), payload });

beforeAll(async () => {
  // A DEPOT_* secret in the process environment, where Node's diagnostic report reads it.
  process.env.DEPOT_SUPPORT_TEST_SECRET = SECRETS.environment;
  depot = await startTestDepot({ DEPOT_MASTER_KEY: MASTER_KEY });
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.test',
    password: 'dev-pass-1',
  } as never);
  const remote = await asAdmin('PUT', '/artifactory/api/repositories/upstream', {
    rclass: 'remote',
    packageType: 'generic',
    url: 'https://mirror.example.test/files/',
    username: 'mirror',
    password: SECRETS.remote,
  });
  expect(remote.statusCode, remote.body).toBeLessThan(300);
  const mail = await asAdmin('PUT', '/ui/api/v1/ui/mail', {
    enabled: true,
    host: 'smtp.example.test',
    port: 25,
    username: 'mailer',
    password: SECRETS.mail,
    from: 'depot@example.test',
  });
  expect(mail.statusCode, mail.body).toBe(200);
  const hook = await asAdmin('POST', '/event/api/v1/subscriptions', {
    key: 'bundle-hook',
    enabled: true,
    event_filter: { domain: 'artifact', event_types: ['deployed'], criteria: { anyLocal: true } },
    handlers: [
      { handler_type: 'webhook', url: 'https://hooks.example.test/in', secret: SECRETS.webhook },
    ],
  });
  expect(hook.statusCode, hook.body).toBe(201);
  const issued = await depot.app.inject({
    method: 'POST',
    url: '/artifactory/api/security/token',
    headers: { ...adminAuth(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'username=admin',
  });
  expect(issued.statusCode, issued.body).toBe(200);
  token = issued.json().access_token;
});
afterAll(async () => {
  delete process.env.DEPOT_SUPPORT_TEST_SECRET;
  await depot?.close();
});

async function finished(id: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = (await asAdmin('GET', '/ui/api/v1/ui/userSupport/listBundles')).json();
    const bundle = list.find((item: { id: string }) => item.id === id);
    if (bundle.status !== 'in progress') return bundle;
    if (Date.now() > deadline) throw new Error(`bundle ${id} still in progress`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('support bundles', () => {
  it('are made in the background, listed, downloaded as a zip of every part, and deleted', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const started = await asAdmin('POST', '/ui/api/v1/ui/userSupport/generateBundle', {
      name: 'slow downloads',
      description: 'for the vendor',
      parameters: { logs: { include: true, start_date: today, end_date: today } },
    });
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json();
    expect(await finished(id)).toMatchObject({
      name: 'slow downloads',
      description: 'for the vendor',
      status: 'success',
      progress: 100,
    });

    const download = await asAdmin('GET', `/ui/api/v1/ui/userSupport/downloadBundle/${id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    const entries = await unzip(download.rawPayload);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    expect(manifest.entries.sort()).toEqual([...entries.keys()].sort());
    for (const part of [
      'system/info.json',
      'configuration/depot-config.json',
      'configuration/settings.json',
      'configuration/repositories.json',
      `logs/${depot.config.nodeId}/${SERVICE_LOG_FILE}`,
      `logs/${depot.config.nodeId}/${AUDIT_LOG_FILE}`,
      `diagnostics/${depot.config.nodeId}/report.json`,
      `diagnostics/${depot.config.nodeId}/node.json`,
      'statistics/database.json',
      'statistics/filestore.json',
    ])
      expect(entries.has(part), part).toBe(true);
    const info = JSON.parse(entries.get('system/info.json')!.toString());
    expect(info.nodejs.node).toBe(process.versions.node);
    expect(info.database.version).toMatch(/PostgreSQL/);
    expect(JSON.parse(entries.get('statistics/filestore.json')!.toString())).toHaveProperty(
      'blobs',
    );
    const repositories = entries.get('configuration/repositories.json')!.toString();
    expect(repositories).toContain('https://mirror.example.test/files/');

    const texts = [...entries].map(([name, entry]) => [name, entry.toString('latin1')] as const);
    for (const secret of [
      ...Object.values(SECRETS),
      MASTER_KEY,
      TEST_ADMIN_PASSWORD,
      token,
      token.split('.')[2]!,
    ]) {
      const holding = texts.filter(([, text]) => text.includes(secret)).map(([name]) => name);
      expect(holding, `entries holding ${secret.slice(0, 12)}`).toEqual([]);
    }

    expect(manifest.nodes).toEqual({ [depot.config.nodeId]: 'included' });

    // Kept as an artifact of the supportBundles repository, counted in storage like any.
    const item = await asAdmin('GET', `/artifactory/api/storage/supportBundles/${id}/${id}.zip`);
    expect(item.statusCode, item.body).toBe(200);
    expect(Number(item.json().size)).toBe(download.rawPayload.length);
    const summary = (await asAdmin('GET', '/artifactory/api/storageinfo')).json();
    const counted = summary.repositoriesSummaryList.find(
      (repo: { repoKey: string }) => repo.repoKey === 'supportBundles',
    );
    expect(counted).toMatchObject({ filesCount: 1 });

    // Every node's logs are in it: only a permission naming the repository reaches it.
    const asDev = await depot.app.inject({
      url: `/artifactory/supportBundles/${id}/${id}.zip`,
      headers: { authorization: basic('dev', 'dev-pass-1') },
    });
    expect([403, 404]).toContain(asDev.statusCode);

    const deleted = await asAdmin('DELETE', `/ui/api/v1/ui/userSupport/deleteBundle/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect(
      (await asAdmin('GET', `/artifactory/api/storage/supportBundles/${id}/${id}.zip`)).statusCode,
    ).toBe(404);
    expect(
      (await asAdmin('GET', `/ui/api/v1/ui/userSupport/downloadBundle/${id}`)).statusCode,
    ).toBe(404);
  });

  it("answers Artifactory's REST call, refuses a bad date naming it, and only to admins", async () => {
    const refused = await asAdmin('POST', '/artifactory/api/system/support/bundle', {
      parameters: { logs: { start_date: 'yesterday' } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({
      field: 'startDate',
      message: 'Enter a date as YYYY-MM-DD',
    });
    const asDev = await depot.app.inject({
      method: 'POST',
      url: '/artifactory/api/system/support/bundle',
      headers: { authorization: basic('dev', 'dev-pass-1') },
      payload: {},
    });
    expect(asDev.statusCode).toBe(403);
    const started = await asAdmin('POST', '/artifactory/api/system/support/bundle', {});
    expect(started.statusCode).toBe(202);
    expect(await finished(started.json().id)).toMatchObject({ status: 'success' });
  });

  it('leaves the database alone while no node asks for a part', async () => {
    // The exchange wakes on writes to the parts' table, and claiming a part is one: it must
    // not claim on every wake, or an idle node writes to its database without end.
    let writes = 0;
    depot.services.tableChanges.onChange(['support_bundle_parts'], () => {
      writes += 1;
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(writes).toBe(0);
  });
});
