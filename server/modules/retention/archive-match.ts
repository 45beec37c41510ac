import { parseRelativeTime } from '../search/relative-time.ts';
import type { Criterion, ItemField, Operator } from '../search/criteria.ts';
import type { ArchivedItem } from './item-queries.ts';
import { fullPath } from './restore.ts';

type Value = string | number | Date | null;

/** An archived item's value of an AQL field (items in the archive are files). */
function fieldOf(item: ArchivedItem, field: ItemField): Value {
  switch (field) {
    case 'repo':
      return item.repo_key;
    case 'path':
      return item.path === '' ? '.' : item.path;
    case 'name':
      return item.name;
    case 'type':
      return 'file';
    case 'size':
      return Number(item.size);
    case 'depth':
      return fullPath(item).split('/').length;
    case 'created':
    case 'modified':
    case 'updated':
      return new Date(item.item_created_at);
    case 'created_by':
    case 'modified_by':
      return item.item_created_by;
    case 'sha256':
      return item.sha256;
    case 'actual_sha1':
    case 'original_sha1':
      return item.sha1;
    case 'actual_md5':
    case 'original_md5':
      return item.md5;
  }
}

/** AQL's wildcards (`*` any characters, `?` one) as a whole-value pattern. */
function wildcard(pattern: string, ignoreCase: boolean): RegExp {
  const body = pattern
    .split('')
    .map((char) =>
      char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${body}$`, ignoreCase ? 'is' : 's');
}

function compare(actual: Value, op: Operator, expected: string | number, ignoreCase = false) {
  if (op === '$match' || op === '$nmatch') {
    const matched = actual !== null && wildcard(String(expected), ignoreCase).test(String(actual));
    return op === '$match' ? matched : !matched;
  }
  if (op === '$last' || op === '$before') {
    const since = Date.now() - (parseRelativeTime(String(expected)) ?? 0);
    const time = actual instanceof Date ? actual.getTime() : NaN;
    return op === '$last' ? time >= since : time < since;
  }
  const left = actual instanceof Date ? actual.getTime() : actual;
  const right =
    actual instanceof Date
      ? Date.parse(String(expected))
      : typeof left === 'number'
        ? Number(expected)
        : expected;
  const [a, b] =
    ignoreCase && typeof left === 'string'
      ? [left.toLowerCase(), String(right).toLowerCase()]
      : [left, right];
  switch (op) {
    case '$eq':
      return a === b;
    case '$ne':
      return a !== b;
    case '$gt':
      return a !== null && a > b;
    case '$gte':
      return a !== null && a >= b;
    case '$lt':
      return a !== null && a < b;
    default:
      return a !== null && a <= b;
  }
}

/** Whether some property (of `key`, or any) has a value that compares; negated ops negate it. */
function propertyHolds(
  properties: Record<string, string[]>,
  key: string | undefined,
  op: Operator,
  value: string,
  onKey = false,
) {
  const negated = op === '$ne' || op === '$nmatch';
  const positive: Operator = op === '$ne' ? '$eq' : op === '$nmatch' ? '$match' : op;
  const found = Object.entries(properties).some(([name, values]) =>
    onKey
      ? compare(name, positive, value)
      : (key === undefined || name === key) && values.some((v) => compare(v, positive, value)),
  );
  return negated ? !found : found;
}

/**
 * Whether an archived item satisfies AQL criteria, as the database would answer them for a
 * stored file: the archive search reads the same queries as the item search. Archived items
 * have no downloads.
 */
export function archivedItemMatches(item: ArchivedItem, criterion: Criterion): boolean {
  switch (criterion.kind) {
    case 'field':
      if (criterion.field === 'type')
        return (
          criterion.value === 'any' || (criterion.value === 'file') === (criterion.op === '$eq')
        );
      return compare(
        fieldOf(item, criterion.field),
        criterion.op,
        criterion.value,
        criterion.ignoreCase,
      );
    case 'property':
      return propertyHolds(item.properties, criterion.key, criterion.op, criterion.value);
    case 'propertyKey':
      return propertyHolds(item.properties, undefined, criterion.op, criterion.value, true);
    case 'downloaded':
      return Boolean(criterion.negated);
    case 'build': // the items-only AQL of retention refuses build relations (parseAql)
      return false;
    case 'and':
      return criterion.items.every((part) => archivedItemMatches(item, part));
    case 'or':
      return criterion.items.some((part) => archivedItemMatches(item, part));
  }
}
