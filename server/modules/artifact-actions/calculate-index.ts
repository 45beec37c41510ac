import type { Database } from '../../db/database.ts';
import type { ArtifactsService, IndexHook } from '../artifacts/service.ts';
import { formatOf, INDEXED_PACKAGE_TYPES } from '../../formats/registry.ts';

/** Package types whose index (package rows, metadata sources) a recalculation rebuilds. */
export { INDEXED_PACKAGE_TYPES };

/** Files read per step: one transaction writes their index rows. */
const BATCH = 200;
/** Refusals named in the answer at most; the rest are counted. */
const REASONS_KEPT = 5;

export interface IndexOutcome {
  files: number;
  indexed: number;
  refused: { path: string; reason: string }[];
  refusedCount: number;
}

type Repository = Awaited<ReturnType<ArtifactsService['repository']>>;
type FileRow = {
  id: number;
  path: string;
  sha256: string;
  sha1: string;
  md5: string | null;
  size: number;
};

/**
 * Calculates a local repository's index again from its files: each file goes through the
 * format indexers as if it were deployed now (package rows, npm versions, PyPI metadata,
 * Java archive entries). It mends an index left behind by a bulk import, a restore from
 * backup, or files stored before their format indexed them. Rows are written over, never
 * removed first, so the index serves throughout. A file its format refuses (a POM naming
 * another path) is reported, not deleted; the others are indexed all the same.
 */
export async function calculateIndex(
  db: Database,
  artifacts: ArtifactsService,
  repo: Repository,
  user: string,
): Promise<IndexOutcome> {
  const outcome: IndexOutcome = { files: 0, indexed: 0, refused: [], refusedCount: 0 };
  const refuse = (path: string, error: unknown) => {
    outcome.refusedCount += 1;
    if (outcome.refused.length < REASONS_KEPT)
      outcome.refused.push({ path, reason: (error as Error).message });
  };
  for (let after = 0; ;) {
    const files = await fileBatch(db, repo.id, after);
    if (files.length === 0) return outcome;
    after = files.at(-1)!.id;
    outcome.files += files.length;
    const hooks: { file: FileRow; hook: IndexHook }[] = [];
    const indexed = keepsEditedDocuments(repo.package_type)
      ? await alreadyIndexed(db, files)
      : new Set<number>();
    for (const file of files) {
      if (indexed.has(Number(file.id))) continue;
      try {
        const hook = await artifacts.indexStored(repo, file.path, blobOf(file), user);
        if (hook) hooks.push({ file, hook });
      } catch (error) {
        refuse(file.path, error);
      }
    }
    outcome.indexed += await writeIndex(db, repo.id, hooks, refuse);
  }
}

/**
 * Whether a type's format edits its stored version documents after the file arrived (npm's
 * deprecations live in them): an indexed file keeps its document, and only files with no
 * version row are indexed again. The others' rows are derived from the file alone.
 */
const keepsEditedDocuments = (packageType: string) =>
  formatOf(packageType)?.keepsEditedDocuments === true;

async function alreadyIndexed(db: Database, files: FileRow[]): Promise<Set<number>> {
  const rows = await db
    .selectFrom('package_versions')
    .select('node_id')
    .where(
      'node_id',
      'in',
      files.map((file) => file.id),
    )
    .execute();
  return new Set(rows.map((row) => Number(row.node_id)));
}

function fileBatch(db: Database, repositoryId: number, after: number): Promise<FileRow[]> {
  return db
    .selectFrom('nodes as n')
    .innerJoin('blobs as b', 'b.sha256', 'n.sha256')
    .select(['n.id', 'n.path', 'b.sha256', 'b.sha1', 'b.md5', 'b.size'])
    .where('n.repository_id', '=', repositoryId)
    .where('n.folder', '=', false)
    .where('n.id', '>', after)
    .orderBy('n.id')
    .limit(BATCH)
    .execute() as Promise<FileRow[]>;
}

const blobOf = (file: FileRow) => ({
  sha256: file.sha256,
  sha1: file.sha1,
  md5: file.md5 ?? undefined,
  size: Number(file.size),
});

/**
 * Writes a batch's index rows in one transaction; when one of them fails, the batch is
 * written again a file at a time, so that one bad file costs only its own rows.
 */
async function writeIndex(
  db: Database,
  repositoryId: number,
  hooks: { file: FileRow; hook: IndexHook }[],
  refuse: (path: string, error: unknown) => void,
): Promise<number> {
  const run = (tx: Parameters<IndexHook>[0], { file, hook }: (typeof hooks)[number]) =>
    hook(tx, { id: Number(file.id), repositoryId });
  try {
    await db.transaction().execute(async (tx) => {
      for (const entry of hooks) await run(tx, entry);
    });
    return hooks.length;
  } catch {
    let written = 0;
    for (const entry of hooks) {
      try {
        await db.transaction().execute((tx) => run(tx, entry));
        written += 1;
      } catch (error) {
        refuse(entry.file.path, error);
      }
    }
    return written;
  }
}
