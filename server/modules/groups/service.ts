import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import { findUserIds } from '../users/queries.ts';

export interface GroupView {
  name: string;
  description: string;
  autoJoin: boolean;
  adminPrivileges: boolean;
  realm: string;
  usersInGroup: string[];
}

export interface GroupInput {
  name: string;
  description?: string;
  autoJoin?: boolean;
  adminPrivileges?: boolean;
  usersInGroup?: string[];
}

type Executor = Parameters<typeof findUserIds>[0];

function selectGroups(db: Executor) {
  return db
    .selectFrom('groups')
    .selectAll('groups')
    .select((eb) =>
      eb
        .selectFrom('user_groups')
        .innerJoin('users', 'users.id', 'user_groups.user_id')
        .whereRef('user_groups.group_id', '=', 'groups.id')
        .select(sql<string[]>`coalesce(array_agg(users.name order by users.name), '{}')`.as('u'))
        .as('member_names'),
    );
}

type GroupRow = NonNullable<
  Awaited<ReturnType<ReturnType<typeof selectGroups>['executeTakeFirst']>>
>;

function toGroupView(row: GroupRow): GroupView {
  return {
    name: row.name,
    description: row.description,
    autoJoin: row.auto_join,
    adminPrivileges: row.admin_privileges,
    realm: row.realm,
    usersInGroup: row.member_names ?? [],
  };
}

const byName = (name: string) => sql<boolean>`lower(groups.name) = ${name.toLowerCase()}`;

export function createGroupsService(db: Database) {
  async function resolveUserIds(tx: Executor, names: string[]) {
    const found = await findUserIds(tx, names);
    const missing = names.find((n) => !found.some((u) => u.name.toLowerCase() === n.toLowerCase()));
    if (missing) throw new BadRequest(`User '${missing}' does not exist`, 'usersInGroup');
    return found.map((u) => u.id);
  }

  async function replaceMembers(tx: Executor, groupId: number, userIds: number[]) {
    await tx.deleteFrom('user_groups').where('group_id', '=', groupId).execute();
    if (userIds.length === 0) return;
    await tx
      .insertInto('user_groups')
      .values(userIds.map((user_id) => ({ user_id, group_id: groupId })))
      .execute();
  }

  async function getRow(tx: Executor, name: string) {
    const row = await selectGroups(tx).where(byName(name)).executeTakeFirst();
    if (!row) throw new NotFound(`Group '${name}' does not exist`);
    return row;
  }

  return {
    async list(): Promise<GroupView[]> {
      return (await selectGroups(db).orderBy('groups.name').execute()).map(toGroupView);
    },

    async get(name: string): Promise<GroupView> {
      return toGroupView(await getRow(db, name));
    },

    async exists(name: string): Promise<boolean> {
      return (await selectGroups(db).where(byName(name)).executeTakeFirst()) !== undefined;
    },

    async create(input: GroupInput): Promise<GroupView> {
      try {
        return await db.transaction().execute(async (tx) => {
          if (await selectGroups(tx).where(byName(input.name)).executeTakeFirst()) {
            throw groupExists(input.name);
          }
          const userIds = await resolveUserIds(tx, input.usersInGroup ?? []);
          const { id } = await tx
            .insertInto('groups')
            .values({
              name: input.name,
              description: input.description ?? '',
              auto_join: input.autoJoin ?? false,
              admin_privileges: input.adminPrivileges ?? false,
              realm: 'internal',
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await replaceMembers(tx, id, userIds);
          return toGroupView(await getRow(tx, input.name));
        });
      } catch (error) {
        throw isUniqueViolation(error) ? groupExists(input.name) : error;
      }
    },

    async update(name: string, change: Partial<GroupInput>): Promise<GroupView> {
      if (change.name !== undefined && change.name.toLowerCase() !== name.toLowerCase()) {
        throw new BadRequest('A group cannot be renamed', 'name');
      }
      return db.transaction().execute(async (tx) => {
        const row = await getRow(tx, name);
        const userIds = change.usersInGroup ? await resolveUserIds(tx, change.usersInGroup) : null;
        const fields = {
          description: change.description,
          auto_join: change.autoJoin,
          admin_privileges: change.adminPrivileges,
        };
        // A change that names no field (`{}`) changes nothing: there is no SET to send.
        if (Object.values(fields).some((value) => value !== undefined))
          await tx.updateTable('groups').set(fields).where('id', '=', row.id).execute();
        if (userIds) await replaceMembers(tx, row.id, userIds);
        return toGroupView(await getRow(tx, name));
      });
    },

    /** Deletes groups by name, all or none. */
    async deleteMany(names: string[]): Promise<void> {
      await db.transaction().execute(async (tx) => {
        const ids: number[] = [];
        for (const name of names) ids.push((await getRow(tx, name)).id);
        if (ids.length > 0) await tx.deleteFrom('groups').where('id', 'in', ids).execute();
      });
    },
  };
}

function groupExists(name: string) {
  return new Conflict(`Group '${name}' already exists`, 'name');
}

export type GroupsService = ReturnType<typeof createGroupsService>;
