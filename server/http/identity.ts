import { noteCaller } from '../logs/request-log.ts';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DepotError, Forbidden, SessionEnded, Unauthorized, UserChanged } from '../errors.ts';
import {
  CONSOLE_USER_HEADER,
  SESSION_ENDED_MESSAGE,
  USER_CHANGED_MESSAGE,
  consoleUserMismatch,
} from './console-user.ts';
import { AUTH_MESSAGES } from '../modules/auth/messages.ts';
import type { AuthService } from '../modules/auth/service.ts';
import type { SecurityConfigService } from '../modules/security-config/service.ts';
import type { ApiKeysService } from '../modules/access-tokens/api-keys.ts';
import type { AccessTokensService } from '../modules/access-tokens/service.ts';
import type { SignInThrottle } from '../modules/auth/sign-in-throttle.ts';
import type { KnownCallers } from './known-callers.ts';
import {
  ANONYMOUS,
  holdsPermission,
  ROUTE_PERMISSIONS,
  type Principal,
  type RouteReach,
  type RoutePermission,
} from './permissions.ts';

export const SESSION_COOKIE = 'depot_session';
export const CSRF_COOKIE = 'depot_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Every route with what it needs: the route matrix test and schemas:check read it. */
export interface RouteEntry {
  method: string;
  url: string;
  permission: RoutePermission;
  /** 'many' when it acts on more than the item it names (permissions.ts, RouteReach). */
  reach?: RouteReach;
  /** The entity it serves, for a route the schema engine registers from a descriptor. */
  entity?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeCatalog: RouteEntry[];
    /** Runs a check of `account`'s password or code under the client address's sign-in throttle. */
    signInThrottled: <T>(address: string, account: string, check: () => Promise<T>) => Promise<T>;
    /**
     * Who a user name and password (or a token or API key in its place) prove the caller to
     * be, as basic auth would; `Unauthorized` when they prove nothing.
     */
    principalFromPassword: (name: string, password: string, address: string) => Promise<Principal>;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface IdentityOptions {
  /** Headers proved here, for the download fast path (server/modules/artifacts/download-fast-path.ts). */
  knownCallers: KnownCallers;
  auth: AuthService;
  securityConfig: SecurityConfigService;
  tokens: AccessTokensService;
  apiKeys: ApiKeysService;
  throttle: SignInThrottle;
}

/** Compares tokens in constant time, so the comparison does not leak how much matched. */
function sameToken(given: string | string[] | undefined, expected: string | undefined): boolean {
  if (typeof given !== 'string' || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function parseBasic(header: string): { name: string; password: string } | undefined {
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { name: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * The one place every request is authenticated and authorized: it works out who the caller
 * is (basic auth, else the session cookie, else anonymous), enforces CSRF on mutating
 * cookie-authenticated calls, and checks the permission the route declared.
 */
export const identityPlugin = fp<IdentityOptions>(
  async (
    app: FastifyInstance,
    { knownCallers, auth, securityConfig, tokens, apiKeys, throttle },
  ) => {
    app.decorateRequest('principal', null as unknown as Principal);
    app.decorateRequest('holds', function (this: FastifyRequest, permission: RoutePermission) {
      return holds(permission, this.principal);
    });

    const catalog: RouteEntry[] = [];
    app.decorate('routeCatalog', catalog);
    app.addHook('onRoute', (route) => {
      const permission = route.config?.permission;
      if (!permission || !ROUTE_PERMISSIONS.includes(permission)) {
        throw new Error(`Route ${route.method} ${route.url} declares no permission`);
      }
      const reach = route.config?.reach;
      if (reach !== undefined && reach !== 'many')
        throw new Error(`Route ${route.method} ${route.url} declares an unknown reach '${reach}'`);
      const entity = route.config?.entity;
      for (const method of [route.method].flat())
        catalog.push({
          method,
          url: route.url,
          permission,
          ...(reach ? { reach } : {}),
          ...(entity ? { entity } : {}),
        });
    });

    /** A token or key stands in for the user it belongs to; a name given with it must match. */
    function standIn(
      identity: {
        userId?: number;
        name: string;
        admin: boolean;
        groups?: string[];
        expiresAt?: number;
      },
      via: 'token' | 'apiKey',
      claimedName?: string,
    ): Principal {
      if (claimedName !== undefined && claimedName.toLowerCase() !== identity.name.toLowerCase())
        throw new Unauthorized(AUTH_MESSAGES.badCredentials);
      return {
        userId: identity.userId,
        name: identity.name,
        admin: identity.admin,
        anonymous: false,
        via,
        ...(identity.groups ? { groups: identity.groups } : {}),
        ...(identity.expiresAt ? { expiresAt: identity.expiresAt } : {}),
      };
    }

    /**
     * A password check under the address's sign-in throttle: failures count, and a success
     * forgives the failures against that same account only (sign-in-throttle.ts says why).
     */
    async function throttled<T>(
      address: string,
      account: string,
      check: () => Promise<T>,
    ): Promise<T> {
      throttle.check(address);
      try {
        const result = await check();
        throttle.succeeded(address, account);
        return result;
      } catch (error) {
        if (error instanceof Unauthorized) throttle.failed(address, account);
        throw error;
      }
    }
    app.decorate('signInThrottled', throttled);

    async function fromPassword(name: string, password: string, address: string) {
      // Clients put tokens and API keys where the password goes (npm, pip, Maven, curl -u).
      if (tokens.looksLikeToken(password)) {
        const identity = await tokens.authenticate(password);
        return standIn(identity, 'token', name || undefined);
      }
      if (apiKeys.looksLikeKey(password)) {
        const identity = await apiKeys.authenticate(password);
        return standIn(identity, 'apiKey', name);
      }
      const user = await throttled(address, name, () =>
        auth.authenticateBasic(name, password, address),
      );
      const principal: Principal = {
        userId: user.id,
        name: user.name,
        admin: user.admin,
        anonymous: false,
        via: 'basic',
      };
      return principal;
    }
    app.decorate('principalFromPassword', fromPassword);

    async function identify(request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
      const authorization = request.headers.authorization;
      if (authorization?.startsWith('Bearer ')) {
        return standIn(await tokens.authenticate(authorization.slice(7).trim()), 'token');
      }
      const apiKeyHeader = request.headers['x-jfrog-art-api'];
      if (typeof apiKeyHeader === 'string' && !authorization) {
        return standIn(await apiKeys.authenticate(apiKeyHeader.trim()), 'apiKey');
      }
      if (authorization?.startsWith('Basic ')) {
        const credentials = parseBasic(authorization);
        if (!credentials) throw new Unauthorized(AUTH_MESSAGES.badCredentials);
        return fromPassword(credentials.name, credentials.password, request.ip);
      }
      if (authorization) throw new Unauthorized(AUTH_MESSAGES.badCredentials);
      const token = request.cookies[SESSION_COOKIE];
      if (token) {
        const session = await auth.resolveSession(token);
        if (session) {
          const { user, csrfToken } = session;
          return {
            userId: user.id,
            name: user.name,
            admin: user.admin,
            anonymous: false,
            via: 'session',
            csrfToken,
            sessionToken: token,
          };
        }
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
      }
      return ANONYMOUS;
    }

    app.addHook('onRequest', async (request, reply) => {
      const permission = request.routeOptions.config.permission;
      if (!permission) return; // 404 handler: nothing to protect
      request.principal = ANONYMOUS;
      try {
        request.principal = await identify(request, reply);
      } catch (error) {
        // Wrong basic credentials on a public route (sign-in page, ping) still get an answer.
        if (!(error instanceof DepotError) || permission !== 'public') throw error;
      }
      const principal = request.principal;
      noteCaller(request.raw, principal.name, request.ip);
      const { authorization } = request.headers;
      if (authorization && (principal.via === 'basic' || principal.via === 'token'))
        knownCallers.remember(authorization, principal);
      // Sign-in and other public calls are how a console learns its user again.
      if (permission !== 'public') checkConsoleUser(request, principal);
      if (principal.via === 'session' && !SAFE_METHODS.has(request.method)) {
        if (!sameToken(request.headers[CSRF_HEADER], principal.csrfToken)) {
          throw new Forbidden(AUTH_MESSAGES.csrf);
        }
      }
      await authorize(permission, principal);
    });

    /** A console call made for a user the request no longer carries: 420 or 333. */
    function checkConsoleUser(request: FastifyRequest, principal: Principal) {
      const header = request.headers[CONSOLE_USER_HEADER];
      const consoleUser = Array.isArray(header) ? header[0] : header;
      const mismatch = consoleUserMismatch(consoleUser, principal);
      if (mismatch === 'ended') throw new SessionEnded(SESSION_ENDED_MESSAGE);
      if (mismatch === 'changed') throw new UserChanged(USER_CHANGED_MESSAGE);
    }

    async function holds(permission: RoutePermission, principal: Principal) {
      // The security settings are read only when they can matter: an anonymous reader.
      const anonAccessEnabled =
        principal.anonymous &&
        permission === 'reader' &&
        (await securityConfig.get()).anonAccessEnabled;
      return holdsPermission(permission, principal, anonAccessEnabled);
    }

    async function authorize(permission: RoutePermission, principal: Principal) {
      if (await holds(permission, principal)) return;
      if (principal.anonymous) throw new Unauthorized(AUTH_MESSAGES.authenticationRequired);
      throw new Forbidden(AUTH_MESSAGES.notAuthorized);
    }
  },
  { name: 'depot-identity', dependencies: ['@fastify/cookie'] },
);
