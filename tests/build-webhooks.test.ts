import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInfo } from './helpers/build-info.ts';
import { adminAuth, createRepository, startTestDepot, type TestDepot } from './helpers/test-app.ts';
import { startReceiver, until, type Receiver } from './helpers/webhook-receiver.ts';

/**
 * Build events (docs/builds.md, "Events"): uploading, promoting and deleting a build reach
 * a webhook on loopback in JFrog's documented `build` domain shape, filtered by build name.
 */
let depot: TestDepot;
let receiver: Receiver;

beforeAll(async () => {
  depot = await startTestDepot({
    DEPOT_WEBHOOK_POLL_MS: '50',
    DEPOT_WEBHOOK_RETRY_BASE_MS: '50',
    DEPOT_WEBHOOK_TIMEOUT_MS: '2000',
  });
  receiver = await startReceiver();
  await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.1'] });
  await createRepository(depot, 'hooks-release', 'local');
});

afterAll(async () => {
  await receiver?.close();
  await depot?.close();
});

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  depot.app.inject({ method, url, headers: adminAuth(), payload: payload as never });

function subscription(key: string, criteria: Record<string, unknown>) {
  return {
    key,
    enabled: true,
    event_filter: {
      domain: 'build',
      event_types: ['uploaded', 'deleted', 'promoted'],
      criteria: { anyBuild: false, selectedBuilds: [], ...criteria },
    },
    handlers: [{ handler_type: 'webhook', url: `${receiver.url}/${key}` }],
  };
}

const sentTo = (key: string) => receiver.requests.filter((r) => r.path === `/hook/${key}`);
const started = '2026-03-01T10:00:00.000+0000';

describe('build events', () => {
  it('offers the build domain with its three events', async () => {
    const response = await api('GET', '/event/api/v1/domains');
    const build = (response.json() as { key: string; event_types: { key: string }[] }[]).find(
      (domain) => domain.key === 'build',
    );
    expect(build?.event_types.map((type) => type.key)).toEqual(['uploaded', 'deleted', 'promoted']);
  });

  it('refuses a build subscription that chooses no build', async () => {
    const response = await api('POST', '/event/api/v1/subscriptions', subscription('none', {}));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toBe(
      'Select at least one build, a build pattern, or any build',
    );
  });

  it('sends uploaded, promoted and deleted in the documented shape, by build name', async () => {
    for (const [key, criteria] of [
      ['picked', { selectedBuilds: ['team/app'] }],
      ['patterned', { includePatterns: ['team/**'], excludePatterns: ['team/other'] }],
      ['other', { selectedBuilds: ['unrelated'] }],
    ] as const) {
      const response = await api(
        'POST',
        '/event/api/v1/subscriptions',
        subscription(key, criteria),
      );
      expect(response.statusCode, response.body).toBe(201);
    }
    const name = encodeURIComponent('team/app');
    const document = buildInfo({
      name: 'team/app',
      number: '7',
      started: new Date('2026-03-01T10:00:00.000Z'),
      modules: [{ id: 'app', artifacts: [{ name: 'app.zip', content: 'zip' }] }],
    });
    expect((await api('PUT', '/artifactory/api/build', document)).statusCode).toBe(204);
    const promote = await api('POST', `/artifactory/api/build/promote/${name}/7`, {
      status: 'Released',
      targetRepo: 'hooks-release',
      copy: true,
    });
    expect(promote.statusCode, promote.body).toBe(200);
    const removed = await api('DELETE', `/artifactory/api/build/${name}?buildNumbers=7`);
    expect(removed.statusCode, removed.body).toBe(200);

    await until(() => sentTo('picked').length === 3 && sentTo('patterned').length === 3, 'events');
    for (const key of ['picked', 'patterned']) {
      const bodies = sentTo(key).map((request) => request.json);
      expect(bodies.map((body) => body.event_type)).toEqual(['uploaded', 'promoted', 'deleted']);
      for (const body of bodies) {
        expect(body.domain).toBe('build');
        expect(body.data).toEqual({
          build_name: 'team/app',
          event_type: body.event_type,
          build_number: '7',
          build_started: started,
        });
      }
    }
    expect(sentTo('other')).toEqual([]);
  });

  it('sends nothing for a dry run, nor for a build an exclude pattern names', async () => {
    const name = encodeURIComponent('team/app');
    const eight = buildInfo({ name: 'team/app', number: '8', modules: [] });
    expect((await api('PUT', '/artifactory/api/build', eight)).statusCode).toBe(204);
    const dryRun = await api('POST', `/artifactory/api/build/promote/${name}/8`, {
      status: 'Released',
      dryRun: true,
    });
    expect(dryRun.statusCode, dryRun.body).toBe(200);
    const excluded = buildInfo({ name: 'team/other', number: '1', modules: [] });
    expect((await api('PUT', '/artifactory/api/build', excluded)).statusCode).toBe(204);
    const nine = buildInfo({ name: 'team/app', number: '9', modules: [] });
    expect((await api('PUT', '/artifactory/api/build', nine)).statusCode).toBe(204);
    // Deliveries keep their order per subscription: once 9 is in, anything before it is too.
    const numbers = (key: string) =>
      sentTo(key)
        .slice(3)
        .map((request) => {
          const data = request.json.data as { build_name: string; build_number: string };
          return `${request.json.event_type} ${data.build_name} ${data.build_number}`;
        });
    await until(
      () => numbers('picked').length === 2 && numbers('patterned').length === 2,
      'the uploads of 8 and 9',
    );
    expect(numbers('picked')).toEqual(['uploaded team/app 8', 'uploaded team/app 9']);
    expect(numbers('patterned')).toEqual(['uploaded team/app 8', 'uploaded team/app 9']);
  });
});

