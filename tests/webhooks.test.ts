import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const SECRET = 'hook-secret-1';

beforeAll(async () => {
  depot = await startTestDepot({
    DEPOT_WEBHOOK_POLL_MS: '50',
    DEPOT_WEBHOOK_RETRY_BASE_MS: '50',
    DEPOT_WEBHOOK_RETRY_MAX_MS: '200',
    DEPOT_WEBHOOK_TIMEOUT_MS: '2000',
    DEPOT_WEBHOOK_PAUSE_AFTER_SECONDS: '3',
  });
  receiver = await startReceiver();
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.1'] });
  for (const key of ['hooks-a', 'hooks-b']) await createRepository(depot, key, 'local');
});

afterAll(async () => {
  await receiver?.close();
  await depot?.close();
});

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  depot.app.inject({ method, url, headers: adminAuth(), payload: payload as never });

/** A subscription in the Event API's shape, to `receiver` unless told otherwise. */
function subscription(key: string, overrides: Record<string, unknown> = {}) {
  const {
    domain = 'artifact',
    types = ['deployed'],
    criteria = {},
    handler = {},
  } = overrides as {
    domain?: string;
    types?: string[];
    criteria?: Record<string, unknown>;
    handler?: Record<string, unknown>;
  };
  return {
    key,
    description: `${key} for tests`,
    enabled: true,
    event_filter: {
      domain,
      event_types: types,
      criteria: { anyLocal: false, anyRemote: false, repoKeys: ['hooks-a'], ...criteria },
    },
    handlers: [
      { handler_type: 'webhook', url: `${receiver.url}/${key}`, secret: SECRET, ...handler },
    ],
  };
}

async function subscribe(key: string, overrides: Record<string, unknown> = {}) {
  const response = await api('POST', '/event/api/v1/subscriptions', subscription(key, overrides));
  expect(response.statusCode, response.body).toBe(201);
}

const sentTo = (key: string) => receiver.requests.filter((r) => r.path === `/hook/${key}`);

describe('events nobody subscribed to', () => {
  const outboxPaths = async (prefix: string) =>
    (
      await depot.db
        .selectFrom('event_outbox')
        .select('path')
        .where('path', 'like', `${prefix}/%`)
        .orderBy('id')
        .execute()
    ).map((event) => event.path);

  // On PostgreSQL another node may subscribe at any moment, so every event is written there.
  const onPostgres = Boolean(process.env.DEPOT_TEST_DATABASE_URL);

  it(`are ${onPostgres ? 'written all the same' : 'not written'}, and are from the moment a subscription selects them`, async () => {
    // The subscriptions as the dispatcher reads them: none yet.
    expect(await depot.services.webhooks.subscriptions()).toEqual([]);
    await deployFile(depot, 'hooks-a', 'unheard/1.txt');
    expect(await outboxPaths('unheard')).toEqual(onPostgres ? ['unheard/1.txt'] : []);
    // Fanned out to no one before the subscription exists (it matches events fanned out after).
    await until(async () => {
      const waiting = await depot.db
        .selectFrom('event_outbox')
        .select('id')
        .where('path', 'like', 'unheard/%')
        .where('fanned_out', '=', false)
        .execute();
      return waiting.length === 0;
    }, 'the fan-out of unheard/1.txt');
    await subscribe('heard');
    await deployFile(depot, 'hooks-a', 'unheard/2.txt');
    expect(await outboxPaths('unheard')).toEqual(
      onPostgres ? ['unheard/1.txt', 'unheard/2.txt'] : ['unheard/2.txt'],
    );
    await until(() => sentTo('heard').length === 1, 'the delivery of unheard/2.txt');
    expect((sentTo('heard')[0]!.json.data as { path: string }).path).toBe('unheard/2.txt');
  });
});

