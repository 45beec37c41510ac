import { BadRequest } from '../../errors.ts';
import { TOKEN_MESSAGES as M } from './messages.ts';

const GROUPS = 'member-of-groups:';

/**
 * The scope of Artifactory's legacy token API (`member-of-groups:a,b api:*`, space separated)
 * as an Access scope: `member-of-groups:*` (or none) acts as the user, named groups act with
 * those groups only; `api:*` is what every token may do and adds nothing. An Access scope
 * (`applied-permissions/...`) passes as it is.
 */
export function accessScopeOf(legacy: string | undefined): string | undefined {
  const text = legacy?.trim();
  if (!text) return undefined;
  if (text.startsWith('applied-permissions/')) return text;
  let scope: string | undefined;
  for (const part of text.split(/\s+/)) {
    if (part === 'api:*') continue;
    if (!part.startsWith(GROUPS) || scope !== undefined)
      throw new BadRequest(M.badLegacyScope(text), 'scope');
    const groups = part.slice(GROUPS.length);
    scope = groups === '*' ? 'applied-permissions/user' : `applied-permissions/groups:${groups}`;
  }
  return scope;
}

/** An Access scope as the legacy API writes it back. */
export function legacyScopeOf(scope: string): string {
  if (scope === 'applied-permissions/user') return `${GROUPS}* api:*`;
  if (scope.startsWith('applied-permissions/groups:'))
    return `${GROUPS}${scope.slice('applied-permissions/groups:'.length)} api:*`;
  return scope;
}
