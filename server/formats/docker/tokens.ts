import { jwtVerify, SignJWT } from 'jose';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import { IDENTITY_TABLES } from '../../http/known-callers.ts';
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
const REFRESH_AUDIENCE = 'depot-registry-refresh';
/** How long a refresh token (OAuth2 `access_type=offline`) is good for. */
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;

/** Who a refresh token was issued to: checked against the user as they are now on each use. */
export interface RefreshTokenHolder {
  name: string;
  groups?: string[];
  /** When the refresh token ends (never after the access token it was obtained with). */
  expiresAt: number;
}

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

/** How many verified tokens `verify` remembers: a client repeats its token on every call. */
const VERIFIED_TOKENS_KEPT = 1000;

/** The principal and access a valid registry token carries. */
export interface RegistryTokenHolder {
  principal: Principal;
  access: RegistryAccess[];
}

/**
 * Short-lived registry tokens (HS256, a key of their own derived from the master key): the
 * token endpoint issues one for the scopes a caller asked for and may use, and the registry
 * accepts it as `Authorization: Bearer`. It names who the caller is, so the decider still
 * judges every request: a permission removed meanwhile counts at once, and a user deleted or
 * no longer an admin since is taken as they are now (`identity`).
 */
export function createRegistryTokens(
  secrets: SecretBox,
  lifetimeSeconds: number,
  identity: {
    /** The user as they are now; undefined once deleted. */
    currentUser?: (name: string) => Promise<{ admin: boolean } | undefined>;
    changes?: TableChanges;
  } = {},
) {
  const key = secrets.deriveKey('depot docker registry tokens v1');
  // A key of its own: a refresh token can never pass for a registry token, nor the reverse.
  const refreshKey = secrets.deriveKey('depot docker registry refresh tokens v1');

  /** The holder a token names, once its signature, issuer, audience and expiry are checked. */
  async function verifySigned(token: string): Promise<RegistryTokenHolder & { expiresAt: number }> {
    try {
      const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE });
      const access = (payload.access as RegistryAccess[] | undefined) ?? [];
      const expiresAt = (payload.exp ?? 0) * 1000;
      if (payload.anon === true) return { principal: ANONYMOUS, access, expiresAt };
      const principal: Principal = {
        userId: typeof payload.uid === 'number' ? payload.uid : undefined,
        name: String(payload.sub),
        admin: payload.adm === true,
        anonymous: false,
        via: 'token',
        ...(Array.isArray(payload.grp) ? { groups: payload.grp as string[] } : {}),
        expiresAt,
      };
      return { principal, access, expiresAt };
    } catch {
      throw new RegistryUnauthorized('The registry token is invalid or has expired');
    }
  }
  /** Tokens verified lately, until they expire; the oldest go first once it is full. */
  const verified = new Map<string, { holder: RegistryTokenHolder; expiresAt: number }>();
  // A user deleted or no longer an admin since a token was issued: judged again at once.
  identity.changes?.onChange(IDENTITY_TABLES, () => verified.clear());

  /** The holder with the user as they are now: a deleted user's token proves nothing. */
  async function asTheyAreNow(holder: RegistryTokenHolder): Promise<RegistryTokenHolder> {
    const { principal } = holder;
    if (principal.anonymous || !identity.currentUser) return holder;
    const user = await identity.currentUser(principal.name);
    if (!user) throw new RegistryUnauthorized('The registry token is invalid or has expired');
    return { ...holder, principal: { ...principal, admin: principal.admin && user.admin } };
  }

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

    /**
     * A refresh token for a signed-in principal: it names the user (and the groups a scoped
     * token limited them to) and ends after REFRESH_TOKEN_SECONDS, or with the Depot token
     * the principal signed in with, whichever comes first.
     */
    async issueRefresh(principal: Principal, service: string): Promise<string> {
      const now = Math.floor(Date.now() / 1000);
      const limit = principal.expiresAt ? Math.floor(principal.expiresAt / 1000) : Infinity;
      return new SignJWT({ svc: service, ...(principal.groups ? { grp: principal.groups } : {}) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(REFRESH_AUDIENCE)
        .setSubject(principal.name)
        .setIssuedAt(now)
        .setExpirationTime(Math.min(now + REFRESH_TOKEN_SECONDS, limit))
        .sign(refreshKey);
    },

    /** The user a refresh token names, or undefined when it is not one Depot issued, or ended. */
    async verifyRefresh(token: string): Promise<RefreshTokenHolder | undefined> {
      try {
        const { payload } = await jwtVerify(token, refreshKey, {
          issuer: ISSUER,
          audience: REFRESH_AUDIENCE,
        });
        if (typeof payload.sub !== 'string' || payload.sub === '') return undefined;
        return {
          name: payload.sub,
          ...(Array.isArray(payload.grp) ? { groups: payload.grp as string[] } : {}),
          expiresAt: (payload.exp ?? 0) * 1000,
        };
      } catch {
        return undefined;
      }
    },

    /** The holder of a token `verify` proved and remembers, while it lasts; else undefined. */
    peek(token: string): RegistryTokenHolder | undefined {
      const known = verified.get(token);
      return known && known.expiresAt > Date.now() ? known.holder : undefined;
    },

    async verify(token: string): Promise<RegistryTokenHolder> {
      // A token's signature and claims never change: once verified, only its expiry is
      // checked again (a pull sends the same token with each of its calls).
      const known = verified.get(token);
      if (known && known.expiresAt > Date.now()) return known.holder;
      if (known) verified.delete(token);
      const { expiresAt, ...signed } = await verifySigned(token);
      const holder = await asTheyAreNow(signed);
      if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
      verified.set(token, { holder, expiresAt });
      return holder;
    },
  };
}

export type RegistryTokens = ReturnType<typeof createRegistryTokens>;