describe('the Event API', () => {
  it('lists only the domains Depot serves', async () => {
    const response = await api('GET', '/event/api/v1/domains');
    expect(response.statusCode).toBe(200);
    const domains = response.json() as { key: string; event_types: { key: string }[] }[];
    expect(domains.map((d) => d.key)).toEqual(['artifact', 'artifact_property', 'build', 'docker']);
    expect(domains[0]!.event_types.map((t) => t.key)).toEqual([
      'deployed',
      'deleted',
      'moved',
      'copied',
    ]);
    const anonymous = await depot.app.inject({ method: 'GET', url: '/event/api/v1/domains' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('keeps a subscription in its shape, the secret sealed and never answered', async () => {
    await subscribe('shape-check', {
      handler: { custom_http_headers: [{ name: 'X-Team', value: 'platform' }] },
    });
    const read = await api('GET', '/event/api/v1/subscriptions/shape-check');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      key: 'shape-check',
      description: 'shape-check for tests',
      enabled: true,
      event_filter: {
        domain: 'artifact',
        event_types: ['deployed'],
        criteria: {
          anyLocal: false,
          anyRemote: false,
          repoKeys: ['hooks-a'],
          includePatterns: [],
          excludePatterns: [],
        },
      },
      handlers: [
        {
          handler_type: 'webhook',
          url: `${receiver.url}/shape-check`,
          use_secret_for_signing: false,
          proxy: '',
          custom_http_headers: [{ name: 'X-Team', value: 'platform' }],
        },
      ],
    });
    const stored = await depot.services.entities.collection('webhook').stored('shape-check');
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    const list = await api('GET', '/event/api/v1/subscriptions');
    expect((list.json() as { key: string }[]).map((s) => s.key)).toContain('shape-check');
    const put = await api('PUT', '/event/api/v1/subscriptions/shape-check', {
      ...subscription('shape-check'),
      key: undefined,
      enabled: false,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ enabled: false });
    expect((await api('DELETE', '/event/api/v1/subscriptions/shape-check')).statusCode).toBe(204);
    expect((await api('GET', '/event/api/v1/subscriptions/shape-check')).statusCode).toBe(404);
  });

  it.each([
    [
      'a name with special characters',
      { key: 'bad name!' },
      'Name cannot contain special characters',
    ],
    ['a name of one character', { key: 'a' }, 'Name cannot contain special characters'],
    [
      'a URL that is no URL',
      { handlers: [{ handler_type: 'webhook', url: 'not a url' }] },
      'Enter a valid URL',
    ],
    [
      'a header without a value',
      {
        handlers: [
          {
            handler_type: 'webhook',
            url: 'http://127.0.0.1:1/x',
            custom_http_headers: [{ name: 'X-A', value: '' }],
          },
        ],
      },
      'Header must contain name and value',
    ],
    [
      'a pattern with a leading slash',
      {
        event_filter: {
          domain: 'artifact',
          event_types: ['deployed'],
          criteria: { anyLocal: true, includePatterns: ['/org/**'] },
        },
      },
      'A pattern cannot start with a slash',
    ],
    [
      'a domain Depot does not serve',
      { event_filter: { domain: 'artifact_lifecycle', event_types: ['archived'], criteria: {} } },
      'Select an event domain Depot serves',
    ],
    [
      'no repository chosen',
      { event_filter: { domain: 'artifact', event_types: ['deployed'], criteria: {} } },
      'Select at least one repository, or any local or any remote repository',
    ],
  ])('refuses %s with the spec message', async (_what, change, message) => {
    const body = { ...subscription('valid-one'), ...change };
    const response = await api('POST', '/event/api/v1/subscriptions', body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors[0].message).toBe(message);
    expect((await api('GET', '/event/api/v1/subscriptions/valid-one')).statusCode).toBe(404);
  });

  it('refuses a second subscription of the same name', async () => {
    await subscribe('twice');
    const again = await api('POST', '/event/api/v1/subscriptions', subscription('twice'));
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].message).toBe('This name already exist');
  });
});

/** The secret header and the signature a receiver checks. */
function expectSigned(request: Receiver['requests'][number]) {
  expect(request.headers['x-jfrog-event-auth']).toBe(SECRET);
  const signature = createHmac('sha256', SECRET).update(request.body).digest('hex');
  expect(request.headers['x-depot-signature-256']).toBe(`sha256=${signature}`);
  expect(request.headers['x-depot-delivery']).toMatch(/^[0-9a-f-]{36}$/);
}

