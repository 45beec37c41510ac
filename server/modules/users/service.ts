import type { Database } from '../../db/database.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { hashPassword } from '../auth/password.ts';
import { assertPasswordAllowed, rememberReplacedPassword } from '../auth/password-policy.ts';
import type { SecurityConfigService } from '../security-config/service.ts';
import type { Principal } from '../../http/permissions.ts';
import { requirePasswordSignIn } from '../auth/password-sign-in.ts';
import type { SignInLocks } from '../auth/sign-in-locks.ts';
import * as q from './queries.ts';
import { createReadCache } from '../../cache/read-cache.ts';
import type { TableChanges } from '../../db/table-changes.ts';

/** A user as the console and the REST API show it; the password never leaves the server. */
export interface UserView {
  name: string;
  email: string;
  admin: boolean;
  profileUpdatable: boolean;
  disableUIAccess: boolean;
  internalPasswordDisabled: boolean;
  groups: string[];
  realm: string;
  lastLoggedIn: string | null;
  locked: boolean;
  passwordExpired: boolean;
  mfaEnrolled: boolean;
}

export interface UserInput {
  name: string;
  email: string;
  password?: string;
  admin?: boolean;
  profileUpdatable?: boolean;
  disableUIAccess?: boolean;
  internalPasswordDisabled?: boolean;
  groups?: string[];
}

/**
 * Who asks for a change: the rules about one's own account need to know. `via` is how a
 * request's caller signed in; calls from inside the server leave it out.
 */
export interface CreateOptions {
  passwordExpired?: boolean;
  /** Created without a password: one is chosen from the mailed invitation's link. */
  invited?: boolean;
  /**
   * The password as a hash already made (DEPOT_ADMIN_PASSWORD_HASH at first start): stored
   * as it is, so the password policy cannot be applied to it.
   */
  passwordHash?: string;
}

export interface Actor {
  name: string;
  via?: Principal['via'];
}