describe('build.deleted on every path that removes a build', () => {
  const deletedEvents = async (name: string) =>
    (
      await depot.db
        .selectFrom('event_outbox')
        .select(['data', 'source'])
        .where('domain', '=', 'build')
        .where('event_type', '=', 'deleted')
        .execute()
    )
      .map((row) => ({
        data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as {
          build_name: string;
          build_number: string;
        },
        source: row.source,
      }))
      .filter((event) => event.data.build_name === name)
      .map((event) => `${event.data.build_number} by ${event.source}`)
      .sort();

  async function upload(name: string, number: string, at: string) {
    const started = new Date(at);
    const document = buildInfo({ name, number, started, modules: [] });
    expect((await api('PUT', '/artifactory/api/build', document)).statusCode).toBe(204);
    return `${name}/${number}-${started.getTime()}.json`;
  }

  it('reports a build file deleted over the deploy URL, into the trash can or for good', async () => {
    const one = await upload('removed', '1', '2026-03-02T10:00:00.000Z');
    await upload('removed', '2', '2026-03-02T11:00:00.000Z');
    await upload('removed', '3', '2026-03-02T12:00:00.000Z');
    const intoTrash = await api('DELETE', `/artifactory/artifactory-build-info/${one}`);
    expect(intoTrash.statusCode, intoTrash.body).toBe(204);
    expect(await deletedEvents('removed')).toEqual(['1 by admin']);

    await depot.services.trash.updateConfig({ enabled: false });
    try {
      // The name's folder: both builds in it go, each with one event.
      const folder = await api('DELETE', '/artifactory/artifactory-build-info/removed');
      expect(folder.statusCode, folder.body).toBe(204);
    } finally {
      await depot.services.trash.updateConfig({ enabled: true });
    }
    expect(await deletedEvents('removed')).toEqual(['1 by admin', '2 by admin', '3 by admin']);
    expect((await api('GET', '/artifactory/api/build/removed')).statusCode).toBe(404);
  });

  it('reports one event per build removed through the build calls, and with its repository', async () => {
    await upload('called', '1', '2026-03-03T10:00:00.000Z');
    await upload('called', '2', '2026-03-03T11:00:00.000Z');
    const removed = await api('DELETE', '/artifactory/api/build/called?buildNumbers=1');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await deletedEvents('called')).toEqual(['1 by admin']);

    await depot.services.repositories.delete('artifactory-build-info', 'admin');
    expect(await deletedEvents('called')).toEqual(['1 by admin', '2 by admin']);
  });
});
