import type { PrepareIndex } from '../artifacts/service.ts';
import { readArchive } from '../archives/archive-reader.ts';

/** Java archives, whose classes the class search finds (spec 02 §2). */
const JAVA_ARCHIVE = /\.(jar|war|ear|aar)$/i;
/** Entries listed per archive at most: a pathological archive does not fill the index. */
const MAX_ENTRIES = 100_000;
const ROWS_PER_INSERT = 1000;

/** `org/acme/Foo.class` → folder `org/acme`, name `Foo.class`. */
function splitEntry(name: string) {
  const slash = name.lastIndexOf('/');
  return { entry_path: slash < 0 ? '' : name.slice(0, slash), entry_name: name.slice(slash + 1) };
}

/**
 * Lists a Java archive's files when it is deployed, in the deploy's transaction: the class
 * search reads them from the index instead of opening archives. An archive that cannot be
 * read is stored all the same, with nothing listed; a replaced one loses its old entries.
 */
export const archiveEntriesIndexer: PrepareIndex = async (_repo, path, file) => {
  if (!JAVA_ARCHIVE.test(path)) return undefined;
  const entries: { entry_path: string; entry_name: string }[] = [];
  await readArchive(file.diskPath, 'zip', async (entry) => {
    if (entry.kind === 'file') entries.push(splitEntry(entry.name));
    return entries.length >= MAX_ENTRIES ? 'stop' : undefined;
  }).catch(() => entries.splice(0));
  return async (tx, stored) => {
    await tx.deleteFrom('archive_entries').where('node_id', '=', stored.id).execute();
    for (let i = 0; i < entries.length; i += ROWS_PER_INSERT) {
      const chunk = entries.slice(i, i + ROWS_PER_INSERT);
      await tx
        .insertInto('archive_entries')
        .values(chunk.map((entry) => ({ node_id: stored.id, ...entry })))
        .execute();
    }
  };
};
