import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Criterion, ItemField, Operator, SortOrder } from './criteria.ts';
import { parseRelativeTime } from './relative-time.ts';
import { likePattern } from './wildcards.ts';
import { buildRelationSql } from './aql-build-relations.ts';

/**
 * Criteria to SQL over `nodes n join repositories r left join blobs b`. Every value is a
 * bound parameter; only column expressions and operators chosen from fixed tables below are
 * written into the text, so nothing a user types can change the statement.
 */

type Sql = RawBuilder<unknown>;

/** Names folded to lower case, ordered byte by byte: the expression `nodes_name_search` indexes. */
export const FOLDED_NAME = sql`lower(n.name) collate "C"`;

const COLUMNS: Record<ItemField, Sql> = {
  repo: sql`r.key`,
  path: sql`(case when n.parent_path = '' then '.' else n.parent_path end)`,
  name: sql`n.name`,
  type: sql`n.folder`,
  size: sql`n.size`,
  depth: sql`(length(n.path) - length(replace(n.path, '/', '')) + 1)`,
  created: sql`n.created_at`,
  created_by: sql`n.created_by`,
  modified: sql`n.modified_at`,
  modified_by: sql`n.modified_by`,
  updated: sql`n.modified_at`,
  sha256: sql`n.sha256`,
  actual_sha1: sql`b.sha1`,
  actual_md5: sql`b.md5`,
  original_sha1: sql`b.sha1`,
  original_md5: sql`b.md5`,
};

/** The item fields whose column above is the blob's (`b`): a query naming one joins `blobs b`. */
export const BLOB_FIELDS: ReadonlySet<ItemField> = new Set<ItemField>([
  'actual_sha1',
  'actual_md5',
  'original_sha1',
  'original_md5',
]);

const COMPARE: Partial<Record<Operator, Sql>> = {
  $eq: sql`=`,
  $ne: sql`is distinct from`,
  $gt: sql`>`,
  $gte: sql`>=`,
  $lt: sql`<`,
  $lte: sql`<=`,
};

const TRUE = sql<SqlBool>`true`;
const FALSE = sql<SqlBool>`false`;

/** A comparison of `column` with a value, or of `folded` case-insensitively when asked. */
function compare(column: Sql, op: Operator, value: string | number | Date): RawBuilder<SqlBool> {
  if (op === '$match') return sql<SqlBool>`${column} like ${likePattern(String(value))}`;
  if (op === '$nmatch')
    return sql<SqlBool>`(${column} is null or ${column} not like ${likePattern(String(value))})`;
  if (op === '$last' || op === '$before') {
    const since = new Date(Date.now() - parseRelativeTime(String(value))!);
    return sql<SqlBool>`${column} ${op === '$last' ? sql`>=` : sql`<`} ${since}`;
  }
  return sql<SqlBool>`${column} ${COMPARE[op]!} ${value}`;
}

/**
 * Names compare through the folded-name index: a case-insensitive test on it narrows by
 * index, then the exact test (unless case is to be ignored) keeps only true matches.
 */
function nameCriterion(op: Operator, value: string, ignoreCase: boolean): RawBuilder<SqlBool> {
  const folded = compare(FOLDED_NAME, op, value.toLowerCase());
  if (ignoreCase) return folded;
  const exact = compare(COLUMNS.name, op, value);
  return op === '$eq' || op === '$match' ? sql<SqlBool>`(${folded} and ${exact})` : exact;
}

function fieldCriterion(criterion: Extract<Criterion, { kind: 'field' }>): RawBuilder<SqlBool> {
  const { field, op, value } = criterion;
  if (field === 'type') {
    if (value === 'any') return op === '$eq' ? TRUE : FALSE;
    return sql<SqlBool>`n.folder = ${(value === 'folder') === (op === '$eq')}`;
  }
  if (field === 'name') return nameCriterion(op, String(value), criterion.ignoreCase ?? false);
  // The root's files have the path "." (as in Artifactory); equality stays on the index.
  if (field === 'path' && (op === '$eq' || op === '$ne')) {
    const parent = value === '.' ? '' : String(value);
    return compare(sql`n.parent_path`, op, parent);
  }
  const isDate = field === 'created' || field === 'modified' || field === 'updated';
  const operand = isDate && op !== '$last' && op !== '$before' ? new Date(value) : value;
  return compare(COLUMNS[field], op, operand);
}

/** `exists` a property of the item that satisfies `test`; negated operators negate it. */
function propertyExists(
  test: (op: Operator) => RawBuilder<SqlBool>,
  op: Operator,
): RawBuilder<SqlBool> {
  const negated = op === '$ne' || op === '$nmatch';
  const positive = op === '$ne' ? '$eq' : op === '$nmatch' ? '$match' : op;
  const exists = sql<SqlBool>`exists (select 1 from node_properties p where p.node_id = n.id and ${test(positive)})`;
  return negated ? sql<SqlBool>`not ${exists}` : exists;
}

export function whereSql(criterion: Criterion): RawBuilder<SqlBool> {
  switch (criterion.kind) {
    case 'field':
      return fieldCriterion(criterion);
    case 'property':
      return propertyExists((op) => {
        const valueTest = compare(sql`p.value`, op, criterion.value);
        return criterion.key === undefined
          ? valueTest
          : sql<SqlBool>`p.key = ${criterion.key} and ${valueTest}`;
      }, criterion.op);
    case 'propertyKey':
      return propertyExists((op) => compare(sql`p.key`, op, criterion.value), criterion.op);
    case 'downloaded': {
      const exists = sql<SqlBool>`exists (select 1 from download_stats d where d.node_id = n.id and ${compare(sql`d.last_downloaded`, criterion.op, new Date(criterion.value))})`;
      return criterion.negated ? sql<SqlBool>`not ${exists}` : exists;
    }
    case 'build':
      return buildRelationSql(criterion, likePattern);
    case 'and':
    case 'or': {
      if (criterion.items.length === 0) return criterion.kind === 'and' ? TRUE : FALSE;
      const joiner = criterion.kind === 'and' ? sql` and ` : sql` or `;
      return sql<SqlBool>`(${sql.join(criterion.items.map(whereSql), joiner)})`;
    }
  }
}

/** What an order by a field sorts on: names case-insensitively, like the index. */
const SORT_COLUMNS: Record<ItemField, Sql> = {
  ...COLUMNS,
  name: FOLDED_NAME,
  path: sql`n.parent_path`,
};

/** The order of a search's rows, always ending on the node id so that pages never overlap. */
export function orderSql(sort: readonly SortOrder[]): Sql {
  const keys = sort.map(
    (order) =>
      sql`${SORT_COLUMNS[order.field]} ${order.direction === 'asc' ? sql`asc` : sql`desc`}`,
  );
  return sql.join([...keys, sql`n.id asc`]);
}
