import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * On PostgreSQL the outbox's insert sends a notification that PostgreSQL delivers at commit
 * (migration 0058), and every node's dispatcher wakes on it: a node that did not write the
 * event delivers it at once, not at its next poll. Here the polls are 30 s apart and the
 * node that writes does not deliver, so only the notification can make a delivery this fast.
 */
const POLL_MS = 30_000;
const SETTINGS = {
  DEPOT_WEBHOOK_POLL_MS: String(POLL_MS),
  DEPOT_MASTER_KEY: 'cd'.repeat(32),
};
/** Well under the poll: measured 60-255 ms from the deploy's answer at load 12-17. */
const PROMPT_MS = 500;

describe.runIf(process.env.DEPOT_TEST_DATABASE_URL)(
  'webhooks on a cluster, woken at commit',
  () => {
    let writer: TestDepot;
    let deliverer: Awaited<ReturnType<typeof startSecondNode>> | undefined;
    let receiver: Receiver;

    beforeAll(async () => {
      writer = await startTestDepot(SETTINGS);
      receiver = await startReceiver();
      await writer.services.securityConfig.update({ remoteAllowList: ['127.0.0.1'] });
      await createRepository(writer, 'wake-local', 'local');
      deliverer = await startSecondNode(writer, SETTINGS);
      // Only the other node delivers: the writer's own wake cannot help.
      await writer.dispatcher.stop();
    });

    afterAll(async () => {
      await deliverer?.close();
      await receiver?.close();
      await writer?.close();
    });

    it('delivers an event written on another node well before the next poll', async () => {
      await subscribeToDeploys(writer, { key: 'wake', repoKey: 'wake-local', url: receiver.url });
      const took: number[] = [];
      for (let i = 0; i < 5; i++) {
        await deployFile(writer, 'wake-local', `w/${i}.txt`);
        const committed = performance.now();
        await until(async () => receiver.requests.length > i, `delivery ${i}`, POLL_MS / 2);
        took.push(performance.now() - committed);
      }
      expect(receiver.requests.map((r) => (r.json.data as { path: string }).path)).toEqual(
        Array.from({ length: 5 }, (_, i) => `w/${i}.txt`),
      );
      for (const ms of took)
        expect(ms, `deploy answered to delivered: ${took.join(', ')} ms`).toBeLessThan(PROMPT_MS);
    });
  },
);
