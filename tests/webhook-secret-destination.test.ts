import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES } from '../server/modules/webhooks/messages.ts';
import { adminAuth, createRepository, startTestDepot, type TestDepot } from './helpers/test-app.ts';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.ts';

/**
 * A webhook's secret is write-only: nobody reads it back. Whoever may edit the subscription
 * must not get it either by pointing the URL at themselves and keeping the stored secret, on
 * a save or on the Test button: a new URL needs the secret typed again.
 */
const SECRET = 'stored-secret-Hx4';
let depot: TestDepot;
let receiver: Receiver;
const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  depot.app.inject({ method, url, headers: adminAuth(), payload });

beforeAll(async () => {
  depot = await startTestDepot();
  receiver = await startReceiver();
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.1'] });
  await createRepository(depot, 'hooked', 'local');
  const created = await api('POST', '/ui/api/v1/ui/webhooks', {
    key: 'guarded',
    url: `${receiver.url}/owner`,
    secret: SECRET,
    domain: 'artifact',
    eventTypes: ['deployed'],
    repoKeys: ['hooked'],
  });
  expect(created.statusCode, created.body).toBe(201);
});
afterAll(async () => {
  await receiver?.close();
  await depot?.close();
});

const attackerUrl = () => `${receiver.url}/attacker`;
const storedUrl = async () =>
  (await api('GET', '/ui/api/v1/ui/webhooks/guarded')).json().url as string;
const secretsSeenBy = (path: string) =>
  receiver.requests
    .filter((request) => request.path === `/hook/${path}`)
    .map((request) => request.headers['x-jfrog-event-auth']);

describe("a webhook's stored secret", () => {
  it('is not kept for a new URL: the console and the Event API refuse the save', async () => {
    const console = await api('PUT', '/ui/api/v1/ui/webhooks/guarded', { url: attackerUrl() });
    expect(console.statusCode, console.body).toBe(400);
    expect(console.json().errors[0]).toMatchObject({
      message: WEBHOOK_MESSAGES.secretForNewUrl,
      field: 'secret',
    });
    const eventApi = await api('PUT', '/event/api/v1/subscriptions/guarded', {
      enabled: true,
      event_filter: {
        domain: 'artifact',
        event_types: ['deployed'],
        criteria: { repoKeys: ['hooked'] },
      },
      handlers: [{ handler_type: 'webhook', url: attackerUrl() }],
    });
    expect(eventApi.statusCode, eventApi.body).toBe(400);
    expect(eventApi.json().errors[0].message).toBe(WEBHOOK_MESSAGES.secretForNewUrl);
    expect(await storedUrl()).toBe(`${receiver.url}/owner`);
  });

  it('is not sent to a new URL by the Test button', async () => {
    const tested = await api('POST', '/ui/api/v1/ui/webhooks/test', {
      key: 'guarded',
      url: attackerUrl(),
      domain: 'artifact',
      eventTypes: ['deployed'],
      repoKeys: ['hooked'],
    });
    expect(tested.statusCode).toBe(400);
    expect(tested.json().errors[0].message).toBe(WEBHOOK_MESSAGES.secretForNewUrl);
    expect(secretsSeenBy('attacker')).toEqual([]);
    // To its own URL the test still carries it.
    const own = await api('POST', '/ui/api/v1/ui/webhooks/test', {
      key: 'guarded',
      url: `${receiver.url}/owner`,
      domain: 'artifact',
      eventTypes: ['deployed'],
      repoKeys: ['hooked'],
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(secretsSeenBy('owner')).toEqual([SECRET]);
  });

  it('is kept by a save that leaves the URL alone, and replaced with the URL when typed again', async () => {
    const described = await api('PUT', '/ui/api/v1/ui/webhooks/guarded', { description: 'x' });
    expect(described.statusCode, described.body).toBe(200);
    expect(described.json()).toMatchObject({ secretSet: true });
    const moved = await api('PUT', '/ui/api/v1/ui/webhooks/guarded', {
      url: `${receiver.url}/moved`,
      secret: 'typed-again-Q2',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // A URL without a secret at all needs nothing typed.
    const cleared = await api('PUT', '/ui/api/v1/ui/webhooks/guarded', {
      url: `${receiver.url}/open`,
      secretSet: false,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ url: `${receiver.url}/open`, secretSet: false });
  });
});
