import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_LOG_FILE } from '../server/logger.ts';
import { adminAuth, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * The service log (read by the log viewer, shipped in support bundles) keeps each request's
 * `incoming request` line, but never a secret that travels in a URL: a password reset key in
 * the query string, an npm token in the path.
 */
const RESET_KEY = 'reset-key-Z81q';
const NPM_TOKEN = 'npm-token-K27w';
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
});
afterAll(() => depot.close());

const serviceLog = async () => {
  await new Promise<void>((resolve) => (depot.app.log as Logger).flush(() => resolve()));
  return readFileSync(join(depot.config.home, 'logs', SERVICE_LOG_FILE), 'utf8');
};

describe('the service log', () => {
  it('logs requests without the secrets their URLs carry', async () => {
    await depot.app.inject({ url: `/ui/api/v1/ui/auth/validatetoken?key=${RESET_KEY}` });
    await depot.app.inject({
      method: 'POST',
      url: `/ui/api/v1/ui/auth/resetpassword?key=${RESET_KEY}`,
      payload: { password: 'new-pass-1234' },
    });
    await depot.app.inject({
      method: 'DELETE',
      url: `/artifactory/api/npm/npm-local/-/user/token/${NPM_TOKEN}`,
      headers: adminAuth(),
    });
    const log = await serviceLog();
    expect(log).not.toContain(RESET_KEY);
    expect(log).not.toContain(NPM_TOKEN);
    const urls = log
      .split('\n')
      .filter((line) => line.includes('"incoming request"'))
      .map((line) => JSON.parse(line).req.url as string);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/ui/api/v1/ui/auth/validatetoken',
        '/ui/api/v1/ui/auth/resetpassword',
        '/artifactory/api/npm/npm-local/-/user/token/[redacted]',
      ]),
    );
  });
});
