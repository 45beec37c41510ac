/**
 * What every search compiles to before it reaches the database: AQL queries, the console's
 * search types and the scripted search API all build these, and one engine runs them
 * (docs/search.md). Values stay values here; only `item-sql.ts` turns them into SQL, and
 * always as bound parameters.
 */

import type { JsonNode } from './aql-criteria.ts';

/** The item fields a criterion, a sort or an include may name (AQL's names). */
export const ITEM_FIELDS = [
  'repo',
  'path',
  'name',
  'type',
  'size',
  'depth',
  'created',
  'created_by',
  'modified',
  'modified_by',
  'updated',
  'sha256',
  'actual_sha1',
  'actual_md5',
  'original_sha1',
  'original_md5',
] as const;
export type ItemField = (typeof ITEM_FIELDS)[number];

export const COMPARISONS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte'] as const;
export const MATCHES = ['$match', '$nmatch'] as const;
/** Relative times: `$last: "3d"` is within the last three days, `$before` earlier than that. */
export const RELATIVE_TIMES = ['$last', '$before'] as const;
export const OPERATORS = [...COMPARISONS, ...MATCHES, ...RELATIVE_TIMES] as const;
export type Operator = (typeof OPERATORS)[number];

export type Criterion =
  | { kind: 'field'; field: ItemField; op: Operator; value: string | number; ignoreCase?: boolean }
  /** `@key` compared on its values; `key` undefined compares any property's value. */
  | { kind: 'property'; key: string | undefined; op: Operator; value: string }
  /** `property.key`: some property has a key that compares. */
  | { kind: 'propertyKey'; op: Operator; value: string }
  /** A download at a time that compares (`negated`: no such download); not in AQL. */
  | { kind: 'downloaded'; op: '$gte' | '$lte'; value: string; negated?: boolean }
  | BuildRelation
  | { kind: 'and' | 'or'; items: Criterion[] };

/** A column of a build's file row (`build_files`) an item's build relation compares. */
export type BuildFileColumn = 'module_id' | 'name' | 'type' | 'scopes';

/**
 * The item is listed, by SHA-256 or SHA-1, as an artifact or a dependency of a build's
 * module (AQL's `artifact.module.build.name`, `dependency.module.name`, ...). `build` holds
 * the criteria on the build itself as the builds domain reads them; before the query runs,
 * the search service resolves them to the builds the caller may read (`buildIds`, or `'any'`
 * when nothing narrows an administrator's builds).
 */
export interface BuildRelation {
  kind: 'build';
  relation: 'artifact' | 'dependency';
  /** Where the relation's first criterion is in the query text. */
  position: number;
  build?: JsonNode;
  files: { column: BuildFileColumn; op: Operator; value: string }[];
  buildIds?: readonly number[] | 'any';
}

export interface SortOrder {
  field: ItemField;
  direction: 'asc' | 'desc';
}

/** Which items a search looks among: the artifacts, or those in the trash can. */
export type SearchScope = 'artifacts' | 'trash';

export interface ItemQuery {
  where: Criterion;
  sort: SortOrder[];
  scope: SearchScope;
}

export const all = (...items: (Criterion | undefined)[]): Criterion => ({
  kind: 'and',
  items: items.filter((item): item is Criterion => item !== undefined),
});

export const any = (...items: Criterion[]): Criterion => ({ kind: 'or', items });

export const field = (
  name: ItemField,
  op: Operator,
  value: string | number,
  ignoreCase = false,
): Criterion => ({ kind: 'field', field: name, op, value, ignoreCase });

/** Files only: what most searches want, and AQL's default unless `type` is given. */
export const FILES_ONLY = field('type', '$eq', 'file');

/** Whether a criterion names a field anywhere in it. */
export function mentions(criterion: Criterion, name: ItemField): boolean {
  if (criterion.kind === 'field') return criterion.field === name;
  if (criterion.kind === 'and' || criterion.kind === 'or')
    return criterion.items.some((item) => mentions(item, name));
  return false;
}
