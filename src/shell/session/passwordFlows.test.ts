import { describe, expect, it } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import { EMAIL_NOT_SENT, RESET_PASSWORD_FAILED } from '../messages';
import {
  $forgotError,
  $newPasswordError,
  forgotFx,
  forgotSubmitted,
  resetFx,
} from './passwordFlows';

const refusal = (message: string | undefined) =>
  new ApiError({
    message: 'status 400',
    status: 400,
    body: message ? { errors: [{ status: 400, message }] } : undefined,
    method: 'POST',
    url: '/ui/api/v1/ui/auth/forgotpassword',
  });

describe('the password flows from a mail', () => {
  it("says the spec's words when a mail is not sent, then the server's reason", async () => {
    const reason = 'Mail is not configured. Ask an administrator to set up the mail server.';
    const scope = fork({
      handlers: [[forgotFx, async () => Promise.reject(refusal(reason))]],
    });
    await allSettled(forgotSubmitted, { scope, params: 'jo' });
    expect(scope.getState($forgotError)).toBe(`${EMAIL_NOT_SENT}: ${reason}`);
    const silent = fork({ handlers: [[forgotFx, async () => Promise.reject(refusal(undefined))]] });
    await allSettled(forgotSubmitted, { scope: silent, params: 'jo' });
    expect(silent.getState($forgotError)).toBe(EMAIL_NOT_SENT);
  });

  it("says the spec's words when a reset fails, then the password policy's", async () => {
    const scope = fork({
      handlers: [
        [resetFx, async () => Promise.reject(refusal('Password is not satisfy the policy'))],
      ],
    });
    await allSettled(resetFx, { scope, params: { key: 'k', password: 'p' } });
    expect(scope.getState($newPasswordError)).toBe(
      `${RESET_PASSWORD_FAILED}: Password is not satisfy the policy`,
    );
  });
});
