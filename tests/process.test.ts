import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnDepot, waitForPing } from './helpers/server-process.ts';

const homes: string[] = [];
afterAll(() => homes.forEach((home) => rmSync(home, { recursive: true, force: true })));

/** The real entry point as an operator runs it: environment in, HTTP on loopback, signals. */
describe('server process', () => {
  it('starts from the environment, answers on loopback, and stops cleanly on SIGTERM', async () => {
    const home = mkdtempSync(join(tmpdir(), 'depot-process-'));
    homes.push(home);
    const port = await freePort();
    const server = spawnDepot(home, port, { DEPOT_ADMIN_PASSWORD: 'automation-pass-1' });
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForPing(base, server);
      expect(await (await fetch(`${base}/artifactory/api/system/ping`)).text()).toBe('OK');

      // DEPOT_ADMIN_PASSWORD gives a ready, non-expired password for automation.
      const auth = `Basic ${Buffer.from('admin:automation-pass-1').toString('base64')}`;
      const users = await fetch(`${base}/artifactory/api/security/users`, {
        headers: { authorization: auth },
      });
      expect(users.status).toBe(200);
      expect((await users.json()).map((u: { name: string }) => u.name)).toEqual(['admin']);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const log = readFileSync(join(home, 'logs', 'depot-service.log'), 'utf8');
    expect(log).toContain('"msg":"shutting down"');
    expect(log).not.toContain('automation-pass-1');
  }, 60000);
});
