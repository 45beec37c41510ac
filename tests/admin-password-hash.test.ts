import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.ts';
import { verifyPassword } from '../server/modules/auth/password.ts';
import {
  adminAuth,
  startTestDepot,
  TEST_ADMIN_PASSWORD,
  TEST_ADMIN_PASSWORD_HASH,
  type TestDepot,
} from './helpers/test-app.ts';

/**
 * DEPOT_ADMIN_PASSWORD_HASH: the first start's admin password given as its hash, so that the
 * password is in no environment (README, "Configuration"). Every test Depot starts this way
 * (tests/helpers/test-app.ts); this file says what it does and what it refuses.
 */
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot({ DEPOT_ADMIN_PASSWORD_HASH: TEST_ADMIN_PASSWORD_HASH });
});
afterAll(async () => {
  await depot?.close();
});

describe('the admin password given as a hash', () => {
  it('is stored as given, and the password it was made of signs in, not expired', async () => {
    const admin = await depot.db
      .selectFrom('users')
      .select(['password_hash', 'password_expired'])
      .where('name', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(admin).toEqual({ password_hash: TEST_ADMIN_PASSWORD_HASH, password_expired: false });
    const me = await depot.app.inject({
      method: 'GET',
      url: '/artifactory/api/security/users/admin',
      headers: adminAuth(),
    });
    expect(me.statusCode, me.body).toBe(200);
  });

  it('is printed by npm run password:hash from standard input', async () => {
    const run = promisify(execFile)('npx', ['tsx', 'scripts/hash-password.ts']);
    run.child.stdin!.end(`${TEST_ADMIN_PASSWORD}\n`);
    const printed = (await run).stdout.trim();
    expect(printed).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(printed).not.toBe(TEST_ADMIN_PASSWORD_HASH);
    expect(await verifyPassword(TEST_ADMIN_PASSWORD, printed)).toBe(true);
    expect(loadConfig({ DEPOT_ADMIN_PASSWORD_HASH: printed }).adminPasswordHash).toBe(printed);
  });

  it('is refused at start when it is not a hash Depot can check, or given with the password', () => {
    expect(() => loadConfig({ DEPOT_ADMIN_PASSWORD_HASH: TEST_ADMIN_PASSWORD })).toThrow(
      'DEPOT_ADMIN_PASSWORD_HASH must be a hash printed by `npm run password:hash`',
    );
    expect(() =>
      loadConfig({
        DEPOT_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        DEPOT_ADMIN_PASSWORD_HASH: TEST_ADMIN_PASSWORD_HASH,
      }),
    ).toThrow('set DEPOT_ADMIN_PASSWORD or DEPOT_ADMIN_PASSWORD_HASH, not both');
  });
});
