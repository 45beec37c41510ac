import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { BuildDecider } from '../access-control/build-decider.ts';
import type { BuildsAqlQuery } from './aql-parser.ts';
import { itemRelationsOf, resolveItemRelations, type ItemRelation } from './aql-build-items.ts';
import { BUILD_COLUMNS, BUILD_FIELDS, fail } from './aql-build-fields.ts';
import { criteria } from './aql-build-criteria.ts';

/**
 * AQL's builds domain (docs/search.md, "AQL"): `builds.find(...)` over the build's own
 * fields, its modules' artifacts and dependencies, and the stored items they are
 * (`module.artifact.item.repo`; `readableItems` gives those a non-administrator may read), answered in Artifactory's shape
 * (`build.name`, ...). Only builds the caller may read are answered, before offset and limit
 * apply, as the items domain does.
 */
export async function findBuilds(
  db: Database,
  decider: BuildDecider,
  query: BuildsAqlQuery,
  readableItems?: (relation: ItemRelation) => Promise<number[]>,
) {
  const include = query.include.map((field) => {
    const name = field.name.replace(/^build\./, '');
    if (!BUILD_FIELDS.includes(name))
      throw fail(
        `unknown field "${field.name}", expected one of ${BUILD_FIELDS.join(', ')}`,
        field,
      );
    return name;
  });
  const sort = query.sort.map((order) => {
    const name = order.field.replace(/^build\./, '');
    if (!(name in BUILD_COLUMNS))
      throw fail(
        `cannot sort by "${order.field}", expected one of ${Object.keys(BUILD_COLUMNS).join(', ')}`,
        order,
      );
    return {
      column: BUILD_COLUMNS[name as keyof typeof BUILD_COLUMNS].column,
      direction: order.direction,
    };
  });
  const budget = { left: query.maxCriteria };
  const filter = query.filter;
  const items = itemRelationsOf(filter, query.maxCriteria);
  await resolveItemRelations(items, readableItems);
  let select = db
    .selectFrom('builds')
    .select([
      'builds.name',
      'builds.number',
      'builds.started_at',
      'builds.created_at',
      'builds.created_by',
      'builds.repository_key',
      'builds.path',
      sql<string | null>`builds.document->>'url'`.as('url'),
    ])
    .$if(filter !== undefined, (q) => q.where((eb) => criteria(eb, filter!, budget, items)));
  for (const order of sort) select = select.orderBy(order.column, order.direction);
  const rows = (await select.orderBy('builds.id').execute()).filter((row) =>
    decider.can('read', { repositoryKey: row.repository_key, path: row.path }),
  );
  const page = rows.slice(
    query.offset,
    query.limit === undefined ? undefined : query.offset + query.limit,
  );
  const fields = include.length > 0 ? include : BUILD_FIELDS;
  const results = page.map((row) => {
    const values: Record<string, unknown> = {
      name: row.name,
      number: row.number,
      started: row.started_at.toISOString(),
      created: row.created_at.toISOString(),
      created_by: row.created_by,
      url: row.url ?? '',
    };
    return Object.fromEntries(fields.map((field) => [`build.${field}`, values[field]]));
  });
  return {
    results,
    range: {
      start_pos: query.offset,
      end_pos: query.offset + results.length,
      total: results.length,
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
    },
  };
}
