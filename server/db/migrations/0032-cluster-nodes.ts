import { type Kysely } from 'kysely';

/**
 * The cluster's nodes (docs/service-status.md): each Depot process writes its row at start
 * and its heartbeat on an interval, with the health it measured. `nodes` is the artifact
 * tree's table, hence the name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cluster_nodes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_heartbeat', 'timestamptz', (c) => c.notNull())
    .addColumn('heartbeat_seconds', 'integer', (c) => c.notNull())
    .addColumn('health', 'jsonb', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cluster_nodes').execute();
}
