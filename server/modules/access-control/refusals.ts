import { AccessDenied, Unauthorized } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import { ACCESS_MESSAGES as M } from './messages.ts';

/**
 * The refusal of `action` on a node. Anonymous callers get 401, the challenge clients answer
 * with credentials. `readable` says whether the caller may read the node: when not, the
 * refusal may be hidden as a 404 (the "hide existence" setting).
 */
export function denied(
  principal: Principal,
  action: string,
  repoKey: string,
  path: string,
  readable = action !== 'read',
) {
  const message = M.denied(principal.name, action, repoKey, path);
  if (principal.anonymous) return new Unauthorized(message);
  return new AccessDenied(message, readable ? undefined : M.hidden(repoKey, path));
}

/**
 * The refusal of an operation on many items because of one the caller may not read. It
 * names the item the request named (`repoKey`/`path`), never the hidden one, so that the
 * refusal tells no name the caller could not read (docs/access-control.md).
 */
export function deniedBelow(
  principal: Principal,
  action: string,
  repoKey: string,
  path: string,
  readable: boolean,
) {
  const message = M.deniedBelow(principal.name, action, repoKey, path);
  if (principal.anonymous) return new Unauthorized(message);
  return new AccessDenied(message, readable ? undefined : M.hidden(repoKey, path));
}
