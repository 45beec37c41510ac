import { AqlSyntaxError } from './aql-lexer.ts';
import {
  all,
  any,
  FILES_ONLY,
  ITEM_FIELDS,
  mentions,
  OPERATORS,
  RELATIVE_TIMES,
  type Criterion,
  type ItemField,
  type Operator,
} from './criteria.ts';
import { parseRelativeTime } from './relative-time.ts';
import { buildRelation, relationOf } from './aql-build-relations.ts';

/** Counts comparisons as they are made and refuses the first past the limit. */
class CriteriaBudget {
  private used = 0;
  constructor(private readonly max: number) {}

  take(position: number) {
    this.used += 1;
    if (this.used > this.max)
      throw new AqlSyntaxError(`more than ${this.max} criteria (the limit)`, position);
  }
}

/** A JSON value of the query text, with where it began for error messages. */
export type JsonNode =
  | { type: 'string'; value: string; position: number }
  | { type: 'number'; value: number; position: number }
  | {
      type: 'object';
      entries: { key: string; position: number; value: JsonNode }[];
      position: number;
    }
  | { type: 'array'; items: JsonNode[]; position: number };

const NUMERIC_FIELDS: ReadonlySet<ItemField> = new Set(['size', 'depth']);
const DATE_FIELDS: ReadonlySet<ItemField> = new Set(['created', 'modified', 'updated']);
const TYPES = ['file', 'folder', 'any'];

/**
 * The criteria of `find(...)`: an object's entries all hold, `$and` and `$or` take an array
 * (or an object) of criteria, `@key` compares a property's values, `property.key` and
 * `property.value` any property's. Items are files unless the query says otherwise.
 */
export function criteriaOf(filter: JsonNode | undefined, maxCriteria: number): Criterion {
  if (filter === undefined) return FILES_ONLY;
  if (filter.type !== 'object') throw expected('an object of criteria', filter);
  const where = objectCriteria(filter, new CriteriaBudget(maxCriteria));
  return mentions(where, 'type') ? where : all(where, FILES_ONLY);
}

/** An object's entries all hold; those on one build relation hold for one module file. */
function objectCriteria(
  node: Extract<JsonNode, { type: 'object' }>,
  budget: CriteriaBudget,
): Criterion {
  const relations = new Map<string, typeof node.entries>();
  const own: typeof node.entries = [];
  for (const entry of node.entries) {
    const relation = relationOf(entry.key);
    if (relation) relations.set(relation, [...(relations.get(relation) ?? []), entry]);
    else own.push(entry);
  }
  return all(
    ...own.map((entry) => entryCriterion(entry.key, entry.position, entry.value, budget)),
    ...[...relations].map(([relation, entries]) =>
      buildRelation(relation as 'artifact' | 'dependency', entries, (at) => budget.take(at)),
    ),
  );
}

function entryCriterion(
  key: string,
  position: number,
  value: JsonNode,
  budget: CriteriaBudget,
): Criterion {
  if (key === '$and' || key === '$or') {
    const parts = value.type === 'array' ? value.items : [value];
    const items = parts.map((part) => {
      if (part.type !== 'object') throw expected(`an object inside ${key}`, part);
      return objectCriteria(part, budget);
    });
    return key === '$and' ? all(...items) : any(...items);
  }
  const compare = (make: (op: Operator, operand: JsonNode) => Criterion) =>
    comparisons(value, make, budget);
  if (key.startsWith('@')) {
    const name = key.slice(1);
    return compare((op, operand) => ({
      kind: 'property',
      key: name === '*' ? undefined : name,
      op,
      value: String(text(operand, op)),
    }));
  }
  if (key === 'property.key')
    return compare((op, operand) => ({
      kind: 'propertyKey',
      op,
      value: String(text(operand, op)),
    }));
  if (key === 'property.value')
    return compare((op, operand) => ({
      kind: 'property',
      key: undefined,
      op,
      value: String(text(operand, op)),
    }));
  if (key === 'stat.downloaded') return compare(downloadedCriterion);
  if (!(ITEM_FIELDS as readonly string[]).includes(key))
    throw new AqlSyntaxError(
      `unknown field "${key}", expected one of ${ITEM_FIELDS.join(', ')}, @property, property.key, property.value, artifact.module.build.<field>, dependency.module.build.<field>, $and or $or`,
      position,
    );
  const field = key as ItemField;
  return compare((op, operand) => fieldCriterion(field, op, operand));
}

