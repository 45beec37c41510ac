/**
 * The console names, on each call, the user it was started for (spec 01 §8: status 420
 * "redirect to authentication", 333 "user changed, redirect"). A tab that still shows one
 * user while the browser's session cookie now belongs to nobody (signed out or expired in
 * another tab) gets 420 and goes to sign-in; one whose cookie now belongs to someone else
 * (another tab signed in as another user) gets 333 and reloads as that user, rather than
 * acting for one user under the other's name.
 */
export const CONSOLE_USER_HEADER = 'x-depot-console-user';

export const SESSION_ENDED_STATUS = 420;
export const USER_CHANGED_STATUS = 333;

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';
export const USER_CHANGED_MESSAGE = 'You have signed in as another user in another tab.';

/** What a console call's own idea of its user says about the request's identity. */
export function consoleUserMismatch(
  consoleUser: string | undefined,
  principal: { name: string; anonymous: boolean; via?: string },
): 'ended' | 'changed' | undefined {
  if (!consoleUser) return undefined;
  if (principal.anonymous) return 'ended';
  if (principal.via === 'session' && principal.name !== consoleUser) return 'changed';
  return undefined;
}
