import type { Database } from '../../db/database.ts';
import type { Tx } from '../artifacts/service.ts';
import { sql, type ExpressionBuilder } from 'kysely';
import type { BuildFilesTable, BuildsTable } from '../../db/tables.ts';
import type { BuildReadFilter } from '../access-control/build-decider.ts';

/** A build's row without its document: what lists and permissions need. */
export const BUILD_COLUMNS = [
  'builds.id',
  'builds.name',
  'builds.number',
  'builds.started',
  'builds.started_at',
  'builds.repository_key',
  'builds.project_key',
  'builds.path',
  'builds.node_id',
] as const;

/** A row as a build-info file gives it; `content_by_sha1` is the database's (migration 0060). */
export type BuildFile = Omit<BuildFilesTable, 'build_id' | 'content_by_sha1'>;

export async function insertBuild(
  tx: Tx,
  build: {
    nodeId: number;
    repositoryKey: string;
    projectKey: string | null;
    name: string;
    number: string;
    started: string;
    startedAt: Date;
    path: string;
    document: unknown;
    user: string;
  },
  files: BuildFile[],
): Promise<number> {
  // The same build sent again replaces the earlier one, as its file does.
  await tx
    .deleteFrom('builds')
    .where('repository_key', '=', build.repositoryKey)
    .where('name', '=', build.name)
    .where('number', '=', build.number)
    .where('started', '=', build.started)
    .execute();
  const { id } = await tx
    .insertInto('builds')
    .values({
      node_id: build.nodeId,
      repository_key: build.repositoryKey,
      project_key: build.projectKey,
      name: build.name,
      number: build.number,
      started: build.started,
      started_at: build.startedAt,
      path: build.path,
      document: JSON.stringify(build.document),
      created_by: build.user,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let at = 0; at < files.length; at += 1000) {
    await tx
      .insertInto('build_files')
      .values(files.slice(at, at + 1000).map((file) => ({ ...file, build_id: Number(id) })))
      .execute();
  }
  return Number(id);
}

export function selectBuilds(db: Database | Tx) {
  return db.selectFrom('builds').select(BUILD_COLUMNS);
}
export type BuildRow = Awaited<
  ReturnType<ReturnType<typeof selectBuilds>['executeTakeFirstOrThrow']>
>;

/** Every build of one name, newest first. */
export const buildsNamed = (db: Database | Tx, name: string) =>
  selectBuilds(db).where('builds.name', '=', name).orderBy('builds.started_at', 'desc').execute();

export async function buildDocument(db: Database, id: number) {
  const row = await db
    .selectFrom('builds')
    .select('document')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.document;
}

/** A build's artifacts and dependencies, in its document's order. */
export const buildFiles = (db: Database, buildId: number) =>
  db
    .selectFrom('build_files')
    .select(['module_id', 'kind', 'name', 'type', 'scopes', 'sha1', 'sha256', 'md5'])
    .where('build_id', '=', buildId)
    .orderBy('module_position')
    .orderBy('kind')
    .orderBy('position')
    .execute();

/**
 * The builds whose modules list a stored file's content as an artifact or a dependency, by
 * SHA-256 or SHA-1, in one query: the file's checksums, then one range scan of each checksum
 * index (which carries the module file's columns, migration 0054) and each build's row by its
 * key. No rows for a folder or a path holding nothing. Newest build first, and within a
 * build its modules in the document's order (the order in the table is not the document's).
 */
export function buildsHolding(db: Database, repositoryId: number, path: string) {
  const file = db
    .selectFrom('nodes')
    .innerJoin('blobs', 'blobs.sha256', 'nodes.sha256')
    .where('nodes.repository_id', '=', repositoryId)
    .where('nodes.path', '=', path)
    .where('nodes.folder', '=', false);
  return db
    .selectFrom('build_files')
    .innerJoin('builds', 'builds.id', 'build_files.build_id')
    .select([...BUILD_COLUMNS, 'build_files.kind', 'build_files.module_id', 'build_files.scopes'])
    .where((eb) =>
      eb.or([
        eb('build_files.sha256', '=', file.select('nodes.sha256')),
        eb('build_files.sha1', '=', file.select('blobs.sha1')),
      ]),
    )
    .orderBy('builds.started_at', 'desc')
    .orderBy('builds.id', 'desc')
    .orderBy('build_files.module_position')
    .orderBy('build_files.kind')
    .orderBy('build_files.position')
    .execute();
}

/** Whether any build other than those given lists content with this checksum. */
export async function checksumKeptBy(
  db: Database,
  checksum: { sha1: string | null; sha256: string },
  excludedBuildIds: number[],
): Promise<boolean> {
  const row = await db
    .selectFrom('build_files')
    .select('build_id')
    .where((eb) =>
      eb.or([
        eb('sha256', '=', checksum.sha256),
        ...(checksum.sha1 ? [eb('sha1', '=', checksum.sha1)] : []),
      ]),
    )
    .$if(excludedBuildIds.length > 0, (q) => q.where('build_id', 'not in', excludedBuildIds))
    .executeTakeFirst();
  return row !== undefined;
}

/** Stored files whose content a build lists, with the repository holding each. */
export function storedFilesWith(db: Database, checksums: { sha1: string[]; sha256: string[] }) {
  if (checksums.sha1.length === 0 && checksums.sha256.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('nodes')
    .innerJoin('blobs', 'blobs.sha256', 'nodes.sha256')
    .innerJoin('repositories', 'repositories.id', 'nodes.repository_id')
    .select([
      'nodes.id',
      'nodes.path',
      'nodes.sha256',
      'blobs.sha1',
      'repositories.key as repoKey',
      'repositories.rclass',
    ])
    .where('nodes.folder', '=', false)
    .where((eb) =>
      eb.or([
        ...(checksums.sha256.length > 0 ? [eb('nodes.sha256', 'in', checksums.sha256)] : []),
        ...(checksums.sha1.length > 0 ? [eb('blobs.sha1', 'in', checksums.sha1)] : []),
      ]),
    )
    .orderBy('nodes.id')
    .execute();
}

/** The property values of nodes, for the ones whose build.name and build.number say whose they are. */
export const nodeProperties = (db: Database, nodeIds: number[], names: string[]) =>
  nodeIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('node_properties')
        .select(['node_id', 'key', 'value'])
        .where('node_id', 'in', nodeIds)
        .where('key', 'in', names)
        .execute();

export const promotionsOf = (db: Database, buildId: number) =>
  db
    .selectFrom('build_promotions')
    .select(['status', 'comment', 'repository', 'ci_user', 'user_name', 'timestamp'])
    .where('build_id', '=', buildId)
    .orderBy('id', 'desc')
    .execute();

export const insertPromotion = (
  db: Database | Tx,
  promotion: {
    build_id: number;
    status: string;
    comment: string;
    repository: string | null;
    ci_user: string | null;
    user_name: string;
    timestamp?: Date;
  },
) => db.insertInto('build_promotions').values(promotion).execute();

/** Whether a project of this key exists (a build call's `?project=`). */
export async function projectExists(db: Database, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('projects')
    .select('key')
    .where('key', '=', key)
    .executeTakeFirst();
  return row !== undefined;
}

/** What narrows the builds list: project (`unassigned` for none), a name's words, a window. */
export interface LatestBuildsFilter {
  /** undefined: every build; `defaultRepository`: builds of no project; else a project's. */
  project?: { key: string } | { defaultRepository: string };
  /** A LIKE pattern over the name, any case. */
  nameLike?: string;
  buildRepo?: string;
  before?: number;
  after?: number;
  /** The builds the caller may read (build-decider.ts), or `all`. */
  readable: BuildReadFilter | 'all';
}

type Builds = ExpressionBuilder<{ builds: BuildsTable }, 'builds'>;

/** The caller's build read permission as a condition on a build's repository and path. */
function readableBy(eb: Builds, filter: BuildReadFilter) {
  const grants = filter.grants.filter((grant) => grant.repositories.length > 0);
  if (grants.length === 0) return sql<boolean>`false`;
  return eb.or(
    grants.map((grant) =>
      eb.and([
        eb(eb.fn('lower', ['builds.repository_key']), 'in', grant.repositories),
        eb.or(grant.includes.map((pattern) => eb('builds.path', '~', pattern))),
        ...grant.excludes.map((pattern) => eb('builds.path', '!~', pattern)),
      ]),
    ),
  );
}

/**
 * The builds the filter keeps, from `builds`, or from `latest_builds` (each name's newest,
 * under the same column names) for `latest`.
 */
function narrowed(db: Database, filter: LatestBuildsFilter, latest = false) {
  const { project, readable } = filter;
  const from = latest
    ? db.selectFrom('latest_builds as builds').select(BUILD_COLUMNS)
    : selectBuilds(db);
  return from
    .$if(project !== undefined && 'key' in project, (q) =>
      q.where('builds.project_key', '=', (project as { key: string }).key),
    )
    .$if(project !== undefined && 'defaultRepository' in project, (q) =>
      q.where(
        'builds.repository_key',
        '=',
        (project as { defaultRepository: string }).defaultRepository,
      ),
    )
    .$if(filter.nameLike !== undefined, (q) => q.where('builds.name', 'ilike', filter.nameLike!))
    .$if(filter.buildRepo !== undefined, (q) =>
      q.where('builds.repository_key', '=', filter.buildRepo!),
    )
    .$if(filter.before !== undefined, (q) =>
      q.where('builds.started_at', '<', new Date(filter.before!)),
    )
    .$if(filter.after !== undefined, (q) =>
      q.where('builds.started_at', '>', new Date(filter.after!)),
    )
    .$if(readable !== 'all', (q) =>
      q.where((eb) => readableBy(eb as unknown as Builds, readable as BuildReadFilter)),
    );
}

/**
 * Each name's latest readable build in each build-info repository among those the filter
 * keeps: one row a name. Without a window, and where the caller's permissions judge builds by
 * name alone, it is the row the trigger keeps in `latest_builds` (migration 0050); otherwise
 * the builds are filtered first and each name's newest one kept (`distinct on`), so that a
 * name whose latest build the caller may not read is shown by its latest one they may.
 */
function latestPerName(db: Database, filter: LatestBuildsFilter) {
  const { readable } = filter;
  if (
    filter.before === undefined &&
    filter.after === undefined &&
    (readable === 'all' || readable.byName)
  )
    return narrowed(db, filter, true);
  return narrowed(db, filter)
    .distinctOn(['builds.repository_key', 'builds.name'])
    .orderBy('builds.repository_key')
    .orderBy('builds.name')
    .orderBy('builds.started_at', 'desc')
    .orderBy('builds.id', 'desc');
}

/** Every name's latest readable build (the list sorted by name or number sorts them itself). */
export const latestBuildPerName = (db: Database, filter: LatestBuildsFilter) =>
  latestPerName(db, filter).execute();

/**
 * A page of the names' latest readable builds by start, newest first unless `ascending`, and
 * how many there are: the builds list's first page reads its 50 rows, not every name's.
 */
export async function latestBuildsPage(
  db: Database,
  filter: LatestBuildsFilter,
  page: { offset: number; limit: number; ascending: boolean },
) {
  const direction = page.ascending ? 'asc' : 'desc';
  const rows = await db
    .selectFrom(latestPerName(db, filter).as('builds'))
    .selectAll()
    .select(sql<string>`count(*) over ()`.as('total'))
    .orderBy('builds.started_at', direction)
    .orderBy('builds.id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  if (rows.length > 0) return { rows, total: Number(rows[0].total) };
  if (page.offset === 0) return { rows, total: 0 };
  // A page past the end: the count still answers.
  const { count } = await db
    .selectFrom(latestPerName(db, filter).as('builds'))
    .select(sql<string>`count(*)`.as('count'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count) };
}
