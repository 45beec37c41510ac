import type { FastifyInstance, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { BadRequest, Forbidden } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { Services } from '../../services.ts';
import { NPM_MESSAGES as M } from './messages.ts';

type RepoRequest<T = object> = FastifyRequest<{ Params: { repoKey: string } & T }>;

const PREFIX = '/:repoKey';
const user = { config: { permission: 'user' as const } };
const reader = { config: { permission: 'reader' as const } };

interface TokenCreateBody {
  password?: unknown;
  readonly?: unknown;
  cidr_whitelist?: unknown;
  name?: unknown;
  token_description?: unknown;
  description?: unknown;
  expires?: unknown;
}

/** The days npm's `--expires` asks for, as seconds; the Access API's default otherwise. */
function expiresInOf(expires: unknown): number | undefined {
  if (expires === undefined || expires === null) return undefined;
  const days = Number(expires);
  if (!Number.isInteger(days) || days < 1) throw new BadRequest(M.tokenExpires);
  return days * 24 * 3600;
}

/**
 * npm's account commands against Depot's own accounts (docs/npm.md, "Account commands"):
 * `npm token list|create|revoke` (Depot's access tokens), `npm profile get`, `npm stars`.
 */
export function registerAccountRoutes(app: FastifyInstance, services: Services) {
  const { tokens } = services;

  app.get(`${PREFIX}/-/npm/v1/tokens`, user, async (request) => {
    const own = (await tokens.list({ ...request.principal, admin: false })).map((token) => ({
      key: token.token_id,
      // Every Depot token begins with its JWT header; no part of a secret is shown.
      token: 'eyJ',
      name: token.description,
      created: new Date(token.issued_at * 1000).toISOString(),
      ...(token.expiry ? { expires: new Date(token.expiry * 1000).toISOString() } : {}),
      readonly: false,
      cidr_whitelist: null,
    }));
    return { objects: own, total: own.length, urls: {} };
  });

  // npm asks for the password: a token is made on the strength of it, as a password sign-in.
  app.post(`${PREFIX}/-/npm/v1/tokens`, user, async (request: RepoRequest) => {
    const body = (request.body ?? {}) as TokenCreateBody;
    if (typeof body.password !== 'string') throw new BadRequest(M.tokenNeedsPassword);
    if (body.readonly === true) throw new BadRequest(M.tokenReadOnly);
    if (Array.isArray(body.cidr_whitelist) && body.cidr_whitelist.length > 0)
      throw new BadRequest(M.tokenCidr);
    const name = request.principal.name;
    const password = body.password;
    const signedIn = await app.signInThrottled(request.ip, name, () =>
      services.auth.authenticateBasic(name, password, request.ip),
    );
    const issuer: Principal = {
      userId: signedIn.id,
      name: signedIn.name,
      admin: signedIn.admin,
      anonymous: false,
      via: 'basic',
    };
    const description = [body.name, body.token_description, body.description].find(
      (text): text is string => typeof text === 'string' && text !== '',
    );
    const created = await tokens.create(issuer, {
      expiresIn: expiresInOf(body.expires),
      description: description ?? 'npm token create',
    });
    request.log.info({ tokenId: created.token_id, by: name }, 'npm: token created');
    const now = new Date().toISOString();
    return {
      token: created.access_token,
      key: created.token_id,
      name: description ?? '',
      created: now,
      updated: now,
      readonly: false,
      cidr_whitelist: null,
      ...(created.expires_in
        ? { expires: new Date(Date.now() + created.expires_in * 1000).toISOString() }
        : {}),
    };
  });

  // By id (npm token revoke <id>) or by the whole token; only the caller's own.
  app.delete(
    `${PREFIX}/-/npm/v1/tokens/token/:key`,
    user,
    async (request: RepoRequest<{ key: string }>, reply) => {
      let id = request.params.key;
      if (id.startsWith('eyJ')) {
        try {
          id = decodeJwt(id).jti ?? id;
        } catch {
          throw new BadRequest(M.notAToken);
        }
      }
      await tokens.revoke({ ...request.principal, admin: false }, id);
      request.log.info({ tokenId: id, by: request.principal.name }, 'npm: token revoked');
      return reply.status(204).send();
    },
  );

  app.get(`${PREFIX}/-/npm/v1/user`, user, async (request) => {
    const profile = await services.users.get(request.principal.name);
    return {
      name: profile.name,
      email: profile.email,
      // Depot does not verify addresses; two-factor sign-in is the console's (MFA).
      email_verified: false,
      tfa: profile.mfaEnrolled ? { pending: false, mode: 'auth-only' } : false,
      fullname: '',
      homepage: '',
      created: '',
      updated: '',
    };
  });

  // `npm stars [user]`: `?key="name"`, a JSON string as CouchDB's views take it.
  app.get(
    `${PREFIX}/-/_view/starredByUser`,
    reader,
    async (
      request: FastifyRequest<{ Params: { repoKey: string }; Querystring: { key?: string } }>,
    ) => {
      let userName: unknown;
      try {
        userName = JSON.parse(request.query.key ?? '');
      } catch {
        userName = undefined;
      }
      if (typeof userName !== 'string' || !userName) throw new BadRequest(M.starsNeedUser);
      const names = await services.npmPeople.starredBy(request.params.repoKey, userName, {
        principal: request.principal,
        log: request.log,
      });
      return { rows: names.map((name) => ({ key: userName, value: name })) };
    },
  );

  registerAccessRoutes(app, services);
}

/**
 * `npm access`: what Depot's permissions say, read-only. Who may do what is set with
 * permission targets, so the commands that change access answer how to do it there.
 */
function registerAccessRoutes(app: FastifyInstance, services: Services) {
  const caller = (request: FastifyRequest) => ({ principal: request.principal, log: request.log });

  const packagesOf = async (request: RepoRequest<{ user: string }>) => {
    const asked = request.params.user;
    const self = asked.toLowerCase() === request.principal.name.toLowerCase();
    if (!self && !request.principal.admin) throw new Forbidden(M.othersAccess);
    const principal = self ? request.principal : await principalOf(services, asked);
    return services.npmPeople.accessOf(request.params.repoKey, principal, caller(request));
  };
  app.get(`${PREFIX}/-/user/:user/package`, user, packagesOf);
  app.get(`${PREFIX}/-/org/:user/package`, user, packagesOf);

  app.get(`${PREFIX}/-/team/*`, user, async () => {
    throw new BadRequest(M.accessManagedInDepot);
  });
  for (const method of ['post', 'put', 'delete'] as const) {
    app[method](`${PREFIX}/-/team/*`, user, async () => {
      throw new BadRequest(M.accessManagedInDepot);
    });
  }
}

/** A user as a principal, to ask the access rules what they may do. */
async function principalOf(services: Services, name: string): Promise<Principal> {
  const found = await services.users.get(name);
  const userId = await services.users.findId(name);
  return { userId, name: found.name, admin: found.admin, anonymous: false, via: 'basic' };
}
