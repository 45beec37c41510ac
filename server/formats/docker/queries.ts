import { sql, type Insertable, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase, DockerManifestsTable } from '../../db/tables.ts';
import { escapeLike } from '../../modules/artifacts/paths.ts';
import { MANIFEST_FILE_NAMES } from './manifests.ts';

type Tx = Transaction<DepotDatabase>;
type Executor = Database | Tx;

/** A blob's file in an image's folders: `<image>/<folder>/sha256__<hex>`. */
export const blobFileName = (hex: string) => `sha256__${hex}`;

/**
 * Files directly in a folder of the image (`<image>/<one folder>/<file>`), never in a nested
 * image's (`<image>/<sub>/<folder>/...`): a grant on one image says nothing of another.
 */
function inImageFolders(image: string) {
  const prefix = `${image}/`;
  return sql<boolean>`(parent_path like ${`${escapeLike(prefix)}%`}
    and strpos(substr(parent_path, ${prefix.length + 1}), '/') = 0)`;
}

/** A file of the image holding a blob, by content; undefined when the image has none. */
export function findImageBlob(db: Executor, repositoryId: number, image: string, hex: string) {
  return db
    .selectFrom('nodes')
    .select(['path', 'size'])
    .where('repository_id', '=', repositoryId)
    .where('sha256', '=', hex)
    .where('folder', '=', false)
    .where('name', 'in', [blobFileName(hex), ...MANIFEST_FILE_NAMES])
    .where(inImageFolders(image))
    .limit(1)
    .executeTakeFirst();
}

/** The paths of the image's files holding a blob (`<image>/<folder>/sha256__<hex>`). */
export async function imageBlobPaths(
  db: Executor,
  repositoryId: number,
  image: string,
  hex: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('nodes')
    .select('path')
    .where('repository_id', '=', repositoryId)
    .where('sha256', '=', hex)
    .where('folder', '=', false)
    .where('name', '=', blobFileName(hex))
    .where(inImageFolders(image))
    .orderBy('path')
    .execute();
  return rows.map((row) => row.path);
}

/** Which of the blobs the image holds, as `findImageBlob` finds each, in one statement. */
export async function imageBlobsHeld(
  db: Executor,
  repositoryId: number,
  image: string,
  hexes: string[],
): Promise<Set<string>> {
  const wanted = [...new Set(hexes)];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .selectFrom('nodes')
    .select('sha256')
    .where('repository_id', '=', repositoryId)
    .where('sha256', 'in', wanted)
    .where('folder', '=', false)
    .where('name', 'in', [...wanted.map(blobFileName), ...MANIFEST_FILE_NAMES])
    // A blob's file holds the content its name says.
    .where(
      sql<boolean>`(name = ${blobFileName('')} || sha256 or name in (${sql.join(MANIFEST_FILE_NAMES)}))`,
    )
    .where(inImageFolders(image))
    .execute();
  return new Set(rows.map((row) => row.sha256!));
}

/** A manifest file of the image with that content. */
export function findManifestFile(db: Executor, repositoryId: number, image: string, hex: string) {
  return db
    .selectFrom('nodes')
    .select(['path', 'size', 'sha256'])
    .where('repository_id', '=', repositoryId)
    .where('sha256', '=', hex)
    .where('name', 'in', MANIFEST_FILE_NAMES)
    .where(inImageFolders(image))
    .limit(1)
    .executeTakeFirst();
}

/** The manifest file a tag folder holds, if any. */
export function findTagManifest(db: Executor, repositoryId: number, image: string, tag: string) {
  return db
    .selectFrom('nodes')
    .select(['path', 'size', 'sha256'])
    .where('repository_id', '=', repositoryId)
    .where('parent_path', '=', `${image}/${tag}`)
    .where('name', 'in', MANIFEST_FILE_NAMES)
    .where('folder', '=', false)
    .executeTakeFirst();
}

/**
 * A manifest file of the image, by tag (its folder) or by content, with the media type its
 * push recorded: one round trip for the call every pull starts with (a HEAD by tag).
 */
export function findManifestWithType(
  db: Executor,
  repositoryId: number,
  image: string,
  at: { tag: string } | { hex: string },
) {
  const query = db
    .selectFrom('nodes')
    .leftJoin('docker_manifests as m', (join) =>
      join
        .on('m.repository_id', '=', repositoryId)
        .on('m.image', '=', image)
        .on(sql<boolean>`m.digest = 'sha256:' || nodes.sha256`),
    )
    .select(['nodes.path', 'nodes.size', 'nodes.sha256', 'm.media_type'])
    .where('nodes.repository_id', '=', repositoryId)
    .where('nodes.name', 'in', MANIFEST_FILE_NAMES)
    .where('nodes.folder', '=', false);
  const found =
    'tag' in at
      ? query.where('nodes.parent_path', '=', `${image}/${at.tag}`)
      : query.where('nodes.sha256', '=', at.hex).where(inImageFolders(image));
  return found.limit(1).executeTakeFirst();
}

/** Every folder of the image holding a manifest with that content (its tags and digest folder). */
export async function foldersHoldingManifest(
  db: Executor,
  repositoryId: number,
  image: string,
  hex: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('nodes')
    .select('parent_path')
    .where('repository_id', '=', repositoryId)
    .where('sha256', '=', hex)
    .where('name', 'in', MANIFEST_FILE_NAMES)
    .where(inImageFolders(image))
    .execute();
  return [...new Set(rows.map((row) => row.parent_path))];
}

