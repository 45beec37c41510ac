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

export interface Principal {
  /** Undefined for the anonymous user. */
  userId?: number;
  name: string;
  admin: boolean;
  anonymous: boolean;
  /** How the caller proved who it is: CSRF protection applies to the session cookie only. */
  via: 'session' | 'basic' | 'none';
  csrfToken?: string;
  sessionToken?: string;
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
  }
  interface FastifyRequest {
    principal: Principal;
  }
}
