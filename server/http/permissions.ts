/**
 * What a route needs, declared in its options as `config: { permission }`:
 * - public: anyone, signed in or not (sign-in itself, the footer, ping);
 * - reader: a signed-in user, or anonymous when anonymous access is enabled;
 * - user: a signed-in user (never anonymous);
 * - admin: a signed-in administrator.
 * A route without a declaration refuses to register, so none can be forgotten.
 */
export type RoutePermission = 'public' | 'reader' | 'user' | 'admin';

export const ROUTE_PERMISSIONS: readonly RoutePermission[] = ['public', 'reader', 'user', 'admin'];

/**
 * `config: { reach: 'many' }` declares that a route acts on more than the item its URL or
 * body names: a folder and everything below it, a recursive flag, a list of items, content
 * found by checksum. Such a route checks every item it touches through the item walker
 * (server/modules/access-control/subtree-walk.ts), and tests/excluded-child.test.ts runs it
 * as a caller whose grant excludes one item below its target (docs/access-control.md).
 */
export type RouteReach = 'many';

export interface Principal {
  /** Undefined for the anonymous user. */
  userId?: number;
  name: string;
  admin: boolean;
  anonymous: boolean;
  /** How the caller proved who it is: CSRF protection applies to the session cookie only. */
  via: 'session' | 'basic' | 'token' | 'apiKey' | 'none';
  /**
   * A group-scoped access token's groups: its permissions are theirs only, whatever groups
   * a user of that name belongs to (docs/access-tokens.md).
   */
  groups?: readonly string[];
  csrfToken?: string;
  sessionToken?: string;
  /** When the token it proved itself with expires (ms since the epoch), for a token. */
  expiresAt?: number;
}

/**
 * Whether a principal holds a permission: the identity plugin enforces routes' permissions
 * with it, and code that offers actions (the tree's action list) asks it through
 * `request.holds`, so what is offered and what is allowed never drift apart.
 */
export function holdsPermission(
  permission: RoutePermission,
  principal: Principal,
  anonAccessEnabled: boolean,
): boolean {
  if (permission === 'public') return true;
  if (principal.anonymous) return permission === 'reader' && anonAccessEnabled;
  return permission !== 'admin' || principal.admin;
}

/**
 * Whether the caller proved itself with its password: a console session (opened by a
 * password sign-in) or basic auth with the password. A token or API key stands in for the
 * user without being it, and may not create, show or change credentials
 * (docs/security.md, "Credentials").
 */
export function signedInWithPassword(principal: Pick<Principal, 'via'>): boolean {
  return principal.via === 'session' || principal.via === 'basic';
}

export const ANONYMOUS: Principal = {
  name: 'anonymous',
  admin: false,
  anonymous: true,
  via: 'none',
};

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
    reach?: RouteReach;
    /** The entity a schema-engine route serves (server/modules/entities/routes.ts). */
    entity?: string;
  }
  interface FastifyRequest {
    principal: Principal;
    /** Whether the caller would pass a route declaring `permission`. */
    holds(permission: RoutePermission): Promise<boolean>;
  }
}
