import type { Database } from '../../db/database.ts';

export type VirtualCleanupReport = {
  info: string;
  items: number;
};

/**
 * Virtual repositories hold no content: reads go to their members and deploys to their
 * deployment target. What this cleans is whatever was nevertheless recorded against a
 * virtual repository: file and folder rows (left, say, by a repository whose kind an older
 * release let change) and remembered upstream misses. It reports 0 when there is nothing.
 */
export async function cleanVirtualRepositories(db: Database): Promise<VirtualCleanupReport> {
  const virtualIds = db.selectFrom('repositories').select('id').where('rclass', '=', 'virtual');
  return db.transaction().execute(async (tx) => {
    const nodes = await tx
      .deleteFrom('nodes')
      .where('repository_id', 'in', virtualIds)
      .executeTakeFirst();
    const misses = await tx
      .deleteFrom('remote_misses')
      .where('repository_id', 'in', virtualIds)
      .executeTakeFirst();
    const items = Number(nodes.numDeletedRows) + Number(misses.numDeletedRows);
    return {
      info: `Removed ${items} cached items from virtual repositories`,
      items,
    };
  });
}
