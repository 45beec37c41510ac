import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnDepot, waitForPing } from '../tests/helpers/server-process.ts';

export interface E2eDepot {
  baseUrl: string;
  /** `${baseUrl}/ui${path}` */
  ui(path: string): string;
  stop(): Promise<void>;
}

/**
 * A real Depot for one test file, on a fresh home and a free loopback port. Without
 * `adminPassword` the admin has the default, expired password: what a newcomer sees. `env`
 * adds settings (DEPOT_GC_GRACE_SECONDS, ...).
 * `prepareHome` fills the home before the server starts (seed-tree.ts).
 * `stop` ends the process and removes its home; call it in afterAll.
 */
export async function startDepot(
  adminPassword = '',
  env: Record<string, string> = {},
  prepareHome?: (home: string) => Promise<void>,
): Promise<E2eDepot> {
  if (!existsSync('dist/ui/index.html')) throw new Error('Build the console first: npm run build');
  if (!existsSync('/usr/bin/chromium'))
    throw new Error('Install Debian chromium: apt-get install chromium');
  const home = mkdtempSync(join(tmpdir(), 'depot-e2e-'));
  try {
    await prepareHome?.(home);
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawnDepot(
    home,
    port,
    {
      DEPOT_SERVER_NAME: 'Depot E2E',
      DEPOT_ADMIN_PASSWORD: adminPassword,
      // An instance in use has its quick setup behind it; onboarding.e2e.ts turns it on.
      DEPOT_QUICK_SETUP_ON_FIRST_LOGIN: 'false',
      ...env,
    },
    ['ignore', 'ignore', 'inherit'],
  );
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await waitForPing(baseUrl, server);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, ui: (path) => `${baseUrl}/ui${path}`, stop };
}

export const basicAuth = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * A scripted call to the Depot under test, as curl would send it, with basic auth: objects
 * are sent as JSON, anything else (text, a form, bytes) as it is.
 */
export function scriptedCall(
  depot: E2eDepot,
  credentials: { user: string; password: string },
  method: string,
  path: string,
  body?: unknown,
) {
  const json =
    body !== null &&
    typeof body === 'object' &&
    !(body instanceof FormData) &&
    !(body instanceof Uint8Array);
  return fetch(`${depot.baseUrl}${path}`, {
    method,
    headers: {
      authorization: basicAuth(credentials.user, credentials.password),
      ...(json ? { 'content-type': 'application/json' } : {}),
    },
    body: json ? JSON.stringify(body) : (body as BodyInit | undefined),
  });
}
