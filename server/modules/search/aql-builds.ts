import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import type { BuildDecider } from '../access-control/build-decider.ts';
import { AqlSyntaxError } from './aql-lexer.ts';
import type { JsonNode } from './aql-criteria.ts';
import type { BuildsAqlQuery } from './aql-parser.ts';
import { likePattern } from './wildcards.ts';
import {
  itemRelationOf,
  itemRelationSql,
  itemRelationsOf,
  resolveItemRelations,
  type ItemRelation,
} from './aql-build-items.ts';

type Builder = ExpressionBuilder<DepotDatabase, 'builds'>;
type Condition = Expression<SqlBool>;

/** The builds domain's own fields, answered as `build.<field>`. */
const BUILD_COLUMNS = {
  name: { column: 'builds.name', date: false },
  number: { column: 'builds.number', date: false },
  started: { column: 'builds.started_at', date: true },
  created: { column: 'builds.created_at', date: true },
  created_by: { column: 'builds.created_by', date: false },
} as const;
const BUILD_FIELDS = [...Object.keys(BUILD_COLUMNS), 'url'];
/** The fields of a module's artifacts and dependencies (the `build_files` rows). */
const FILE_COLUMNS = { name: 'name', type: 'type', sha1: 'sha1', sha256: 'sha256', md5: 'md5' };
const COMPARE = { $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
const OPERATORS = [...Object.keys(COMPARE), '$match', '$nmatch'];

const fail = (message: string, at: { position: number }) =>
  new AqlSyntaxError(message, at.position);

/** `module.artifact.sha1`, `artifact.sha1`, `module.dependency.name`, `module.name`. */
function fileField(key: string): { kind?: 'artifact' | 'dependency'; column: string } | undefined {
  const parts = key.replace(/^module\./, '').split('.');
  if (key.startsWith('module.') && parts.length === 1 && parts[0] === 'name')
    return { column: 'module_id' };
  const [kind, field] = parts;
  if ((kind === 'artifact' || kind === 'dependency') && field && field in FILE_COLUMNS)
    return { kind, column: FILE_COLUMNS[field as keyof typeof FILE_COLUMNS] };
  return undefined;
}

function operand(node: JsonNode, op: string, date: boolean): string | Date {
  if (node.type !== 'string' && node.type !== 'number')
    throw fail(`expected a string or a number after ${op}`, node);
  if (!date) return String(node.value);
  const time = new Date(node.value);
  if (Number.isNaN(time.getTime())) throw fail(`expected a time after ${op}`, node);
  return time;
}

/** One comparison of a column (or an expression) with a value, as SQL. */
function compare(
  eb: Builder,
  column: Expression<unknown> | string,
  op: string,
  node: JsonNode,
  date: boolean,
): Condition {
  const ref = typeof column === 'string' ? eb.ref(column as 'builds.name') : column;
  if (op === '$match' || op === '$nmatch') {
    const pattern = likePattern(String(operand(node, op, false)));
    return op === '$match'
      ? eb(ref as never, 'like', pattern as never)
      : eb(ref as never, 'not like', pattern as never);
  }
  return eb(ref as never, COMPARE[op as keyof typeof COMPARE], operand(node, op, date) as never);
}

/** A field's criteria: a bare value is `$eq`, an object of operators all hold. */
function comparisons(
  node: JsonNode,
  budget: { left: number },
  make: (op: string, value: JsonNode) => Condition,
) {
  const pairs =
    node.type === 'object'
      ? node.entries.map((e) => [e.key, e.value, e] as const)
      : [['$eq', node, node] as const];
  if (pairs.length === 0) throw fail('expected at least one operator', node);
  return pairs.map(([op, value, at]) => {
    if (!OPERATORS.includes(op))
      throw fail(`unknown operator "${op}", expected one of ${OPERATORS.join(', ')}`, at);
    if (--budget.left < 0) throw fail('more than the allowed criteria (the limit)', at);
    return make(op, value);
  });
}

function criteria(
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
        `unknown field "${key}", expected one of ${BUILD_FIELDS.join(', ')}, module.name, module.artifact.<name|type|sha1|sha256|md5>, module.dependency.<...>, module.artifact.item.<item field>, module.dependency.item.<...>`,
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
