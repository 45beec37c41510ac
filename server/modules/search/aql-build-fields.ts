import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DepotDatabase } from '../../db/tables.ts';
import { AqlSyntaxError } from './aql-lexer.ts';
import type { JsonNode } from './aql-criteria.ts';
import { likePattern } from './wildcards.ts';
import { scopeSql } from './aql-build-scope.ts';

/*
 * The builds domain's fields and comparisons (docs/builds.md, "AQL"): what a builds query
 * may name, and each comparison of one as SQL. The criteria (aql-build-criteria.ts) and the
 * query (aql-builds.ts) are built from these.
 */

export type Builder = ExpressionBuilder<DepotDatabase, 'builds'>;
export type Condition = Expression<SqlBool>;

/** The builds domain's own fields, answered as `build.<field>`. */
export const BUILD_COLUMNS = {
  name: { column: 'builds.name', date: false },
  number: { column: 'builds.number', date: false },
  started: { column: 'builds.started_at', date: true },
  created: { column: 'builds.created_at', date: true },
  created_by: { column: 'builds.created_by', date: false },
} as const;
export const BUILD_FIELDS = [...Object.keys(BUILD_COLUMNS), 'url'];
/** The fields of a module's artifacts and dependencies (the `build_files` rows). */
const FILE_COLUMNS = { name: 'name', type: 'type', sha1: 'sha1', sha256: 'sha256', md5: 'md5' };
/** A dependency's scopes, comma-joined: compared one scope at a time (aql-build-scope.ts). */
const SCOPES_COLUMN = 'scopes';
const COMPARE = { $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
const OPERATORS = [...Object.keys(COMPARE), '$match', '$nmatch'];

export const fail = (message: string, at: { position: number }) =>
  new AqlSyntaxError(message, at.position);

/** `module.artifact.sha1`, `artifact.sha1`, `module.dependency.name`, `module.name`. */
export function fileField(
  key: string,
): { kind?: 'artifact' | 'dependency'; column: string } | undefined {
  const parts = key.replace(/^module\./, '').split('.');
  if (key.startsWith('module.') && parts.length === 1 && parts[0] === 'name')
    return { column: 'module_id' };
  const [kind, field] = parts;
  if ((kind === 'artifact' || kind === 'dependency') && field && field in FILE_COLUMNS)
    return { kind, column: FILE_COLUMNS[field as keyof typeof FILE_COLUMNS] };
  // Only a dependency has scopes (the build-info format gives an artifact none).
  if (kind === 'dependency' && field === 'scope' && parts.length === 2)
    return { kind, column: SCOPES_COLUMN };
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
export function compare(
  eb: Builder,
  column: Expression<unknown> | string,
  op: string,
  node: JsonNode,
  date: boolean,
): Condition {
  if (column === `build_files.${SCOPES_COLUMN}`)
    return scopeSql(sql.ref(column), op, String(operand(node, op, false)), likePattern);
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
export function comparisons(
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
