import type { Database } from '../../db/database.ts';
import type { Tx } from '../artifacts/service.ts';
import type { BuildFilesTable } from '../../db/tables.ts';

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

export type BuildFile = Omit<BuildFilesTable, 'build_id'>;

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

/** Every build, newest first (callers filter by permission, then group by name). */
export const allBuilds = (db: Database) =>
  selectBuilds(db).orderBy('builds.started_at', 'desc').execute();

export async function buildDocument(db: Database, id: number) {
  const row = await db
    .selectFrom('builds')
    .select('document')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.document;
}

export const buildFiles = (db: Database, buildId: number) =>
  db
    .selectFrom('build_files')
    .select(['module_id', 'kind', 'name', 'type', 'scopes', 'sha1', 'sha256', 'md5'])
    .where('build_id', '=', buildId)
    .execute();

/** The builds whose modules list some content as an artifact or a dependency. */
export function buildsHolding(db: Database, checksum: { sha1?: string | null; sha256: string }) {
  return db
    .selectFrom('build_files')
    .innerJoin('builds', 'builds.id', 'build_files.build_id')
    .select([...BUILD_COLUMNS, 'build_files.kind', 'build_files.module_id', 'build_files.scopes'])
    .where((eb) =>
      eb.or([
        eb('build_files.sha256', '=', checksum.sha256),
        ...(checksum.sha1 ? [eb('build_files.sha1', '=', checksum.sha1)] : []),
      ]),
    )
    .orderBy('builds.started_at', 'desc')
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

/** The file row of a stored item: how the Builds tab finds its content. */
export const fileChecksums = (db: Database, repositoryId: number, path: string) =>
  db
    .selectFrom('nodes')
    .innerJoin('blobs', 'blobs.sha256', 'nodes.sha256')
    .select(['nodes.sha256', 'blobs.sha1'])
    .where('nodes.repository_id', '=', repositoryId)
    .where('nodes.path', '=', path)
    .where('nodes.folder', '=', false)
    .executeTakeFirst();

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
  /** Only these names (the second look for names whose latest build the caller may not read). */
  names?: string[];
}

/**
 * The builds the filter keeps, from `builds`, or from `latest_builds` (each name's newest,
 * under the same column names) for `latest`.
 */
function narrowed(db: Database, filter: LatestBuildsFilter, latest = false) {
  const { project } = filter;
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
    .$if(filter.names !== undefined, (q) => q.where('builds.name', 'in', filter.names!));
}

/**
 * Each name's latest build in each build-info repository among those the filter keeps: one
 * row a name, so the builds list reads as many rows as it has names, not every build.
 * (With `names`, the second look for names whose latest build the caller may not read,
 * `buildsFiltered` is used instead.)
 */
export const latestBuildPerName = (db: Database, filter: LatestBuildsFilter) =>
  filter.before === undefined && filter.after === undefined
    ? // Without a window each name's latest build is the one the trigger keeps (migration 0050).
      narrowed(db, filter, true).execute()
    : latestInWindow(db, filter);

/** Each name's latest build within a window: sorted out of the builds themselves. */
const latestInWindow = (db: Database, filter: LatestBuildsFilter) =>
  narrowed(db, filter)
    .distinctOn(['builds.repository_key', 'builds.name'])
    .orderBy('builds.repository_key')
    .orderBy('builds.name')
    .orderBy('builds.started_at', 'desc')
    .execute();

/** Every build the filter keeps, newest first. */
export const buildsFiltered = (db: Database, filter: LatestBuildsFilter) =>
  narrowed(db, filter).orderBy('builds.started_at', 'desc').execute();
