import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { BadRequest, Forbidden, Unauthorized } from '../../errors.ts';
import type { SecurityConfigService } from '../security-config/service.ts';
import { findCredentials, isEffectiveAdmin } from '../users/queries.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import { createReadCache, deepFreeze } from '../../cache/read-cache.ts';
import { AUTH_MESSAGES, CREDENTIALS_EXPIRED } from './messages.ts';
import {
  assertPasswordAllowed,
  passwordAged,
  rememberReplacedPassword,
} from './password-policy.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password.ts';
import type { SignInLocks } from './sign-in-locks.ts';
import { VerifiedPasswords } from './verified-passwords.ts';

const REMEMBERED_SESSION_MS = 14 * 24 * 3600 * 1000;
const BROWSER_SESSION_MS = 12 * 3600 * 1000;
// Checked for an unknown user, so that it costs as much as a wrong password (no user probing).
const DECOY_HASH = decoyPasswordHash();

export interface AuthenticatedUser {
  id: number;
  name: string;
  admin: boolean;
  disableUIAccess: boolean;
}

export interface NewSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

const sessionId = (token: string) => createHash('sha256').update(token).digest('hex');

type Credentials = NonNullable<Awaited<ReturnType<typeof findCredentials>>>;

export function createAuthService(
  db: Database,
  securityConfig: SecurityConfigService,
  locks: SignInLocks,
  changes?: TableChanges,
) {
  /** Expired by an admin, or aged past the policy's expiry days. */
  async function isExpired(user: { password_expired: boolean; password_changed_at: Date }) {
    if (user.password_expired) return true;
    return passwordAged(user.password_changed_at, (await securityConfig.get()).passwordPolicy);
  }

  const verified = new VerifiedPasswords();

  async function passwordMatches(password: string, storedHash: string): Promise<boolean> {
    if (verified.has(storedHash, password)) return true;
    const matches = await verifyPassword(password, storedHash);
    if (matches) verified.remember(storedHash, password);
    return matches;
  }

  // Basic auth reads a user's credentials on every request: keep them briefly, drop them
  // on any write to users or groups. Only the plain success path uses them (below).
  const credentials = createReadCache<string, Credentials | undefined>({
    ttlMs: 5000,
    maxEntries: 10000,
  });
  changes?.onChange(['users', 'groups', 'user_groups'], credentials.clear);

  /** A sign-in that cached credentials settle: known user, password verified before. */
  async function cachedSuccess(name: string, password: string, allowExpired: boolean) {
    if (!changes) return undefined;
    const user = await credentials.get(name.toLowerCase(), async () =>
      deepFreeze(await findCredentials(db, name)),
    );
    const clean =
      user?.password_hash &&
      !user.internal_password_disabled &&
      (allowExpired || !(await isExpired(user)));
    return clean && verified.has(user.password_hash!, password) ? user : undefined;
  }

  /**
   * Checks a name and password from a client address; `allowExpired` serves the
   * change-password path. While the name is locked at that address nothing is checked, and a
   * name no user has fails, counts and locks exactly as a user's does (no user probing).
   */
  async function checkPassword(
    name: string,
    password: string,
    address: string,
    allowExpired = false,
  ) {
    if (await locks.isLocked(name, address)) throw new Unauthorized(AUTH_MESSAGES.locked);
    const user =
      (await cachedSuccess(name, password, allowExpired)) ?? (await findCredentials(db, name));
    const usable = user?.password_hash && !user.internal_password_disabled;
    const matches = usable
      ? await passwordMatches(password, user.password_hash!)
      : await verifyPassword(password, DECOY_HASH).then(() => false);
    if (!user || !matches) {
      const nowLocked = await locks.failed(name, address);
      throw new Unauthorized(nowLocked ? AUTH_MESSAGES.locked : AUTH_MESSAGES.badCredentials);
    }
    await locks.succeeded(name, address);
    if (!allowExpired && (await isExpired(user))) {
      throw new Unauthorized(AUTH_MESSAGES.credentialsExpired, CREDENTIALS_EXPIRED);
    }
    return user;
  }

  async function toAuthenticated(user: {
    id: number;
    name: string;
    disable_ui_access: boolean;
    effective_admin?: boolean | number | null;
  }) {
    return {
      id: user.id,
      name: user.name,
      // Sign-in and basic auth read it with the credentials; sessions ask separately.
      admin:
        user.effective_admin === undefined || user.effective_admin === null
          ? await isEffectiveAdmin(db, user.id)
          : Boolean(user.effective_admin),
      disableUIAccess: user.disable_ui_access,
    };
  }

  return {
    /** Basic auth for API clients: UI access being disabled does not matter here. */
    async authenticateBasic(
      name: string,
      password: string,
      address: string,
    ): Promise<AuthenticatedUser> {
      return toAuthenticated(await checkPassword(name, password, address));
    },

    /**
     * Console sign-in's first factor: the password, and UI access. It opens no session:
     * `openSession` does, now or after the MFA code.
     */
    async checkSignIn(name: string, password: string, address: string): Promise<AuthenticatedUser> {
      const user = await checkPassword(name, password, address);
      if (user.disable_ui_access) throw new Forbidden(AUTH_MESSAGES.uiAccessDisabled);
      return toAuthenticated(user);
    },

    /** Signs a checked user in: a new session, and the last sign-in time. */
    async openSession(userId: number, remember: boolean): Promise<NewSession> {
      await db
        .updateTable('users')
        .set({ last_logged_in: new Date() })
        .where('id', '=', userId)
        .execute();
      return this.createSession(userId, remember);
    },

    /** The user a pending MFA sign-in is for, if it may still sign in. */
    async userForSignIn(userId: number): Promise<AuthenticatedUser | undefined> {
      const row = await db
        .selectFrom('users')
        .select(['id', 'name', 'disable_ui_access'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!row || row.disable_ui_access) return undefined;
      return toAuthenticated(row);
    },

    async createSession(userId: number, remember: boolean): Promise<NewSession> {
      const token = randomBytes(32).toString('base64url');
      const csrfToken = randomBytes(24).toString('base64url');
      const now = Date.now();
      const expiresAt = new Date(now + (remember ? REMEMBERED_SESSION_MS : BROWSER_SESSION_MS));
      await db
        .insertInto('sessions')
        .values({
          id: sessionId(token),
          user_id: userId,
          csrf_token: csrfToken,
          expires_at: expiresAt,
          last_seen_at: new Date(now),
        })
        .execute();
      return { token, csrfToken, expiresAt };
    },

    /** The user behind a session cookie, or undefined when it is unknown or expired. */
    async resolveSession(token: string) {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id', 'users.name', 'users.disable_ui_access', 'sessions.csrf_token'])
        .where('sessions.id', '=', sessionId(token))
        .where('sessions.expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      // A sign-in lock does not end a session: failures of someone else's guesses must not.
      if (!row || row.disable_ui_access) return undefined;
      return { user: await toAuthenticated(row), csrfToken: row.csrf_token };
    },

    async endSession(token: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sessionId(token)).execute();
    },

    /** Changes a password knowing the current one; works for an expired password too. */
    async changePassword(
      name: string,
      oldPassword: string,
      newPassword: string,
      retyped: string,
      address: string,
    ) {
      if (newPassword !== retyped)
        throw new BadRequest(AUTH_MESSAGES.passwordsDiffer, 'newPassword2');
      const { passwordPolicy } = await securityConfig.get();
      if (newPassword === oldPassword) {
        throw new BadRequest(AUTH_MESSAGES.passwordUnchanged, 'newPassword1');
      }
      const user = await checkPassword(name, oldPassword, address, true);
      await assertPasswordAllowed(db, passwordPolicy, newPassword, 'newPassword1', {
        id: user.id,
        currentHash: user.password_hash,
      });
      await this.setPassword(user.id, user.password_hash, newPassword);
      // Other sessions of this user were opened with the old password: end them.
      await db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    },

    /** Stores a new password (already checked against the policy) and restarts its expiry clock. */
    async setPassword(userId: number, oldHash: string | null, newPassword: string) {
      const passwordHash = await hashPassword(newPassword);
      await db.transaction().execute(async (tx) => {
        await rememberReplacedPassword(tx, userId, oldHash);
        await tx
          .updateTable('users')
          .set({
            password_hash: passwordHash,
            password_expired: false,
            password_changed_at: new Date(),
          })
          .where('id', '=', userId)
          .execute();
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