/** `"value"` means `$eq`; `{"$op": value, ...}` means all of those comparisons. */
function comparisons(
  value: JsonNode,
  make: (op: Operator, operand: JsonNode) => Criterion,
  budget: CriteriaBudget,
): Criterion {
  if (value.type !== 'object') {
    budget.take(value.position);
    return make('$eq', value);
  }
  if (value.entries.length === 0) throw expected('at least one operator', value);
  return all(
    ...value.entries.map((entry) => {
      if (!(OPERATORS as readonly string[]).includes(entry.key))
        throw new AqlSyntaxError(
          `unknown operator "${entry.key}", expected one of ${OPERATORS.join(', ')}`,
          entry.position,
        );
      budget.take(entry.position);
      return make(entry.key as Operator, entry.value);
    }),
  );
}

function text(operand: JsonNode, op: Operator): string | number {
  if (operand.type === 'string' || operand.type === 'number') return operand.value;
  throw expected(`a string or a number after ${op}`, operand);
}

function fieldCriterion(field: ItemField, op: Operator, operand: JsonNode): Criterion {
  const value = text(operand, op);
  const isRelative = (RELATIVE_TIMES as readonly string[]).includes(op);
  if (isRelative) {
    if (!DATE_FIELDS.has(field)) throw expected(`a date field before ${op}`, operand);
    if (parseRelativeTime(String(value)) === undefined)
      throw expected('a period such as 3d, 2w, 1mo, 1y, 12h or 30minutes', operand);
    return { kind: 'field', field, op, value: String(value) };
  }
  const isMatch = op === '$match' || op === '$nmatch';
  if (NUMERIC_FIELDS.has(field)) {
    // Sizes and depths are whole numbers in the database: anything else could not compare.
    const number = Number(value);
    if (isMatch || value === '' || !Number.isSafeInteger(number))
      throw expected(`a whole number with a comparison for ${field}`, operand);
    return { kind: 'field', field, op, value: number };
  }
  if (DATE_FIELDS.has(field)) {
    const time = new Date(typeof value === 'number' ? value : Date.parse(value)).getTime();
    if (isMatch || Number.isNaN(time))
      throw expected(`a date such as 2024-01-31 with a comparison for ${field}`, operand);
    return { kind: 'field', field, op, value: new Date(time).toISOString() };
  }
  if (field === 'type') {
    if (!TYPES.includes(String(value)) || (op !== '$eq' && op !== '$ne'))
      throw expected('"file", "folder" or "any" with $eq or $ne', operand);
  }
  return { kind: 'field', field, op, value: String(value) };
}

/**
 * `stat.downloaded`: when an item was last downloaded. `$before: "6mo"` (or `$lt` a date)
 * holds for items not downloaded since then, never downloaded ones included, as retention
 * means it; `$last` (or `$gte`) for items downloaded since.
 */
function downloadedCriterion(op: Operator, operand: JsonNode): Criterion {
  const value = text(operand, op);
  const isRelative = op === '$last' || op === '$before';
  const span = isRelative ? parseRelativeTime(String(value)) : undefined;
  const time = isRelative
    ? span === undefined
      ? NaN
      : Date.now() - span
    : new Date(typeof value === 'number' ? value : Date.parse(value)).getTime();
  if (Number.isNaN(time) || !['$last', '$before', '$lt', '$gte'].includes(op))
    throw expected(
      '$before or $last with a period, or $lt or $gte with a date, for stat.downloaded',
      operand,
    );
  const since = new Date(time).toISOString();
  const notSince = op === '$before' || op === '$lt';
  return { kind: 'downloaded', op: '$gte', value: since, negated: notSince };
}

function expected(what: string, node: JsonNode): AqlSyntaxError {
  return new AqlSyntaxError(`expected ${what}`, node.position);
}
