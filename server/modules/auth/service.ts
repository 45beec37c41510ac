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
import { hashPassword, verifyPassword } from './password.ts';
import { VerifiedPasswords } from './verified-passwords.ts';

const REMEMBERED_SESSION_MS = 14 * 24 * 3600 * 1000;
const BROWSER_SESSION_MS = 12 * 3600 * 1000;
// Hashed once so that an unknown user costs as much as a wrong password (no user probing).
const DECOY_HASH = hashPassword(randomBytes(16).toString('hex'));

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
  changes?: TableChanges,
) {
  /**
   * Counts a failed attempt (a wrong password or MFA code) and locks the account when the
   * policy says so. Counted in SQL, so parallel attempts each count.
   */
  async function recordFailure(userId: number): Promise<boolean> {
    const { userLockPolicy } = await securityConfig.get();
    const row = await db
      .updateTable('users')
      .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
      .where('id', '=', userId)
      .returning('failed_logins')
      .executeTakeFirst();
    const locked = Boolean(
      row && userLockPolicy.enabled && row.failed_logins >= userLockPolicy.loginAttempts,
    );
    if (locked) {
      await db.updateTable('users').set({ locked: true }).where('id', '=', userId).execute();
    }
    return locked;
  }

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

  /** A sign-in that cached credentials settle: known user, password verified before, nothing to record. */
  async function cachedSuccess(name: string, password: string, allowExpired: boolean) {
    if (!changes) return undefined;
    const user = await credentials.get(name.toLowerCase(), async () =>
      deepFreeze(await findCredentials(db, name)),
    );
    const clean =
      user?.password_hash &&
      !user.internal_password_disabled &&
      !user.locked &&
      user.failed_logins === 0 &&
      (allowExpired || !(await isExpired(user)));
    return clean && verified.has(user.password_hash!, password) ? user : undefined;
  }

  /** Checks a name and password; `allowExpired` serves the change-password path. */
  async function checkPassword(name: string, password: string, allowExpired = false) {
    const known = await cachedSuccess(name, password, allowExpired);
    if (known) return known;
    // Everything else reads fresh rows: failures count attempts and may lock the account.
    const user = await findCredentials(db, name);
    if (!user || !user.password_hash || user.internal_password_disabled) {
      await verifyPassword(password, await DECOY_HASH);
      throw new Unauthorized(AUTH_MESSAGES.badCredentials);
    }
    if (user.locked) throw new Unauthorized(AUTH_MESSAGES.locked);
    if (!(await passwordMatches(password, user.password_hash))) {
      const nowLocked = await recordFailure(user.id);
      throw new Unauthorized(nowLocked ? AUTH_MESSAGES.locked : AUTH_MESSAGES.badCredentials);
    }
    if (user.failed_logins > 0) {
      await db.updateTable('users').set({ failed_logins: 0 }).where('id', '=', user.id).execute();
    }
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
    async authenticateBasic(name: string, password: string): Promise<AuthenticatedUser> {
      return toAuthenticated(await checkPassword(name, password));
    },

    recordFailedAttempt: recordFailure,

    /**
     * Console sign-in's first factor: the password, and UI access. It opens no session:
     * `openSession` does, now or after the MFA code.
     */
    async checkSignIn(name: string, password: string): Promise<AuthenticatedUser> {
      const user = await checkPassword(name, password);
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
        .select(['id', 'name', 'disable_ui_access', 'locked'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!row || row.locked || row.disable_ui_access) return undefined;
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
        .select([
          'users.id',
          'users.name',
          'users.disable_ui_access',
          'users.locked',
          'sessions.csrf_token',
        ])
        .where('sessions.id', '=', sessionId(token))
        .where('sessions.expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      if (!row || row.locked || row.disable_ui_access) return undefined;
      return { user: await toAuthenticated(row), csrfToken: row.csrf_token };
    },

    async endSession(token: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sessionId(token)).execute();
    },

    /** Changes a password knowing the current one; works for an expired password too. */
    async changePassword(name: string, oldPassword: string, newPassword: string, retyped: string) {
      if (newPassword !== retyped)
        throw new BadRequest(AUTH_MESSAGES.passwordsDiffer, 'newPassword2');
      const { passwordPolicy } = await securityConfig.get();
      if (newPassword === oldPassword) {
        throw new BadRequest(AUTH_MESSAGES.passwordUnchanged, 'newPassword1');
      }
      const user = await checkPassword(name, oldPassword, true);
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
