import { Forbidden } from '../../errors.ts';
import { signedInWithPassword, type Principal } from '../../http/permissions.ts';
import { AUTH_MESSAGES } from './messages.ts';

/**
 * Refuses a caller that did not sign in with its password: a token with a minute left must
 * not become a permanent API key, a new password or a second factor (docs/security.md).
 */
export function requirePasswordSignIn(principal: Pick<Principal, 'via'>): void {
  if (!signedInWithPassword(principal)) throw new Forbidden(AUTH_MESSAGES.passwordSignInRequired);
}
