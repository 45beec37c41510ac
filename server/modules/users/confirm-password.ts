import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest, Unauthorized } from '../../errors.ts';
import type { Services } from '../../services.ts';

/** Spec 03 §8's words for a wrong password in the unlock flows. */
export const WRONG_PASSWORD = 'The password is incorrect, try again';

/**
 * The caller's own password, typed again before something sensitive (changing the profile's
 * email, putting an API key into snippets). Checked under the sign-in throttle like any
 * password; a wrong one is a mistake on the password field, not a failed sign-in (400).
 */
export async function confirmOwnPassword(
  app: FastifyInstance,
  services: Services,
  request: FastifyRequest,
  password: unknown,
): Promise<void> {
  if (typeof password !== 'string' || !password) throw new BadRequest(WRONG_PASSWORD, 'password');
  await app
    .signInThrottled(request.ip, request.principal.name, () =>
      services.auth.authenticateBasic(request.principal.name, password, request.ip),
    )
    .catch((error: unknown) => {
      throw error instanceof Unauthorized ? new BadRequest(WRONG_PASSWORD, 'password') : error;
    });
}
