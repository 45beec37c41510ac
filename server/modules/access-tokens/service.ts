import { randomUUID } from 'node:crypto';
import { decodeJwt, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { ExpressionBuilder } from 'kysely';
import { createReadCache } from '../../cache/read-cache.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import { BadRequest, Forbidden, NotFound, Unauthorized } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import { isEffectiveAdmin } from '../users/queries.ts';
import { TOKEN_MESSAGES as M } from './messages.ts';
import { formatScope, parseScope, type TokenScope } from './scope.ts';

const ISSUER = 'depot';
const ALGORITHM = 'HS256';
/** JFrog's default: a token lives a year unless asked otherwise. */
export const DEFAULT_EXPIRES_IN = 365 * 24 * 3600;
/** Ten years: longer only without expiry, which admins alone may ask for (expires_in 0). */
export const MAX_EXPIRES_IN = 10 * 365 * 24 * 3600;

export interface TokenRequest {
  /** Whom the token acts as; the caller by default. */
  username?: string;
  scope?: string;
  /** Seconds; 0 means it never expires (admins only). */
  expiresIn?: number;
  description?: string;
  /**
   * Whether `expiresIn` is the API's default rather than the caller's ask: a token with less
   * time left then mints one cut to its own end instead of being refused.
   */
  defaultLifetime?: boolean;
}

export interface NewToken {
  token_id: string;
  access_token: string;
  expires_in?: number;
  scope: string;
  token_type: 'Bearer';
}

export interface TokenInfo {
  token_id: string;
  subject: string;
  scope: string;
  description: string;
  issuer: string;
  /** Epoch seconds. */
  issued_at: number;
  expiry?: number;
  refreshable: false;
}

/** Who a token acts as, for the identity plugin to make a principal of. */
export interface TokenIdentity {
  userId?: number;
  name: string;
  admin: boolean;
  /** Set for a group-scoped token: its permissions are these groups' only. */
  groups?: string[];
  /** When the token expires (ms since the epoch); undefined when it does not. */
  expiresAt?: number;
}

/** Whose tokens a non-admin caller may see and revoke: its user's, by id, never by name. */
function ownedBy(eb: ExpressionBuilder<DepotDatabase, 'access_tokens'>, caller: Principal) {
  return caller.userId !== undefined
    ? eb('user_id', '=', caller.userId)
    : eb.and([eb('subject', '=', caller.name), eb('user_id', 'is', null)]);
}

const looksLikeJwt = (value: string) => /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(value);

/** Whether a JWT's (unverified) payload names a token id and scope, as every access token does. */
function hasAccessTokenClaims(token: string): boolean {
  try {
    const claims = decodeJwt(token);
    return typeof claims.jti === 'string' && typeof claims.scp === 'string';
  } catch {
    return false;
  }
}

/** A group-scoped token asking for no scope gets its own: the default must not widen it. */
function requestedScope(issuer: Principal, scope: string | undefined): TokenScope {
  if (scope === undefined && issuer.via === 'token' && issuer.groups)
    return { kind: 'groups', groups: [...issuer.groups] };
  return parseScope(scope);
}

/** A group scope made only of groups the calling group-scoped token holds. */
function withinParentGroups(issuer: Principal, scope: TokenScope): boolean {
  return (
    issuer.via === 'token' &&
    issuer.groups !== undefined &&
    scope.kind === 'groups' &&
    scope.groups.every((group) => issuer.groups!.includes(group))
  );
}

/**
 * Whether a non-admin token may mint `scope`: a user-scoped token its user's scope, a
 * group-scoped one some of its groups. (A token acting as an administrator may do what an
 * administrator may; only its lifetime bounds what it mints.)
 */
function withinParentScope(issuer: Principal, scope: TokenScope): boolean {
  if (issuer.groups) return withinParentGroups(issuer, scope);
  return scope.kind === 'user';
}

/**
 * A token mints nothing that outlives it: asked for longer (or for no expiry), it is
 * refused; when the caller asked for nothing, the default is cut to the token's own end.
 * Tokens of Depot are not refreshable, so no refresh can carry one past it either.
 */
function withinParentLife(issuer: Principal, expiresIn: number, asked: boolean): number {
  if (issuer.via !== 'token' || issuer.expiresAt === undefined) return expiresIn;
  const left = Math.floor((issuer.expiresAt - Date.now()) / 1000);
  if (left < 1) throw new Unauthorized(M.invalidToken);
  if (expiresIn !== 0 && expiresIn <= left) return expiresIn;
  if (asked) throw new Forbidden(M.outlivesParent(left));
  return left;
}

/**
 * Access tokens (docs/access-tokens.md): signed JWTs (HS256, a key derived from the master
 * key) whose row makes them listable and revocable. Users create tokens for themselves;
 * administrators for anyone, admin-scoped or group-scoped, and without expiry.
 */
export function createAccessTokensService(deps: {
  db: Database;
  secrets: SecretBox;
  changes: TableChanges;
}) {
  const { db } = deps;
  const key = deps.secrets.deriveKey('depot access tokens v1');
  // A token is checked on every request that carries it: keep its row until tokens or users
  // change (deleting a user deletes its tokens through the foreign key, unseen by the plugin).
  const rows = createReadCache<string, { revoked: boolean; userId: number | null } | undefined>({
    ttlMs: 30_000,
    maxEntries: 10_000,
  });
  deps.changes.onChange(['access_tokens', 'users'], rows.clear);

  async function userNamed(name: string) {
    return db
      .selectFrom('users')
      .select(['id', 'name'])
      .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
      .executeTakeFirst();
  }

  const userWithId = (id: number) =>
    db.selectFrom('users').select(['id', 'name']).where('id', '=', id).executeTakeFirst();

  async function checkRequest(issuer: Principal, request: TokenRequest) {
    const subject = request.username ?? issuer.name;
    const scope = requestedScope(issuer, request.scope);
    if (!issuer.admin) {
      if (subject.toLowerCase() !== issuer.name.toLowerCase())
        throw new Forbidden(M.othersTokensOnlyForAdmins);
      if (scope.kind !== 'user' && !withinParentGroups(issuer, scope))
        throw new Forbidden(M.adminScopeOnly);
    }
    if (issuer.via === 'token' && !issuer.admin && !withinParentScope(issuer, scope))
      throw new Forbidden(M.widerThanParent);
    const asked = request.expiresIn ?? DEFAULT_EXPIRES_IN;
    if (!Number.isInteger(asked) || asked < 0)
      throw new BadRequest(M.tooLong(MAX_EXPIRES_IN), 'expires_in');
    if (asked > MAX_EXPIRES_IN) throw new BadRequest(M.tooLong(MAX_EXPIRES_IN), 'expires_in');
    if (asked === 0 && !issuer.admin) throw new Forbidden(M.adminScopeOnly);
    const expiresIn = withinParentLife(
      issuer,
      asked,
      request.expiresIn !== undefined && !request.defaultLifetime,
    );
    const user = await userNamed(subject);
    if (scope.kind === 'user' && !user) throw new BadRequest(M.unknownUser(subject), 'username');
    if (scope.kind === 'groups') await checkGroups(scope.groups);
    return { subject: user?.name ?? subject, userId: user?.id ?? null, scope, expiresIn };
  }

  async function checkGroups(groups: string[]) {
    const found = await db
      .selectFrom('groups')
      .select('name')
      .where('name', 'in', groups)
      .execute();
    const known = new Set(found.map((row) => row.name));
    const missing = groups.find((group) => !known.has(group));
    if (missing !== undefined) throw new BadRequest(M.unknownGroup(missing), 'scope');
  }

  /**
   * Who a token acts as. A bound token (`userId`) acts as that user, found by id: when the
   * user is gone, so is the token, whatever user has its name now. An unbound one (a
   * group-scoped or admin token for a name that was no user) acts under its subject only.
   */
  async function identityOf(
    userId: number | null,
    subject: string,
    scope: TokenScope,
  ): Promise<TokenIdentity> {
    const user = userId === null ? undefined : await userWithId(userId);
    if (userId !== null && user?.name.toLowerCase() !== subject.toLowerCase())
      throw new Unauthorized(M.invalidToken);
    if (scope.kind === 'user') {
      if (!user) throw new Unauthorized(M.invalidToken);
      return { userId: user.id, name: user.name, admin: await isEffectiveAdmin(db, user.id) };
    }
    if (scope.kind === 'admin')
      return { userId: user?.id, name: user?.name ?? subject, admin: true };
    const admins = await db
      .selectFrom('groups')
      .select('name')
      .where('name', 'in', scope.groups)
      .where('admin_privileges', '=', true)
      .execute();
    return { name: user?.name ?? subject, admin: admins.length > 0, groups: scope.groups };
  }

  return {
    looksLikeToken: looksLikeJwt,

    async create(issuer: Principal, request: TokenRequest): Promise<NewToken> {
      const { subject, userId, scope, expiresIn } = await checkRequest(issuer, request);
      const id = randomUUID();
      const now = Math.floor(Date.now() / 1000);
      let jwt = new SignJWT({ scp: formatScope(scope) })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setIssuer(ISSUER)
        .setSubject(subject)
        .setJti(id)
        .setIssuedAt(now);
      if (expiresIn > 0) jwt = jwt.setExpirationTime(now + expiresIn);
      const accessToken = await jwt.sign(key);
      await db
        .insertInto('access_tokens')
        .values({
          id,
          subject,
          user_id: userId,
          scope: formatScope(scope),
          description: request.description ?? '',
          issued_by: issuer.name,
          expires_at: expiresIn > 0 ? new Date((now + expiresIn) * 1000) : null,
        })
        .execute();
      return {
        token_id: id,
        access_token: accessToken,
        ...(expiresIn > 0 ? { expires_in: expiresIn } : {}),
        scope: formatScope(scope),
        token_type: 'Bearer',
      };
    },

    /** Live tokens (not revoked, not expired): all of them for admins, else the caller's own. */
    async list(caller: Principal): Promise<TokenInfo[]> {
      let query = db
        .selectFrom('access_tokens')
        .selectAll()
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
        .orderBy('created_at', 'desc');
      if (!caller.admin) query = query.where((eb) => ownedBy(eb, caller));
      return (await query.execute()).map((row) => ({
        token_id: row.id,
        subject: row.subject,
        scope: row.scope,
        description: row.description,
        issuer: row.issued_by,
        issued_at: Math.floor(row.created_at.getTime() / 1000),
        ...(row.expires_at ? { expiry: Math.floor(row.expires_at.getTime() / 1000) } : {}),
        refreshable: false,
      }));
    },

    /** Revokes a token; another user's is "not found" to a non-admin, who may not see it. */
    async revoke(caller: Principal, id: string): Promise<void> {
      let query = db
        .updateTable('access_tokens')
        .set({ revoked_at: new Date() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null);
      if (!caller.admin) query = query.where((eb) => ownedBy(eb, caller));
      const result = await query.executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw new NotFound(M.notFound(id));
    },

    /** Who a presented token acts as; 401 for anything but a live token of this instance. */
    async authenticate(token: string): Promise<TokenIdentity> {
      // Other JWTs come as Bearer too (the registry's own tokens on every pull): one without
      // an access token's claims is refused before its signature costs an HMAC.
      if (!hasAccessTokenClaims(token)) throw new Unauthorized(M.invalidToken);
      let claims;
      try {
        ({ payload: claims } = await jwtVerify(token, key, {
          issuer: ISSUER,
          algorithms: [ALGORITHM],
        }));
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) throw new Unauthorized(M.invalidToken);
        throw error;
      }
      const id = claims.jti;
      if (!id || !claims.sub || typeof claims.scp !== 'string')
        throw new Unauthorized(M.invalidToken);
      const row = await rows.get(id, async () => {
        const found = await db
          .selectFrom('access_tokens')
          .select(['revoked_at', 'user_id'])
          .where('id', '=', id)
          .executeTakeFirst();
        return found && { revoked: found.revoked_at !== null, userId: found.user_id };
      });
      if (!row || row.revoked) throw new Unauthorized(M.invalidToken);
      const identity = await identityOf(row.userId, claims.sub, parseScope(claims.scp));
      return claims.exp === undefined ? identity : { ...identity, expiresAt: claims.exp * 1000 };
    },
  };
}

export type AccessTokensService = ReturnType<typeof createAccessTokensService>;
