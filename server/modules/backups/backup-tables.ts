/**
 * Which rows of a table belong to the repositories a backup covers: all of them (`all`), or
 * those of an included repository, found by the column that leads to it.
 */
export type TableScope = 'all' | 'repository-row' | 'repository' | 'node' | 'build' | 'blob';

export interface BackedUpTable {
  table: string;
  scope: TableScope;
  /** Build records: left out when a backup excludes builds. */
  builds?: true;
  /** Item properties: left out of an export without metadata. */
  properties?: true;
}

/**
 * The tables a backup holds, parents before children: a restore inserts them in this order
 * and clears them in the reverse one. `tests/backup-restore.test.ts` fails when a table is in
 * neither this list nor NOT_BACKED_UP, so a new table cannot be forgotten.
 */
export const BACKED_UP_TABLES: readonly BackedUpTable[] = [
  { table: 'users', scope: 'all' },
  { table: 'groups', scope: 'all' },
  { table: 'user_groups', scope: 'all' },
  { table: 'password_history', scope: 'all' },
  { table: 'api_keys', scope: 'all' },
  { table: 'access_tokens', scope: 'all' },
  { table: 'settings', scope: 'all' },
  { table: 'entity_documents', scope: 'all' },
  { table: 'entity_audit', scope: 'all' },
  { table: 'permission_targets', scope: 'all' },
  { table: 'permission_target_principals', scope: 'all' },
  { table: 'projects', scope: 'all' },
  { table: 'project_roles', scope: 'all' },
  { table: 'project_members', scope: 'all' },
  { table: 'repositories', scope: 'repository-row' },
  { table: 'repository_properties', scope: 'repository' },
  { table: 'blobs', scope: 'blob' },
  { table: 'nodes', scope: 'repository' },
  { table: 'node_properties', scope: 'node', properties: true },
  { table: 'watches', scope: 'repository' },
  { table: 'download_stats', scope: 'node' },
  { table: 'remote_cache_entries', scope: 'node' },
  { table: 'archive_entries', scope: 'node' },
  { table: 'packages', scope: 'repository' },
  { table: 'package_versions', scope: 'node' },
  { table: 'npm_stars', scope: 'repository' },
  { table: 'docker_manifests', scope: 'repository' },
  { table: 'builds', scope: 'node', builds: true },
  { table: 'build_files', scope: 'build', builds: true },
  { table: 'build_promotions', scope: 'build', builds: true },
];

/** Tables a backup leaves out, and why; a restore empties the first three (they name users). */
export const NOT_BACKED_UP: Readonly<Record<string, string>> = {
  sessions: 'sign-ins end with the instance; everyone signs in again after a restore',
  user_tokens: 'password reset and invitation links are short-lived and single-use',
  sign_in_locks: 'temporary locks of failed sign-ins',
  job_runs: 'the history of jobs of this instance',
  cluster_nodes: 'the nodes running now and their heartbeats: a restored Depot writes its own',
  support_bundles:
    'diagnostics of this instance; their zips are backed up as files of the supportBundles repository',
  support_bundle_parts: "nodes' answers to a bundle being made",
  latest_builds:
    "each build name's newest build, rebuilt by a trigger as the restore inserts the builds",
  build_properties:
    "each build's properties flattened, rebuilt by a trigger as the restore inserts the builds",
  remote_misses: 'a remote repository forgets what its upstream did not have',
  remote_upstream_state: 'a remote upstream is asked again',
  docker_uploads: 'uploads in progress are abandoned',
  event_outbox: 'webhook events already fanned out or due',
  webhook_deliveries: 'deliveries of this instance',
  webhook_attempts: 'deliveries of this instance',
  webhook_pauses: 'deliveries of this instance',
  retention_executions:
    'retention runs of this instance; their cold store is not in the backup either',
  retention_items: "records of items in this instance's cold store, which a backup does not copy",
  kysely_migration: 'the schema version: a restore needs the same one',
  kysely_migration_lock: 'the schema version: a restore needs the same one',
};

/** Emptied before a restore though not restored: their rows name users that go. */
export const CLEARED_ON_RESTORE = ['sessions', 'user_tokens', 'sign_in_locks'] as const;
