import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, createRepository, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * The spellings of a private address an attacker tries in a webhook URL or a remote
 * repository URL (decimal, octal, hex, short forms, IPv4-mapped IPv6, the unspecified
 * address, a name resolving to loopback): the Test buttons refuse each, naming the address
 * the URL reaches. The guard itself: server/modules/remote/upstream-guard.test.ts.
 */
const FORMS: [string, string][] = [
  ['http://0.0.0.0:1/', '0.0.0.0'],
  ['http://2130706433/', '127.0.0.1'],
  ['http://0177.0.0.1/', '127.0.0.1'],
  ['http://0x7f.1/', '127.0.0.1'],
  ['http://127.1/', '127.0.0.1'],
  ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
  ['http://[::]/', '::'],
  ['http://localhost/', '127.0.0.1 (localhost)'],
  ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
];
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'hooked', 'local');
});
afterAll(() => depot.close());

const post = (url: string, payload: object) =>
  depot.app.inject({ method: 'POST', url, headers: adminAuth(), payload });

describe('a private address however it is spelled', () => {
  it.each(FORMS)('is refused as a webhook URL and a remote URL: %s', async (url, reached) => {
    const hook = await post('/ui/api/v1/ui/webhooks/test', {
      key: 'probe',
      url,
      domain: 'artifact',
      eventTypes: ['deployed'],
      repoKeys: ['hooked'],
    });
    expect(hook.statusCode).toBe(400);
    expect(hook.json().errors[0].message).toContain(`address ${reached} is private or reserved`);
    const remote = await post('/ui/api/v1/ui/admin/repositories/testremote', { url });
    expect(remote.statusCode).toBe(400);
    expect(remote.json().errors[0].message).toContain(`address ${reached} is private or reserved`);
  });
});
