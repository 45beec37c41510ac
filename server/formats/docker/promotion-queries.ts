import type { Transaction } from 'kysely';
import type { DepotDatabase } from '../../db/tables.ts';

type Tx = Transaction<DepotDatabase>;

/** The files directly in one folder of an image (a tag's or a digest's). */
export function filesInFolder(tx: Tx, repositoryId: number, folder: string) {
  return tx
    .selectFrom('nodes')
    .select(['id', 'path', 'name', 'sha256', 'size', 'mime_type'])
    .where('repository_id', '=', repositoryId)
    .where('parent_path', '=', folder)
    .where('folder', '=', false)
    .orderBy('name')
    .execute();
}
