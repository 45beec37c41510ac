import { jwtVerify, SignJWT } from 'jose';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { ANONYMOUS, type Principal } from '../../http/permissions.ts';
import { RegistryUnauthorized } from './protocol-errors.ts';

/** One entry of a token's `access` claim, as the Docker token specification writes it. */
export interface RegistryAccess {
  type: string;
  name: string;
  actions: string[];
}

const ISSUER = 'depot';
const AUDIENCE = 'depot-registry';

/**
 * Reads `scope` parameters (`repository:<name>:pull,push`, `registry:catalog:*`). The name
 * may itself hold colons (a port), so type and actions are taken from either end.
 */
export function parseScopes(scopes: string[]): RegistryAccess[] {
  const access: RegistryAccess[] = [];
  for (const scope of scopes.flatMap((s) => s.split(' ')).filter(Boolean)) {
    const first = scope.indexOf(':');
    const last = scope.lastIndexOf(':');
    if (first < 0 || last === first) continue;
    const actions = scope
      .slice(last + 1)
      .split(',')
      .filter(Boolean);
    access.push({ type: scope.slice(0, first), name: scope.slice(first + 1, last), actions });
  }
  return access;
}

/** The principal and access a valid registry token carries. */
export interface RegistryTokenHolder {
  principal: Principal;
  access: RegistryAccess[];
}

/**
 * Short-lived registry tokens (HS256, a key of their own derived from the master key): the
 * token endpoint issues one for the scopes a caller asked for and may use, and the registry
 * accepts it as `Authorization: Bearer`. It names who the caller is, so the decider still
 * judges every request: a permission removed meanwhile counts at once.
 */
export function createRegistryTokens(secrets: SecretBox, lifetimeSeconds: number) {
  const key = secrets.deriveKey('depot docker registry tokens v1');

  return {
    lifetimeSeconds,

    async issue(principal: Principal, access: RegistryAccess[], service: string) {
      const issuedAt = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({
        access,
        ...(principal.anonymous
          ? { anon: true }
          : {
              uid: principal.userId,
              adm: principal.admin,
              ...(principal.groups ? { grp: principal.groups } : {}),
            }),
        svc: service,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(principal.anonymous ? '' : principal.name)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .sign(key);
      return { token, issuedAt: new Date(issuedAt * 1000).toISOString() };
    },

    async verify(token: string): Promise<RegistryTokenHolder> {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE });
        const access = (payload.access as RegistryAccess[] | undefined) ?? [];
        if (payload.anon === true) return { principal: ANONYMOUS, access };
        const principal: Principal = {
          userId: typeof payload.uid === 'number' ? payload.uid : undefined,
          name: String(payload.sub),
          admin: payload.adm === true,
          anonymous: false,
          via: 'token',
          ...(Array.isArray(payload.grp) ? { groups: payload.grp as string[] } : {}),
          expiresAt: (payload.exp ?? 0) * 1000,
        };
        return { principal, access };
      } catch {
        throw new RegistryUnauthorized('The registry token is invalid or has expired');
      }
    },
  };
}

export type RegistryTokens = ReturnType<typeof createRegistryTokens>;
