import { sql, type Kysely } from 'kysely';

/**
 * Maintenance: a record of every scheduled or manual job run (the console shows the last
 * run and its result), and per-file download statistics.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_runs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('job', 'text', (c) => c.notNull())
    // 'cron' when the schedule fired, 'manual' for a Run Now.
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addColumn('outcome', 'text', (c) =>
      c.notNull().check(sql`outcome in ('running', 'success', 'failure')`),
    )
    .addColumn('info', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('job_runs_job_started')
    .on('job_runs')
    .columns(['job', 'started_at'])
    .execute();

  await db.schema
    .createTable('download_stats')
    .addColumn('node_id', 'bigint', (c) =>
      c.primaryKey().references('nodes.id').onDelete('cascade'),
    )
    .addColumn('download_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_downloaded', 'timestamptz', (c) => c.notNull())
    .addColumn('last_downloaded_by', 'text', (c) => c.notNull())
    .execute();
}