export function toUserView(row: q.UserRow): UserView {
  return {
    name: row.name,
    email: row.email.toLowerCase(),
    admin: row.admin,
    profileUpdatable: row.profile_updatable,
    disableUIAccess: row.disable_ui_access,
    internalPasswordDisabled: row.internal_password_disabled,
    groups: [...(row.group_names ?? [])], // a copy: the listed rows are cached
    realm: row.realm,
    lastLoggedIn: row.last_logged_in ? new Date(row.last_logged_in).toISOString() : null,
    locked: Boolean(row.locked),
    passwordExpired: row.password_expired,
    mfaEnrolled: row.mfa_secret !== null,
  };
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function createUsersService(
  db: Database,
  securityConfig: SecurityConfigService,
  locks: SignInLocks,
  changes?: TableChanges,
) {
  // The users list, asked by scripts and the console again and again, kept until a user,
  // group, membership or sign-in lock changes (5 s at most, for a cluster's lost notice).
  // Not while a user is locked: the lock ends with time, with no write to announce it.
  const listCache = createReadCache<'all', q.UserRow[]>({ ttlMs: 5000, maxEntries: 1 });
  changes?.onChange(['users', 'groups', 'user_groups', 'sign_in_locks'], listCache.clear);

  async function listRows(): Promise<q.UserRow[]> {
    if (!changes) return q.listUsers(db);
    const rows = await listCache.get('all', () => q.listUsers(db));
    if (rows.some((row) => row.locked)) listCache.clear();
    return rows;
  }

  const policy = async () => (await securityConfig.get()).passwordPolicy;

  async function resolveGroupIds(tx: Parameters<typeof q.findGroupIds>[0], names: string[]) {
    const found = await q.findGroupIds(tx, names);
    const missing = names.filter((n) => !found.some((g) => sameName(g.name, n)));
    if (missing.length > 0) throw new BadRequest(`Group '${missing[0]}' does not exist`, 'groups');
    return found.map((g) => g.id);
  }

  async function autoJoinGroupNames(): Promise<string[]> {
    const rows = await db
      .selectFrom('groups')
      .select('name')
      .where('auto_join', '=', true)
      .execute();
    return rows.map((r) => r.name);
  }

  return {
    async list(): Promise<UserView[]> {
      return (await listRows()).map(toUserView);
    },

    async get(name: string): Promise<UserView> {
      const row = await q.findUserByName(db, name);
      if (!row) throw new NotFound(`User '${name}' does not exist`);
      return toUserView(row);
    },

    async exists(name: string): Promise<boolean> {
      return (await q.findUserByName(db, name)) !== undefined;
    },

    /** A user's id by name (any case), or undefined. */
    async findId(name: string): Promise<number | undefined> {
      return (await q.findUserByName(db, name))?.id;
    },

    /** Creates a user; new users join the auto-join groups unless groups are given. */
    async create(input: UserInput, options: CreateOptions = {}) {
      // An invited user chooses the password from the mailed link; until then none works.
      const noPassword = !input.password && !options.passwordHash;
      if (noPassword && !input.internalPasswordDisabled && !options.invited) {
        throw new BadRequest('You must fill in this field', 'password');
      }
      if (input.password) {
        await assertPasswordAllowed(db, await policy(), input.password, 'password');
      }
      const passwordHash = input.password
        ? await hashPassword(input.password)
        : (options.passwordHash ?? null);
      const groupNames = input.groups ?? (await autoJoinGroupNames());
      try {
        return await db.transaction().execute(async (tx) => {
          if (await q.findUserByName(tx, input.name)) throw userExists(input.name);
          const groupIds = await resolveGroupIds(tx, groupNames);
          const { id } = await tx
            .insertInto('users')
            .values({
              name: input.name,
              email: input.email.toLowerCase(),
              password_hash: passwordHash,
              admin: input.admin ?? false,
              profile_updatable: input.profileUpdatable ?? true,
              disable_ui_access: input.disableUIAccess ?? false,
              internal_password_disabled: input.internalPasswordDisabled ?? false,
              realm: 'internal',
              password_expired: options.passwordExpired ?? false,
              last_logged_in: null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await q.replaceUserGroups(tx, id, groupIds);
          return toUserView((await q.findUserById(tx, id))!);
        });
      } catch (error) {
        throw isUniqueViolation(error) ? userExists(input.name) : error;
      }
    },

    /** Updates the given fields only; a signed-in admin cannot drop its own admin flag. */
    async update(name: string, change: Partial<UserInput>, actor: Actor): Promise<UserView> {
      if (change.name !== undefined && !sameName(change.name, name)) {
        throw new BadRequest('A user cannot be renamed', 'name');
      }
      // A token or API key may not turn itself into a password (an admin's, on another user, may).
      if (change.password && sameName(name, actor.name) && actor.via)
        requirePasswordSignIn({ via: actor.via });
      if (change.admin === false && sameName(name, actor.name)) {
        throw new BadRequest('You cannot remove your own admin privileges', 'admin');
      }
      const existing = await q.findUserByName(db, name);
      if (!existing) throw new NotFound(`User '${name}' does not exist`);
      if (change.password) {
        await assertPasswordAllowed(db, await policy(), change.password, 'password', {
          id: existing.id,
          currentHash: existing.password_hash,
        });
      }
      const passwordHash = change.password ? await hashPassword(change.password) : undefined;
      return db.transaction().execute(async (tx) => {
        const row = await q.findUserByName(tx, name);
        if (!row) throw new NotFound(`User '${name}' does not exist`);
        if (passwordHash) await rememberReplacedPassword(tx, row.id, row.password_hash);
        const groupIds = change.groups ? await resolveGroupIds(tx, change.groups) : undefined;
        await tx
          .updateTable('users')
          .set({
            email: change.email?.toLowerCase(),
            password_hash: passwordHash,
            password_changed_at: passwordHash ? new Date() : undefined,
            admin: change.admin,
            profile_updatable: change.profileUpdatable,
            disable_ui_access: change.disableUIAccess,
            internal_password_disabled: change.internalPasswordDisabled,
            updated_at: new Date(),
          })
          .where('id', '=', row.id)
          .execute();
        if (groupIds) await q.replaceUserGroups(tx, row.id, groupIds);
        return toUserView((await q.findUserById(tx, row.id))!);
      });
    },

    /** Deletes users by name, all or none; the signed-in user cannot delete itself. */
    async deleteMany(names: string[], actor: Actor): Promise<void> {
      if (names.some((n) => sameName(n, actor.name))) {
        throw new BadRequest('You cannot delete your own user');
      }
      await db.transaction().execute(async (tx) => {
        const found = await q.findUserIds(tx, names);
        const missing = names.find((n) => !found.some((u) => sameName(u.name, n)));
        if (missing) throw new NotFound(`User '${missing}' does not exist`);
        await tx
          .deleteFrom('users')
          .where(
            'id',
            'in',
            found.map((u) => u.id),
          )
          .execute();
      });
    },

    async setPasswordExpired(name: string, expired: boolean): Promise<void> {
      const result = await db
        .updateTable('users')
        // Unexpiring restarts the clock, or the policy's expiry days would expire it again.
        .set({
          password_expired: expired,
          updated_at: new Date(),
          ...(expired ? {} : { password_changed_at: new Date() }),
        })
        .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new NotFound(`User '${name}' does not exist`);
    },

    /** Lifts the sign-in locks of these users, from every address. */
    async unlock(names: string[]): Promise<void> {
      await locks.unlock(names);
    },

    /** The groups a user form offers (GET /ui/users/groups). */
    async groupChoices() {
      const rows = await db
        .selectFrom('groups')
        .select(['name', 'realm', 'auto_join'])
        .orderBy('name')
        .execute();
      return rows.map((r) => ({ groupName: r.name, realm: r.realm, autoJoin: r.auto_join }));
    },
  };
}

function userExists(name: string) {
  return new Conflict(`User '${name}' already exists`, 'name');
}

export type UsersService = ReturnType<typeof createUsersService>;
