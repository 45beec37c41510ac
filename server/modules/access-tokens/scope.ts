import { BadRequest } from '../../errors.ts';
import { TOKEN_MESSAGES as M } from './messages.ts';

/**
 * A token's scope, as JFrog Access writes it: `applied-permissions/user` (act as the user),
 * `applied-permissions/admin` (act as an administrator) or `applied-permissions/groups:a,b`
 * (act with those groups' permissions only).
 */
export type TokenScope =
  { kind: 'user' } | { kind: 'admin' } | { kind: 'groups'; groups: string[] };

const PREFIX = 'applied-permissions/';

export function parseScope(scope: string | undefined): TokenScope {
  const text = (scope ?? `${PREFIX}user`).trim();
  if (text === `${PREFIX}user`) return { kind: 'user' };
  if (text === `${PREFIX}admin`) return { kind: 'admin' };
  if (text.startsWith(`${PREFIX}groups:`)) {
    const groups = text
      .slice(`${PREFIX}groups:`.length)
      .split(',')
      .map((group) => group.trim())
      .filter(Boolean);
    if (groups.length > 0) return { kind: 'groups', groups: [...new Set(groups)] };
  }
  throw new BadRequest(M.badScope(text), 'scope');
}

export function formatScope(scope: TokenScope): string {
  if (scope.kind === 'groups') return `${PREFIX}groups:${scope.groups.join(',')}`;
  return `${PREFIX}${scope.kind}`;
}
