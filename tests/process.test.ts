import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

      // A second Depot on the same embedded database is refused before it opens it, and the
      // first goes on serving (PGlite alone would let both write over each other).
      const second = spawnDepot(home, await freePort(), {}, ['ignore', 'ignore', 'pipe']);
      let stderr = '';
      second.stderr!.on('data', (chunk) => (stderr += chunk));
      expect(await new Promise((resolve) => second.once('exit', resolve))).toBe(1);
      expect(stderr).toContain(
        `The embedded database in ${join(home, 'db')} is in use by another Depot`,
      );
      const created = await fetch(`${base}/artifactory/api/repositories/after-second`, {
        method: 'PUT',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
      });
      expect(created.status).toBe(200);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const log = readFileSync(join(home, 'logs', 'depot-service.log'), 'utf8');
    expect(log).toContain('"msg":"shutting down"');
    expect(log).not.toContain('automation-pass-1');
    // Stopped cleanly, it gives the database back.
    expect(existsSync(join(home, 'db', 'depot.pid'))).toBe(false);
  }, 60000);
});
