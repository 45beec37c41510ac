import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_PURGE_JOB } from '../server/modules/maintenance/maintenance.ts';
import {
  adminAuth,
  createRepository,
  deployFile,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';
import { startReceiver, until, type Receiver } from './helpers/webhook-receiver.ts';

let depot: TestDepot;
let receiver: Receiver;

const DAY_MS = 86_400_000;

beforeAll(async () => {
  depot = await startTestDepot({
    DEPOT_WEBHOOK_POLL_MS: '50',
    // A failed delivery waits a minute: it stays pending while the purge runs.
    DEPOT_WEBHOOK_RETRY_BASE_MS: '60000',
    DEPOT_WEBHOOK_RETENTION_DAYS: '7',
  });
  receiver = await startReceiver();
  receiver.answerWith(({ path }) => ({ status: path.endsWith('/down') ? 503 : 200 }));
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.1'] });
  await createRepository(depot, 'kept-local', 'local');
  await createRepository(depot, 'beta-local', 'local');
  await createRepository(depot, 'mirror-remote', 'remote', { url: 'http://127.0.0.1:9/' });
  await depot.services.users.create({
    name: 'dev',
    email: 'dev@example.com',
    password: 'dev-pw-1',
  });
});

afterAll(async () => {
  await receiver?.close();
  await depot?.close();
});

const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  depot.app.inject({ method, url, headers: adminAuth(), payload: payload as never });

async function subscribe(key: string) {
  const response = await api('POST', '/event/api/v1/subscriptions', {
    key,
    enabled: true,
    event_filter: {
      domain: 'artifact',
      event_types: ['deployed'],
      criteria: { anyLocal: false, anyRemote: false, repoKeys: ['kept-local'] },
    },
    handlers: [{ handler_type: 'webhook', url: `${receiver.url}/${key}` }],
  });
  expect(response.statusCode, response.body).toBe(201);
}

type History = { deliveries: { state: string; tries: unknown[] }[] };
const historyOf = async (key: string) =>
  (await api('GET', `/ui/api/v1/ui/webhooks/${key}/deliveries`)).json() as History;

/** Moves every webhook row's times `days` into the past, as if they were that old. */
async function age(days: number) {
  const { db } = depot.services;
  const past = new Date(Date.now() - days * DAY_MS);
  await sql`update event_outbox set created_at = ${past}`.execute(db);
  await sql`update webhook_attempts set attempted_at = ${past}`.execute(db);
  await sql`update webhook_deliveries set created_at = ${past},
    finished_at = case when state = 'pending' then null else ${past}::timestamptz end`.execute(db);
}

const count = async (table: 'event_outbox' | 'webhook_deliveries' | 'webhook_attempts') =>
  Number(
    (
      await depot.services.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the webhook history retention', () => {
  it('prunes what was delivered before the retention, and never what is still to send', async () => {
    await subscribe('up');
    await subscribe('down');
    await deployFile(depot, 'kept-local', 'old.txt');
    await until(async () => (await historyOf('up')).deliveries[0]?.state === 'delivered', 'up');
    await until(async () => (await historyOf('down')).deliveries[0]?.tries.length === 1, 'down');

    // Within the retention: nothing goes.
    await age(6);
    const kept = await depot.maintenance.scheduler.run(WEBHOOK_PURGE_JOB);
    expect(kept).toMatchObject({ ran: true, result: { deliveries: 0, attempts: 0, events: 0 } });

    await age(8);
    const purged = await depot.maintenance.scheduler.run(WEBHOOK_PURGE_JOB);
    // The delivered one's attempt goes with it; the failing one's old attempt on its own.
    expect(purged).toMatchObject({ ran: true, result: { deliveries: 1, attempts: 1, events: 1 } });
    expect((await historyOf('up')).deliveries).toEqual([]);
    // The delivery still failing stays queued, only its old attempt is gone.
    expect((await historyOf('down')).deliveries).toMatchObject([{ state: 'pending', tries: [] }]);
    expect(await count('event_outbox')).toBe(0);
    expect(await count('webhook_deliveries')).toBe(1);

    // What came after the cutoff is kept.
    await deployFile(depot, 'kept-local', 'new.txt');
    await until(async () => (await historyOf('up')).deliveries.length === 1, 'the new delivery');
    await until(async () => (await historyOf('up')).deliveries[0]?.state === 'delivered', 'sent');
    const recent = await depot.maintenance.scheduler.run(WEBHOOK_PURGE_JOB);
    expect(recent).toMatchObject({ result: { deliveries: 0, events: 0 } });
    expect((await historyOf('up')).deliveries).toHaveLength(1);
  });
});

describe("the webhook form's repository pickers", () => {
  it('list the local and the remote repositories apart, to admins', async () => {
    const local = await api('GET', '/ui/api/v1/ui/admin/repositories/local/info');
    expect(local.statusCode).toBe(200);
    expect(local.json()).toEqual([
      { repoKey: 'beta-local', repoType: 'local', packageType: 'generic' },
      { repoKey: 'kept-local', repoType: 'local', packageType: 'generic' },
    ]);
    const remote = await api('GET', '/ui/api/v1/ui/admin/repositories/remote/info');
    expect(remote.json()).toEqual([
      { repoKey: 'mirror-remote', repoType: 'remote', packageType: 'generic' },
    ]);
  });

  it('refuse a user who is not an admin', async () => {
    const response = await depot.app.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/admin/repositories/local/info',
      headers: { authorization: `Basic ${Buffer.from('dev:dev-pw-1').toString('base64')}` },
    });
    expect(response.statusCode).toBe(403);
  });
});
