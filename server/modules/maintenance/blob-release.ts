import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DepotDatabase } from '../../db/tables.ts';
import type { Filestore } from '../../storage/filestore.ts';

type Tx = Transaction<DepotDatabase>;

/** Whether no file refers to blob row `blobs`. */
export const unreferenced = sql<boolean>`not exists (select 1 from nodes where nodes.sha256 = blobs.sha256)`;

/**
 * Deletes a blob that no file refers to and nobody claimed lately (`unclaimed`, a condition on
 * `blobs.touched_at`), its row and then its file, in the caller's transaction; answers its size,
 * or undefined when it stays. Garbage collection and retention both free content through here.
 *
 * The row is locked first (`skip locked`: a deploy holding it keeps it), then deleted by a
 * second statement that tests the references again. Under read committed the lock reads the
 * row's newest version, but the test of `nodes` beside it ran on the snapshot the statement
 * began with: a deploy that committed in between (its claim and its file's row are one
 * statement, deploy-statement.ts) passes unseen, and deleting the row would then fail on the
 * foreign key, or worse, the file would be gone first. With the lock held no new reference
 * can commit, and the delete's own snapshot sees every one that did.
 *
 * The row goes before the file, so the database refuses before anything is lost; the file
 * goes before the commit: a crash in between leaves a row without a file that nothing refers
 * to, never a reference without its file.
 */
export async function releaseUnreferencedBlob(
  tx: Tx,
  filestore: Filestore,
  sha256: string,
  unclaimed: RawBuilder<boolean>,
): Promise<number | undefined> {
  const locked = await tx
    .selectFrom('blobs')
    .select('sha256')
    .where('sha256', '=', sha256)
    .where(unclaimed)
    .where(unreferenced)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  if (!locked) return undefined;
  const deleted = await tx
    .deleteFrom('blobs')
    .where('sha256', '=', sha256)
    .where(unclaimed)
    .where(unreferenced)
    .returning('size')
    .executeTakeFirst();
  if (!deleted) return undefined;
  await filestore.remove(sha256);
  return Number(deleted.size);
}
