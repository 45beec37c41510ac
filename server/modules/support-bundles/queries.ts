import { sql, type Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SupportBundlePartsTable } from '../../db/tables.ts';

export const BUNDLE_STATUS = { inProgress: 'in progress', success: 'success', failed: 'failed' };

export const listBundleRows = (db: Database) =>
  db.selectFrom('support_bundles').selectAll().orderBy('created_at', 'desc').execute();

export const bundleRow = (db: Database, id: string) =>
  db.selectFrom('support_bundles').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertBundleRow(
  db: Database,
  row: { id: string; name: string; description: string; nodeId: string; createdBy: string },
) {
  await db
    .insertInto('support_bundles')
    .values({
      id: row.id,
      name: row.name,
      description: row.description,
      status: BUNDLE_STATUS.inProgress,
      node_id: row.nodeId,
      created_by: row.createdBy,
    })
    .execute();
}

export async function updateBundleRow(
  db: Database,
  id: string,
  change: { status?: string; progress?: number; size?: number; error?: string },
) {
  await db.updateTable('support_bundles').set(change).where('id', '=', id).execute();
}

export async function deleteBundleRow(db: Database, id: string) {
  await db.deleteFrom('support_bundles').where('id', '=', id).execute();
}

/** A bundle still in progress when its node started again will never finish. */
export async function failAbandonedBundles(db: Database, nodeId: string) {
  await db
    .updateTable('support_bundles')
    .set({ status: BUNDLE_STATUS.failed, error: 'The node stopped while generating it' })
    .where('node_id', '=', nodeId)
    .where('status', '=', BUNDLE_STATUS.inProgress)
    .execute();
}

/** The database's version, size and its tables' row estimates. */
export async function databaseStats(db: Database) {
  const version = await sql<{ version: string }>`select version() as version`.execute(db);
  const size = await sql<{
    bytes: string;
  }>`select pg_database_size(current_database()) as bytes`.execute(db);
  const tables = await sql<{ table: string; rows: string }>`
    select relname as table, n_live_tup as rows from pg_stat_user_tables order by relname`.execute(
    db,
  );
  return {
    version: version.rows[0]?.version,
    sizeBytes: Number(size.rows[0]?.bytes ?? 0),
    tables: Object.fromEntries(tables.rows.map((row) => [row.table, Number(row.rows)])),
  };
}

/** How many blobs the filestore holds and their bytes. */
export async function blobTotals(db: Database) {
  const row = await db
    .selectFrom('blobs')
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.sum<string>('size').as('bytes')])
    .executeTakeFirst();
  return { blobs: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/** Every settings document and repository, as stored (secrets sealed): redacted by the caller. */
export async function configurationRows(db: Database) {
  const settings = await db.selectFrom('settings').selectAll().orderBy('key').execute();
  const repositories = await db
    .selectFrom('repositories')
    .select(['key', 'rclass', 'package_type', 'description', 'config'])
    .orderBy('key')
    .execute();
  return { settings, repositories };
}

export type PartRow = Selectable<SupportBundlePartsTable>;

/** The other nodes whose heartbeat is recent (service status's ONLINE: 3 beats at most missed). */
export async function liveOtherNodes(db: Database, nodeId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('cluster_nodes')
    .select('id')
    .where('id', '<>', nodeId)
    .where(sql<boolean>`now() - last_heartbeat <= make_interval(secs => heartbeat_seconds * 3)`)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function requestParts(
  db: Database,
  bundleId: string,
  nodes: string[],
  logFrom: string,
) {
  if (nodes.length === 0) return;
  await db
    .insertInto('support_bundle_parts')
    .values(
      nodes.map((node) => ({
        bundle_id: bundleId,
        node_id: node,
        log_from: logFrom,
        status: 'requested',
      })),
    )
    .execute();
}

/** The requests waiting for this node, taken so that no other pass answers them twice. */
/**
 * Whether another node asks this one for a part. Read before claiming: the claim is a write
 * to the table whose changes wake the exchange, so claiming on every wake would wake it again
 * at once, for ever.
 */
export async function hasRequestedParts(db: Database, nodeId: string): Promise<boolean> {
  const row = await db
    .selectFrom('support_bundle_parts')
    .select('bundle_id')
    .where('node_id', '=', nodeId)
    .where('status', '=', 'requested')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function claimRequestedParts(db: Database, nodeId: string) {
  return (
    db
      .updateTable('support_bundle_parts')
      .set({ status: 'collecting' })
      .where('node_id', '=', nodeId)
      .where('status', '=', 'requested')
      // A bundle that failed meanwhile (its maker stopped) waits for nothing.
      .where('bundle_id', 'in', (eb) =>
        eb
          .selectFrom('support_bundles')
          .select('id')
          .where('status', '=', BUNDLE_STATUS.inProgress),
      )
      .returningAll()
      .execute()
  );
}

export async function finishPart(
  db: Database,
  part: Pick<PartRow, 'bundle_id' | 'node_id'>,
  answer: { status: string; entries?: Array<{ name: string; file: string }>; error?: string },
) {
  await db
    .updateTable('support_bundle_parts')
    .set({
      status: answer.status,
      entries: JSON.stringify(answer.entries ?? []),
      error: answer.error ?? null,
    })
    .where('bundle_id', '=', part.bundle_id)
    .where('node_id', '=', part.node_id)
    .execute();
}

export const partsOf = (db: Database, bundleId: string) =>
  db
    .selectFrom('support_bundle_parts')
    .selectAll()
    .where('bundle_id', '=', bundleId)
    .orderBy('node_id')
    .execute();
