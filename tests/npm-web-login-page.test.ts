import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_LOGIN_MESSAGES } from '../server/formats/npm/web-login.ts';
import { adminAuth, startTestDepot, type TestDepot } from './helpers/test-app.ts';

let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
});
afterAll(() => depot?.close());

/**
 * The console's npm login page shows what these calls answer: an id no login could have
 * (typed in by hand, cut short in a copy) is told apart from nothing but an unknown one.
 */
describe('npm web login: an id of the wrong shape', () => {
  for (const loginId of ['smoke-test', 'x'.repeat(65), 'not+a+login+id+at+all']) {
    it(`answers ${loginId.slice(0, 20)} with the unknown login's message, not a validator's`, async () => {
      for (const [method, suffix] of [
        ['GET', ''],
        ['POST', '/approve'],
        ['POST', '/deny'],
      ] as const) {
        const response = await depot.app.inject({
          method,
          url: `/ui/api/v1/npm/login/${loginId}${suffix}`,
          headers: adminAuth(),
        });
        expect(response.statusCode, `${method} ${suffix}`).toBe(400);
        expect(response.json().errors[0].message).toBe(WEB_LOGIN_MESSAGES.unknown);
      }
    });
  }
});
