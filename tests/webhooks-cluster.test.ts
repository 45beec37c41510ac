import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDispatcher, type Dispatcher } from '../server/modules/webhooks/dispatcher.ts';
import {
  createRepository,
  deployFile,
  startSecondNode,
  startTestDepot,
  type TestDepot,
} from './helpers/test-app.ts';
import { startReceiver, until, type Receiver } from './helpers/webhook-receiver.ts';
import { subscribeToDeploys } from './helpers/webhook-subscriptions.ts';

/**
 * Two nodes deliver from one outbox: each event reaches the receiver once, not once per
 * node. On PostgreSQL (DEPOT_TEST_DATABASE_URL) the second node is a second Depot on the
 * same database; on the embedded database, which one process owns, it is a second
 * dispatcher on the first node's database.
 */
const MASTER_KEY = 'ab'.repeat(32);
const FAST = {
  DEPOT_WEBHOOK_POLL_MS: '20',
  DEPOT_WEBHOOK_RETRY_BASE_MS: '20',
  DEPOT_WEBHOOK_RETRY_MAX_MS: '100',
  DEPOT_MASTER_KEY: MASTER_KEY,
};

let first: TestDepot;
let second: Awaited<ReturnType<typeof startSecondNode>> | undefined;
let secondDispatcher: Dispatcher | undefined;
let receiver: Receiver;

beforeAll(async () => {
  first = await startTestDepot(FAST);
  receiver = await startReceiver();
  await first.services.securityConfig.update({ remoteAllowList: ['127.0.0.1'] });
  await createRepository(first, 'cluster-local', 'local');
  if (first.config.databaseUrl) {
    second = await startSecondNode(first, FAST);
  } else {
    secondDispatcher = createDispatcher({
      db: first.services.db,
      subscriptions: () => first.services.webhooks.subscriptions(),
      allowList: async () => ['127.0.0.1'],
      proxyOf: (key) => first.services.proxies.resolve(key, 'webhooks'),
      settings: first.config.webhooks,
      origin: async () => '',
      logger: first.app.log as never,
    });
    secondDispatcher.start();
  }
});

afterAll(async () => {
  await secondDispatcher?.stop();
  await second?.close();
  await receiver?.close();
  await first?.close();
});

it('delivers each event once, in order, with two nodes delivering', async () => {
  await subscribeToDeploys(first, {
    key: 'cluster',
    repoKey: 'cluster-local',
    url: receiver.url,
    secret: 'cluster-secret',
  });
  const paths = Array.from({ length: 30 }, (_, i) => `c/${String(i).padStart(2, '0')}.txt`);
  for (const path of paths) await deployFile(first, 'cluster-local', path);
  const pending = () =>
    first.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('state', '!=', 'delivered')
      .execute();
  await until(
    async () => receiver.requests.length >= 30 && (await pending()).length === 0,
    'all delivered',
    30000,
  );
  // Both nodes stop, with whatever they had in flight: nothing is left to arrive.
  await Promise.all([first.dispatcher.stop(), secondDispatcher?.stop(), second?.dispatcher.stop()]);
  const delivered = await first.db.selectFrom('webhook_deliveries').select('id').execute();
  expect(delivered).toHaveLength(30);
  expect(receiver.requests.map((r) => (r.json.data as { path: string }).path)).toEqual(paths);
  expect(receiver.requests.every((r) => r.headers['x-jfrog-event-auth'] === 'cluster-secret')).toBe(
    true,
  );
});
