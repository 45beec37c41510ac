import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/**
 * Makes one of Depot's own generic local repositories (the trash can, the support bundles'
 * store) the first time it is needed; a repository of that key already there is kept as is.
 */
export async function ensureInternalRepository(db: Database, key: string, description: string) {
  await db
    .insertInto('repositories')
    .values({
      key,
      rclass: 'local',
      package_type: 'generic',
      description,
      notes: '',
      includes_pattern: '**/*',
      excludes_pattern: '',
      repo_layout_ref: 'simple-default',
      config: '{}',
    })
    .onConflict((c) => c.expression(sql`lower(key)`).doNothing())
    .execute();
}
