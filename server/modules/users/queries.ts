import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';

type Executor = Database | Transaction<DepotDatabase>;

/** The user columns with the names of the user's groups, sorted. */
function selectUsersWithGroups(db: Executor) {
  return db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) =>
      eb
        .selectFrom('user_groups')
        .innerJoin('groups', 'groups.id', 'user_groups.group_id')
        .whereRef('user_groups.user_id', '=', 'users.id')
        .select(sql<string[]>`coalesce(array_agg(groups.name order by groups.name), '{}')`.as('g'))
        .as('group_names'),
    )
    .select((eb) =>
      // Locked for now from some address (docs/security.md, "Lockout").
      eb
        .exists(
          eb
            .selectFrom('sign_in_locks')
            .whereRef('sign_in_locks.account', '=', sql`lower(users.name)`)
            .where('sign_in_locks.locked_until', '>', sql<Date>`now()`)
            .select('sign_in_locks.account'),
        )
        .as('locked'),
    );
}

export type UserRow = Awaited<ReturnType<typeof findUserByName>> & object;

export function listUsers(db: Executor) {
  return selectUsersWithGroups(db).orderBy('users.name').execute();
}

export function findUserByName(db: Executor, name: string) {
  return selectUsersWithGroups(db)
    .where(sql`lower(users.name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}

export function findUserById(db: Executor, id: number) {
  return selectUsersWithGroups(db).where('users.id', '=', id).executeTakeFirst();
}

/** Names (lower-cased) of the given users that exist, for reporting unknown ones. */
export async function findUserIds(db: Executor, names: string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', 'name'])
    .where(
      sql`lower(name)`,
      'in',
      names.map((n) => n.toLowerCase()),
    )
    .execute();
}

export async function findGroupIds(db: Executor, names: string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('groups')
    .select(['id', 'name'])
    .where(
      sql`lower(name)`,
      'in',
      names.map((n) => n.toLowerCase()),
    )
    .execute();
}

export async function replaceUserGroups(db: Executor, userId: number, groupIds: number[]) {
  await db.deleteFrom('user_groups').where('user_id', '=', userId).execute();
  if (groupIds.length === 0) return;
  await db
    .insertInto('user_groups')
    .values(groupIds.map((group_id) => ({ user_id: userId, group_id })))
    .execute();
}

/** True when the user is an admin by flag or through a group with admin privileges. */
export async function isEffectiveAdmin(db: Executor, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      'users.admin',
      eb
        .exists(
          eb
            .selectFrom('user_groups')
            .innerJoin('groups', 'groups.id', 'user_groups.group_id')
            .whereRef('user_groups.user_id', '=', 'users.id')
            .where('groups.admin_privileges', '=', true)
            .select('groups.id'),
        )
        .as('via_group'),
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return Boolean(row && (row.admin || row.via_group));
}

/**
 * What authentication needs about a user, in one query: the credentials' state and whether
 * the user is an admin by flag or through a group. Runs on every request with basic auth.
 */
export function findCredentials(db: Executor, name: string) {
  return db
    .selectFrom('users')
    .select((eb) => [
      'users.id',
      'users.name',
      'users.password_hash',
      'users.internal_password_disabled',
      'users.password_expired',
      'users.password_changed_at',
      'users.disable_ui_access',
      eb
        .or([
          eb('users.admin', '=', true),
          eb.exists(
            eb
              .selectFrom('user_groups')
              .innerJoin('groups', 'groups.id', 'user_groups.group_id')
              .whereRef('user_groups.user_id', '=', 'users.id')
              .where('groups.admin_privileges', '=', true)
              .select('groups.id'),
          ),
        ])
        .as('effective_admin'),
    ])
    .where(sql`lower(users.name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}
