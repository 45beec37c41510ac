import type { Database } from '../../db/database.ts';

/** `npm star` and `npm stars`: who starred which package, per repository (migration 0030). */
export function createNpmStars(db: Database) {
  return {
    async set(repositoryId: number, name: string, userId: number, starred: boolean) {
      if (starred)
        await db
          .insertInto('npm_stars')
          .values({ repository_id: repositoryId, name, user_id: userId })
          .onConflict((oc) => oc.doNothing())
          .execute();
      else
        await db
          .deleteFrom('npm_stars')
          .where('repository_id', '=', repositoryId)
          .where('name', '=', name)
          .where('user_id', '=', userId)
          .execute();
    },

    /** Who starred a package: its document's `users` (npm star reads it to unstar). */
    async starrers(repositoryId: number, name: string): Promise<string[]> {
      const rows = await db
        .selectFrom('npm_stars as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select('u.name')
        .where('s.repository_id', '=', repositoryId)
        .where('s.name', '=', name)
        .orderBy('u.name')
        .execute();
      return rows.map((row) => row.name);
    },

    /** The packages a user starred in a repository, by name. */
    async starredBy(repositoryId: number, userName: string): Promise<string[]> {
      const rows = await db
        .selectFrom('npm_stars as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select('s.name')
        .where('s.repository_id', '=', repositoryId)
        .where((eb) => eb(eb.fn('lower', ['u.name']), '=', userName.toLowerCase()))
        .orderBy('s.name')
        .execute();
      return rows.map((row) => row.name);
    },
  };
}

export type NpmStars = ReturnType<typeof createNpmStars>;
