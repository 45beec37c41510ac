import { LOGIN_PATH, SERVER_ERROR_PATH } from '../messages';

/**
 * Whether moving from `current` to `next` needs the unsaved-changes question (spec 01 §4):
 * not within the same page, not to a sub-path of the current path, not to login (a session
 * that ended must not be held up) and not to the error page.
 */
export function leaveNeedsConfirmation(current: string, next: string): boolean {
  const trimmed = current.replace(/\/+$/, '');
  if (next === current || next === trimmed) return false;
  if (next.startsWith(`${trimmed}/`)) return false;
  if (next === LOGIN_PATH || next.startsWith(`${LOGIN_PATH}/`)) return false;
  if (next === SERVER_ERROR_PATH) return false;
  return true;
}