describe('delivery', () => {
  it('sends each artifact event in its documented shape, signed', async () => {
    await subscribe('artifacts', {
      types: ['deployed', 'deleted', 'moved', 'copied'],
      // A hop-by-hop header is the exchange's own: dropped, the delivery still goes out.
      handler: {
        custom_http_headers: [
          { name: 'X-Team', value: 'platform' },
          { name: 'Expect', value: '100-continue' },
        ],
      },
    });
    await deployFile(depot, 'hooks-a', 'events/one.txt', 'one');
    const copied = await api(
      'POST',
      '/artifactory/api/copy/hooks-a/events/one.txt?to=/hooks-a/events/two.txt',
    );
    expect(copied.statusCode, copied.body).toBe(200);
    const moved = await api(
      'POST',
      '/artifactory/api/move/hooks-a/events/two.txt?to=/hooks-b/three.txt',
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await api('DELETE', '/artifactory/hooks-a/events/one.txt')).statusCode).toBe(204);
    await until(() => sentTo('artifacts').length >= 4, 'four artifact events');
    const sha256 = createHash('sha256').update('one').digest('hex');
    const file = { name: 'one.txt', sha256, size: 3 };
    expect(sentTo('artifacts').map((r) => r.json)).toEqual([
      {
        domain: 'artifact',
        event_type: 'deployed',
        data: { repo_key: 'hooks-a', path: 'events/one.txt', ...file },
        subscription_key: 'artifacts',
        jpd_origin: '',
        source: 'jfrog/admin',
      },
      {
        domain: 'artifact',
        event_type: 'copied',
        data: {
          repo_key: 'hooks-a',
          path: 'events/one.txt',
          ...file,
          source_repo_path: 'hooks-a/events/one.txt',
          target_repo_path: 'hooks-a/events/two.txt',
        },
        subscription_key: 'artifacts',
        jpd_origin: '',
        source: 'jfrog/admin',
      },
      {
        domain: 'artifact',
        event_type: 'moved',
        data: {
          repo_key: 'hooks-a',
          path: 'events/two.txt',
          name: 'two.txt',
          sha256,
          size: 3,
          source_repo_path: 'hooks-a/events/two.txt',
          target_repo_path: 'hooks-b/three.txt',
        },
        subscription_key: 'artifacts',
        jpd_origin: '',
        source: 'jfrog/admin',
      },
      {
        domain: 'artifact',
        event_type: 'deleted',
        data: { repo_key: 'hooks-a', path: 'events/one.txt', ...file },
        subscription_key: 'artifacts',
        jpd_origin: '',
        source: 'jfrog/admin',
      },
    ]);
    for (const request of sentTo('artifacts')) {
      expectSigned(request);
      expect(request.headers['x-team']).toBe('platform');
      expect(request.headers.expect).toBeUndefined();
    }
    const ids = sentTo('artifacts').map((r) => r.headers['x-depot-delivery']);
    expect(new Set(ids).size).toBe(4);
  });

  it('sends property changes in their documented shape', async () => {
    await subscribe('properties', { domain: 'artifact_property', types: ['added', 'deleted'] });
    await deployFile(depot, 'hooks-a', 'props/p.txt', 'one');
    const set = await api(
      'PUT',
      '/artifactory/api/storage/hooks-a/props/p.txt?properties=color=red,blue',
    );
    expect(set.statusCode, set.body).toBe(204);
    const removed = await api(
      'DELETE',
      '/artifactory/api/storage/hooks-a/props/p.txt?properties=color',
    );
    expect(removed.statusCode, removed.body).toBe(204);
    await until(() => sentTo('properties').length >= 2, 'two property events');
    const file = {
      repo_key: 'hooks-a',
      path: 'props/p.txt',
      name: 'p.txt',
      sha256: createHash('sha256').update('one').digest('hex'),
      size: 3,
      property_key: 'color',
    };
    expect(sentTo('properties').map((r) => [r.json.event_type, r.json.data])).toEqual([
      ['added', { ...file, property_values: ['red', 'blue'] }],
      ['deleted', { ...file, property_values: ['blue', 'red'] }],
    ]);
    for (const request of sentTo('properties')) expectSigned(request);
  });

  it('sends only what the repositories and patterns select', async () => {
    await subscribe('filtered', {
      criteria: {
        repoKeys: ['hooks-b'],
        includePatterns: ['keep/**'],
        excludePatterns: ['keep/skip/**'],
      },
    });
    await subscribe('any-local', {
      criteria: { anyLocal: true, repoKeys: [], includePatterns: ['anylocal/**'] },
    });
    for (const [repo, path] of [
      ['hooks-a', 'keep/wrong-repo.txt'],
      ['hooks-b', 'keep/a.txt'],
      ['hooks-b', 'keep/skip/b.txt'],
      ['hooks-b', 'other/c.txt'],
      ['hooks-a', 'anylocal/1.txt'],
      ['hooks-b', 'anylocal/2.txt'],
      ['hooks-b', 'keep/z.txt'],
    ])
      await deployFile(depot, repo!, path!);
    await until(() => sentTo('filtered').length >= 2, 'the filtered events');
    await until(() => sentTo('any-local').length >= 2, 'the any-local events');
    const paths = (key: string) =>
      sentTo(key).map((r) => {
        const data = r.json.data as { repo_key: string; path: string };
        return `${data.repo_key}/${data.path}`;
      });
    expect(paths('filtered')).toEqual(['hooks-b/keep/a.txt', 'hooks-b/keep/z.txt']);
    expect(paths('any-local')).toEqual(['hooks-a/anylocal/1.txt', 'hooks-b/anylocal/2.txt']);
  });

  it('emits nothing for a deploy that failed', async () => {
    const refused = await depot.app.inject({
      method: 'PUT',
      url: '/artifactory/hooks-a/failed/bad.txt',
      headers: {
        ...adminAuth(),
        'X-Checksum-Sha256': createHash('sha256').update('other').digest('hex'),
      },
      payload: 'content',
    });
    expect(refused.statusCode).toBe(409);
    await deployFile(depot, 'hooks-a', 'failed/good.txt');
    const events = await depot.db
      .selectFrom('event_outbox')
      .select('path')
      .where('path', 'like', 'failed/%')
      .execute();
    expect(events.map((event) => event.path)).toEqual(['failed/good.txt']);
  });

  it('retries a receiver that is down, then delivers every event once, in order', async () => {
    let failuresLeft = 4;
    receiver.answerWith((request) => {
      if (request.path === '/hook/ordered' && failuresLeft > 0) {
        failuresLeft--;
        return { status: 503, body: 'down for maintenance' };
      }
      return { status: 200, body: 'ok' };
    });
    await subscribe('ordered', {
      criteria: { repoKeys: ['hooks-b'], includePatterns: ['seq/**'] },
    });
    for (let i = 1; i <= 5; i++) await deployFile(depot, 'hooks-b', `seq/f${i}.txt`);
    await until(() => sentTo('ordered').length >= 9, 'the retries and the five events');
    expect(sentTo('ordered').map((r) => (r.json.data as { path: string }).path)).toEqual([
      'seq/f1.txt',
      'seq/f1.txt',
      'seq/f1.txt',
      'seq/f1.txt',
      'seq/f1.txt',
      'seq/f2.txt',
      'seq/f3.txt',
      'seq/f4.txt',
      'seq/f5.txt',
    ]);
    const first = sentTo('ordered').slice(0, 5);
    expect(new Set(first.map((r) => r.headers['x-depot-delivery'])).size).toBe(1);
    // A run's outcomes are written together once it ends, a moment after the last request.
    const deliveryHistory = () => api('GET', '/ui/api/v1/ui/webhooks/ordered/deliveries');
    await until(
      async () =>
        (await deliveryHistory())
          .json()
          .deliveries.every((d: { state: string }) => d.state !== 'pending'),
      'every delivery recorded',
    );
    const history = await deliveryHistory();
    expect(history.statusCode).toBe(200);
    const { deliveries, paused } = history.json();
    expect(paused).toBeNull();
    expect(deliveries).toHaveLength(5);
    expect(deliveries.map((d: { state: string }) => d.state)).toEqual(Array(5).fill('delivered'));
    const oldest = deliveries.at(-1);
    expect(
      oldest.tries.map((t: { outcome: string; status: number }) => [t.outcome, t.status]),
    ).toEqual([
      ['retry', 503],
      ['retry', 503],
      ['retry', 503],
      ['retry', 503],
      ['delivered', 200],
    ]);
    expect(oldest.tries[0].response).toBe('down for maintenance');
    receiver.answerWith(() => ({ status: 200, body: 'ok' }));
  });

  it("keeps one subscription's deliveries flowing in order while another's receiver fails", async () => {
    receiver.answerWith((request) =>
      request.path === '/hook/flaky' ? { status: 503, body: 'down' } : { status: 200 },
    );
    for (const key of ['steady', 'flaky'])
      await subscribe(key, { criteria: { repoKeys: ['hooks-b'], includePatterns: ['both/**'] } });
    const paths = [1, 2, 3, 4, 5].map((i) => `both/f${i}.txt`);
    for (const path of paths) await deployFile(depot, 'hooks-b', path);
    const pathsSentTo = (key: string) =>
      sentTo(key).map((r) => (r.json.data as { path: string }).path);
    await until(() => sentTo('steady').length >= 5, "the steady subscription's five events");
    expect(pathsSentTo('steady')).toEqual(paths);
    // The failing one retries its oldest delivery and sends nothing after it meanwhile.
    expect(new Set(pathsSentTo('flaky'))).toEqual(new Set(['both/f1.txt']));
    receiver.answerWith(() => ({ status: 200, body: 'ok' }));
    // On a slow machine it may have failed long enough to be paused (3 s here).
    expect((await api('POST', '/ui/api/v1/ui/webhooks/flaky/resume')).statusCode).toBe(200);
    await until(() => new Set(pathsSentTo('flaky')).size >= 5, "the flaky subscription's events");
    expect([...new Set(pathsSentTo('flaky'))]).toEqual(paths);
    expect(pathsSentTo('flaky').slice(-4)).toEqual(paths.slice(1));
  });

  it('delivers while writes to the outbox keep coming, not only once they pause', async () => {
    await subscribe('amid-writes', {
      criteria: { repoKeys: ['hooks-b'], includePatterns: ['amid/**'] },
    });
    // What a steady stream of deploys does to the dispatcher: each outbox write wakes it,
    // more often than the 25 ms a wake waits for others before its round starts. The stream
    // begins while the dispatcher is idle, as a burst of deploys does.
    const stream = setInterval(() => depot.dispatcher.wake(), 5);
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await deployFile(depot, 'hooks-b', 'amid/first.txt');
      await until(() => sentTo('amid-writes').length === 1, 'the delivery amid the writes', 3000);
    } finally {
      clearInterval(stream);
    }
  });

  it('stops a run at the delivery to retry and sends the rest after it, in order', async () => {
    await subscribe('run', { criteria: { repoKeys: ['hooks-b'], includePatterns: ['run/**'] } });
    // Held back while the events queue, so that one claim takes them all as one run.
    await depot.dispatcher.stop();
    const paths = [1, 2, 3, 4, 5].map((i) => `run/f${i}.txt`);
    try {
      for (const path of paths) await deployFile(depot, 'hooks-b', path);
      let unavailable = 2;
      receiver.answerWith((request) => {
        if (request.path !== '/hook/run') return { status: 200 };
        const { path } = request.json.data as { path: string };
        if (path === 'run/f1.txt') return { status: 400, body: 'not this one' };
        if (path === 'run/f2.txt' && unavailable-- > 0) return { status: 503 };
        return { status: 200, body: 'ok' };
      });
    } finally {
      depot.dispatcher.start();
    }
    await until(() => sentTo('run').length >= 7, 'the run, its retries and the rest');
    // A 4xx fails its delivery for good and the run goes on; a 503 ends it until the retry.
    expect(sentTo('run').map((r) => (r.json.data as { path: string }).path)).toEqual([
      'run/f1.txt',
      'run/f2.txt',
      'run/f2.txt',
      'run/f2.txt',
      'run/f3.txt',
      'run/f4.txt',
      'run/f5.txt',
    ]);
    const history = async () =>
      (await api('GET', '/ui/api/v1/ui/webhooks/run/deliveries')).json().deliveries as {
        state: string;
        attempts: number;
        tries: { outcome: string; status: number }[];
      }[];
    await until(
      async () => (await history()).every((d) => d.state !== 'pending'),
      'every delivery recorded',
    );
    // Oldest first: deliveries claimed with the run but never sent count no attempt.
    const oldestFirst = (await history()).reverse();
    expect(oldestFirst.map((d) => [d.state, d.attempts])).toEqual([
      ['failed', 1],
      ['delivered', 3],
      ['delivered', 1],
      ['delivered', 1],
      ['delivered', 1],
    ]);
    expect(oldestFirst[1]!.tries.map((t) => [t.outcome, t.status])).toEqual([
      ['retry', 503],
      ['retry', 503],
      ['delivered', 200],
    ]);
    receiver.answerWith(() => ({ status: 200, body: 'ok' }));
  });

  it('cancels the waiting deliveries of a subscription disabled meanwhile', async () => {
    const created = subscription('switched-off', {
      criteria: { repoKeys: ['hooks-b'], includePatterns: ['off/**'] },
    });
    await subscribe('switched-off', {
      criteria: { repoKeys: ['hooks-b'], includePatterns: ['off/**'] },
    });
    await depot.dispatcher.stop();
    try {
      for (const path of ['off/one.txt', 'off/two.txt']) await deployFile(depot, 'hooks-b', path);
      // Fanned out while the subscription is enabled; disabled before anything is sent.
      await depot.dispatcher.runOnce();
      const disabled = await api('PUT', '/event/api/v1/subscriptions/switched-off', {
        ...created,
        key: undefined,
        enabled: false,
      });
      expect(disabled.statusCode, disabled.body).toBe(200);
    } finally {
      depot.dispatcher.start();
    }
    const history = async () =>
      (await api('GET', '/ui/api/v1/ui/webhooks/switched-off/deliveries')).json().deliveries as {
        state: string;
        lastError: string;
      }[];
    await until(
      async () => (await history()).filter((d) => d.state === 'cancelled').length === 2,
      'both deliveries cancelled',
    );
    expect((await history()).map((d) => d.lastError)).toEqual([
      'The subscription was disabled',
      'The subscription was disabled',
    ]);
    expect(sentTo('switched-off')).toHaveLength(0);
  });

  it('does not retry a 4xx answer', async () => {
    receiver.answerWith((request) =>
      request.path === '/hook/rejects' ? { status: 400, body: 'no' } : { status: 200 },
    );
    await subscribe('rejects', {
      criteria: { repoKeys: ['hooks-b'], includePatterns: ['rej/**'] },
    });
    await deployFile(depot, 'hooks-b', 'rej/one.txt');
    const history = async () =>
      (await api('GET', '/ui/api/v1/ui/webhooks/rejects/deliveries')).json();
    await until(
      async () => (await history()).deliveries[0]?.state === 'failed',
      'a failed delivery',
    );
    const [delivery] = (await history()).deliveries;
    expect(delivery).toMatchObject({ attempts: 1, lastStatus: 400, state: 'failed' });
    expect(sentTo('rejects')).toHaveLength(1);
    receiver.answerWith(() => ({ status: 200, body: 'ok' }));
  });

  it('refuses a private address outside the allow list, and a redirect to one', async () => {
    const other = `http://127.0.0.2:${receiver.port}/hook/private`;
    await subscribe('private', {
      criteria: { repoKeys: ['hooks-b'], includePatterns: ['private/**'] },
      handler: { url: other },
    });
    receiver.answerWith((request) =>
      request.path === '/hook/redirects'
        ? { status: 307, headers: { location: other } }
        : { status: 200 },
    );
    await subscribe('redirects', {
      criteria: { repoKeys: ['hooks-b'], includePatterns: ['private/**'] },
    });
    await deployFile(depot, 'hooks-b', 'private/one.txt');
    const history = async (key: string) =>
      (await api('GET', `/ui/api/v1/ui/webhooks/${key}/deliveries`)).json().deliveries;
    for (const key of ['private', 'redirects']) {
      await until(async () => (await history(key))[0]?.state === 'failed', `${key} refused`);
      const [delivery] = await history(key);
      expect(delivery.lastError).toContain('127.0.0.2 is private or reserved');
      expect(delivery.attempts).toBe(1);
    }
    expect(receiver.requests.filter((r) => r.path === '/hook/private')).toHaveLength(0);
    receiver.answerWith(() => ({ status: 200, body: 'ok' }));
  });

  it('pauses a subscription that keeps failing, with its reason, and resumes it', async () => {
    receiver.answerWith((request) =>
      request.path === '/hook/pausing' ? { status: 500, body: 'broken' } : { status: 200 },
    );
    await subscribe('pausing', {
      criteria: { repoKeys: ['hooks-b'], includePatterns: ['pause/**'] },
    });
    await deployFile(depot, 'hooks-b', 'pause/one.txt');
    const history = async () =>
      (await api('GET', '/ui/api/v1/ui/webhooks/pausing/deliveries')).json();
    await until(async () => (await history()).paused !== null, 'the pause', 20000);
    expect((await history()).paused.reason).toMatch(/^Paused after failing since .*: HTTP 500$/);
    const triesWhenPaused = sentTo('pausing').length;
    receiver.answerWith(() => ({ status: 200, body: 'ok' }));
    const resumed = await api('POST', '/ui/api/v1/ui/webhooks/pausing/resume');
    expect(resumed.statusCode).toBe(200);
    await until(async () => (await history()).deliveries[0]?.state === 'delivered', 'delivery');
    expect((await history()).paused).toBeNull();
    expect(sentTo('pausing')).toHaveLength(triesWhenPaused + 1);
  });

  it('redelivers a delivery under its own id', async () => {
    const [delivery] = (await api('GET', '/ui/api/v1/ui/webhooks/rejects/deliveries')).json()
      .deliveries;
    const url = `/ui/api/v1/ui/webhooks/rejects/deliveries/${delivery.id}/redeliver`;
    const again = await api('POST', url);
    expect(again.statusCode, again.body).toBe(200);
    await until(() => sentTo('rejects').length >= 2, 'the redelivery');
    const [first, second] = sentTo('rejects');
    expect(second!.headers['x-depot-delivery']).toBe(first!.headers['x-depot-delivery']);
    expect(second!.body).toBe(first!.body);
    const unknown = await api('POST', '/ui/api/v1/ui/webhooks/rejects/deliveries/nope/redeliver');
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the test call', () => {
  it('sends a dummy event and answers with the spec message', async () => {
    const before = sentTo('tested').length;
    const response = await api('POST', '/event/api/v1/subscriptions/test', subscription('tested'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      info: 'A dummy hook was executed and sent to the configured URL',
    });
    expect(sentTo('tested')).toHaveLength(before + 1);
    const dummy = sentTo('tested').at(-1)!;
    expect(dummy.json).toMatchObject({ domain: 'artifact', event_type: 'deployed' });
    expectSigned(dummy);
  });

  it('says the dummy failed when the receiver refuses it', async () => {
    receiver.answerWith(() => ({ status: 500 }));
    const response = await api('POST', '/ui/api/v1/ui/webhooks/test', {
      key: 'tested',
      url: `${receiver.url}/tested`,
      domain: 'artifact',
      eventTypes: ['deployed'],
      anyLocal: true,
    });
    receiver.answerWith(() => ({ status: 200, body: 'ok' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toBe(
      'Sending a dummy Webhook failed: the URL answered 500',
    );
  });
});

describe("the payloads' origin", () => {
  it("is the general configuration's base URL once an admin sets one", async () => {
    const general = await api('PUT', '/ui/api/v1/ui/generalConfig', {
      baseUrl: 'https://depot.example.com/',
    });
    expect(general.statusCode, general.body).toBe(200);
    try {
      const tested = await api('POST', '/event/api/v1/subscriptions/test', subscription('origin'));
      expect(tested.statusCode, tested.body).toBe(200);
      expect(sentTo('origin').at(-1)!.json).toMatchObject({
        jpd_origin: 'https://depot.example.com',
      });

      await subscribe('origin-deploys', { criteria: { repoKeys: ['hooks-b'] } });
      await deployFile(depot, 'hooks-b', 'origin/one.txt', 'one');
      await until(() => sentTo('origin-deploys').length > 0, 'the delivery');
      expect(sentTo('origin-deploys')[0]!.json).toMatchObject({
        event_type: 'deployed',
        jpd_origin: 'https://depot.example.com',
      });
    } finally {
      await api('PUT', '/ui/api/v1/ui/generalConfig', { baseUrl: '' });
    }
  });
});