/** The image's tags: folders holding a manifest, but its digest folders. */
export async function imageTags(db: Executor, repositoryId: number, image: string) {
  const rows = await db
    .selectFrom('nodes')
    .select('parent_path')
    .where('repository_id', '=', repositoryId)
    .where('name', 'in', MANIFEST_FILE_NAMES)
    .where('folder', '=', false)
    .where(inImageFolders(image))
    .execute();
  return rows
    .map((row) => row.parent_path.slice(image.length + 1))
    .filter((tag) => !tag.startsWith('sha256__'));
}

export function manifestRow(db: Executor, repositoryId: number, image: string, digest: string) {
  return db
    .selectFrom('docker_manifests')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .where('image', '=', image)
    .where('digest', '=', digest)
    .executeTakeFirst();
}

export async function upsertManifestRow(tx: Tx, row: Insertable<DockerManifestsTable>) {
  await tx
    .insertInto('docker_manifests')
    .values(row)
    .onConflict((c) =>
      c.columns(['repository_id', 'image', 'digest']).doUpdateSet({
        media_type: row.media_type,
        artifact_type: row.artifact_type,
        subject: row.subject,
        annotations: row.annotations,
        size: row.size,
      }),
    )
    .execute();
}

export async function deleteManifestRow(
  tx: Tx,
  repositoryId: number,
  image: string,
  digest: string,
) {
  await tx
    .deleteFrom('docker_manifests')
    .where('repository_id', '=', repositoryId)
    .where('image', '=', image)
    .where('digest', '=', digest)
    .execute();
}

/** Manifests of the image naming `subject`, that the image still holds. */
export function referrersOf(db: Executor, repositoryId: number, image: string, subject: string) {
  return db
    .selectFrom('docker_manifests as m')
    .select(['m.digest', 'm.media_type', 'm.artifact_type', 'm.annotations', 'm.size'])
    .where('m.repository_id', '=', repositoryId)
    .where('m.image', '=', image)
    .where('m.subject', '=', subject)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('nodes')
          .select('nodes.id')
          .where('nodes.repository_id', '=', repositoryId)
          .where('nodes.name', 'in', MANIFEST_FILE_NAMES)
          .where(sql<boolean>`nodes.sha256 = substr(m.digest, 8)`)
          .where(inImageFolders(image)),
      ),
    )
    .orderBy('m.digest')
    .execute();
}

/** Images of the given repositories that hold at least one manifest, by repository key. */
export async function catalogImages(db: Executor, repositoryIds: number[]) {
  if (repositoryIds.length === 0) return [];
  const { rows } = await sql<{ key: string; image: string }>`
    select distinct r.key, m.image from docker_manifests m
    join repositories r on r.id = m.repository_id
    where m.repository_id = any(${repositoryIds}::int[])
      and exists (select 1 from nodes n where n.repository_id = m.repository_id
        and n.sha256 = substr(m.digest, 8) and n.name in ('manifest.json', 'list.manifest.json')
        and n.parent_path like m.image || '/%')`.execute(db);
  return rows;
}

/**
 * Locks the rows of blobs a manifest about to be written needs, in its transaction: garbage
 * collection takes a blob's row `FOR UPDATE SKIP LOCKED`, so it passes these by until the
 * manifest's files refer to them, and a blob it already removed is not found here. Answers
 * the sizes of those found.
 */
export async function holdBlobs(tx: Tx, hexes: string[]): Promise<Map<string, number>> {
  if (hexes.length === 0) return new Map();
  const { rows } = await sql<{ sha256: string; size: string | number }>`
    select sha256, size from blobs where sha256 = any(${[...new Set(hexes)].sort()}::text[])
    order by sha256 for share`.execute(tx);
  return new Map(rows.map((row) => [row.sha256, Number(row.size)]));
}

/** The `_uploads` files of the image that a written manifest now holds in its own folder. */
export async function dropUploadedFiles(
  tx: Tx,
  repositoryId: number,
  image: string,
  hexes: string[],
) {
  if (hexes.length === 0) return;
  await tx
    .deleteFrom('nodes')
    .where('repository_id', '=', repositoryId)
    .where('parent_path', '=', `${image}/_uploads`)
    .where(
      'name',
      'in',
      hexes.map((hex) => blobFileName(hex)),
    )
    .execute();
}

/**
 * A manifest's blob row, committed before its file is renamed into place (as deploys do): a
 * file on disk always has a row, which garbage collection removes if nothing comes to refer to it.
 */
export async function preclaimBlob(
  db: Database,
  blob: { sha256: string; sha1: string; sha512?: string; size: number },
) {
  await db
    .insertInto('blobs')
    .values({
      sha256: blob.sha256,
      sha1: blob.sha1,
      md5: null,
      sha512: blob.sha512 ?? null,
      size: blob.size,
    })
    .onConflict((c) =>
      c.column('sha256').doUpdateSet({
        sha512: sql`coalesce(blobs.sha512, excluded.sha512)`,
        touched_at: sql`now()`,
      }),
    )
    .execute();
}

/** The SHA-256 of stored content known by its SHA-512 (migration 0042), if any. */
export async function sha256OfSha512(db: Executor, sha512: string) {
  const row = await db
    .selectFrom('blobs')
    .select('sha256')
    .where('sha512', '=', sha512)
    .limit(1)
    .executeTakeFirst();
  return row?.sha256;
}
