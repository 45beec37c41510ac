import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { BuildDecider } from '../access-control/build-decider.ts';
import { AqlSyntaxError } from './aql-lexer.ts';
import type { JsonNode } from './aql-criteria.ts';
import { itemRelationOf, itemRelationSql, type ItemRelation } from './aql-build-items.ts';
import {
  BUILD_COLUMNS,
  BUILD_FIELDS,
  compare,
  comparisons,
  fail,
  fileField,
  type Builder,
  type Condition,
} from './aql-build-fields.ts';

/** A builds query's criteria object as SQL over `builds` (its joins as `exists`). */
export function criteria(
  eb: Builder,
  node: JsonNode,
  budget: { left: number },
  items: Map<JsonNode, ItemRelation[]>,
): Condition {
  if (node.type !== 'object') throw fail('expected an object of criteria', node);
  const parts = node.entries.flatMap(({ key, value, position }): Condition[] => {
    if (key === '$and' || key === '$or') {
      const parts = (value.type === 'array' ? value.items : [value]).map((part) =>
        criteria(eb, part, budget, items),
      );
      return [key === '$and' ? eb.and(parts) : eb.or(parts)];
    }
    if (itemRelationOf(key)) return []; // the object's item relations follow, one per relation
    if (key in BUILD_COLUMNS) {
      const { column, date } = BUILD_COLUMNS[key as keyof typeof BUILD_COLUMNS];
      return comparisons(value, budget, (op, v) => compare(eb, column, op, v, date));
    }
    if (key === 'url')
      return comparisons(value, budget, (op, v) =>
        compare(eb, sql`builds.document->>'url'`, op, v, false),
      );
    const file = fileField(key);
    if (!file)
      throw new AqlSyntaxError(
        `unknown field "${key}", expected one of ${BUILD_FIELDS.join(', ')}, module.name, module.artifact.<name|type|sha1|sha256|md5>, module.dependency.<name|type|scope|sha1|sha256|md5>, module.artifact.item.<item field>, module.dependency.item.<...>`,
        position,
      );
    // A module's file matches when one row of the build's files satisfies every comparison.
    return [
      eb.exists(
        eb
          .selectFrom('build_files')
          .select(sql`1`.as('one'))
          .whereRef('build_files.build_id', '=', 'builds.id')
          .$if(file.kind !== undefined, (q) => q.where('build_files.kind', '=', file.kind!))
          .where((inner) =>
            inner.and(
              comparisons(value, budget, (op, v) =>
                compare(inner as unknown as Builder, `build_files.${file.column}`, op, v, false),
              ),
            ),
          ),
      ),
    ];
  });
  return eb.and([...parts, ...(items.get(node) ?? []).map(itemRelationSql)]);
}

/**
 * The builds the caller may read among those the criteria on a build choose (an items
 * query's `artifact.module.build.*`); `'any'` when nothing narrows an administrator's.
 */
export async function readableBuildIds(
  db: Database,
  decider: BuildDecider,
  filter: JsonNode | undefined,
): Promise<number[] | 'any'> {
  if (decider.admin && !filter) return 'any';
  const rows = await db
    .selectFrom('builds')
    .select(['builds.id', 'builds.repository_key', 'builds.path'])
    .$if(filter !== undefined, (q) =>
      q.where((eb) => criteria(eb, filter!, { left: Infinity }, new Map())),
    )
    .execute();
  return rows
    .filter((row) => decider.can('read', { repositoryKey: row.repository_key, path: row.path }))
    .map((row) => Number(row.id));
}
