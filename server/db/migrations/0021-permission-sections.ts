import type { Kysely } from 'kysely';

/**
 * The permission target sections of spec 01 §3 beyond repositories, builds and release
 * bundles: destinations (site, city and country rules), pipeline sources and Xray sources.
 * Each is one JSON document, as the others are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('permission_targets')
    .addColumn('destination', 'jsonb')
    .addColumn('pipeline_source', 'jsonb')
    .addColumn('xray_source', 'jsonb')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('permission_targets')
    .dropColumn('destination')
    .dropColumn('pipeline_source')
    .dropColumn('xray_source')
    .execute();
}
