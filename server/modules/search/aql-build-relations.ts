import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { AqlSyntaxError } from './aql-lexer.ts';
import { scopeSql } from './aql-build-scope.ts';
import type { JsonNode } from './aql-criteria.ts';
import {
  OPERATORS,
  RELATIVE_TIMES,
  type BuildFileColumn,
  type BuildRelation,
  type Criterion,
  type Operator,
} from './criteria.ts';

type Entry = { key: string; position: number; value: JsonNode };
type Relation = BuildRelation['relation'];

const RELATIONS: readonly Relation[] = ['artifact', 'dependency'];
/** The build's own fields an item's relation may compare (the builds domain's). */
export const RELATED_BUILD_FIELDS = ['name', 'number', 'started', 'created', 'created_by', 'url'];
/** The fields of the module's file row that lists the item. */
const FILE_FIELDS: Record<string, BuildFileColumn> = {
  'module.name': 'module_id',
  name: 'name',
  type: 'type',
};
/** A dependency's scopes (`dependency.scope`); an artifact has none. */
const DEPENDENCY_FIELDS: Record<string, BuildFileColumn> = { ...FILE_FIELDS, scope: 'scopes' };
const BUILD_PREFIX = 'module.build.';

/** `artifact` for `artifact.module.build.name`, undefined for a key that is no relation. */
export function relationOf(key: string): Relation | undefined {
  return RELATIONS.find((relation) => key.startsWith(`${relation}.`));
}

const fail = (message: string, position: number) => new AqlSyntaxError(message, position);

/** A field's comparisons: a bare value is `$eq`, an object of operators all hold. */
function pairs(entry: Entry): { op: Operator; value: JsonNode; position: number }[] {
  const { value } = entry;
  if (value.type !== 'object') return [{ op: '$eq', value, position: value.position }];
  if (value.entries.length === 0) throw fail('expected at least one operator', value.position);
  return value.entries.map((e) => {
    const known = (OPERATORS as readonly string[]).includes(e.key);
    if (!known || (RELATIVE_TIMES as readonly string[]).includes(e.key))
      throw fail(`unknown operator "${e.key}" for ${entry.key}`, e.position);
    return { op: e.key as Operator, value: e.value, position: e.position };
  });
}

/**
 * One object's criteria on one relation (`artifact.module.build.name`,
 * `artifact.module.build.number`, `artifact.module.name`, ...) as one relation: they all hold
 * for the same module file of the same build, as in Artifactory, where they are one join.
 */
export function buildRelation(
  relation: Relation,
  entries: Entry[],
  take: (position: number) => void,
): BuildRelation {
  const build: Entry[] = [];
  const files: BuildRelation['files'] = [];
  for (const entry of entries) {
    const rest = entry.key.slice(relation.length + 1);
    const buildField = rest.startsWith(BUILD_PREFIX) ? rest.slice(BUILD_PREFIX.length) : undefined;
    if (buildField !== undefined && RELATED_BUILD_FIELDS.includes(buildField)) {
      for (const pair of pairs(entry)) take(pair.position);
      build.push({ ...entry, key: buildField });
      continue;
    }
    const column = (relation === 'dependency' ? DEPENDENCY_FIELDS : FILE_FIELDS)[rest];
    if (!column)
      throw fail(
        `unknown field "${entry.key}", expected ${relation}.module.build.<${RELATED_BUILD_FIELDS.join('|')}>, ${relation}.module.name, ${relation}.name${relation === 'dependency' ? ', dependency.scope' : ''} or ${relation}.type`,
        entry.position,
      );
    for (const { op, value, position } of pairs(entry)) {
      take(position);
      if (value.type !== 'string' && value.type !== 'number')
        throw fail(`expected a string or a number after ${op}`, value.position);
      files.push({ column, op, value: String(value.value) });
    }
  }
  const position = entries[0]?.position ?? 0;
  return {
    kind: 'build',
    relation,
    position,
    files,
    ...(build.length > 0 ? { build: { type: 'object', entries: build, position } } : {}),
  };
}

/** The first build relation the criteria name, if any. */
export function firstBuildRelation(criterion: Criterion): BuildRelation | undefined {
  if (criterion.kind === 'build') return criterion;
  if (criterion.kind === 'and' || criterion.kind === 'or')
    for (const item of criterion.items) {
      const found = firstBuildRelation(item);
      if (found) return found;
    }
  return undefined;
}

/**
 * The criteria with every build relation's builds resolved (`buildIds`) by `resolve`: the
 * search service passes the builds the caller may read, so that no relation reveals a build
 * the caller may not see.
 */
export async function resolveBuildRelations(
  criterion: Criterion,
  resolve: (relation: BuildRelation) => Promise<readonly number[] | 'any'>,
): Promise<Criterion> {
  if (criterion.kind === 'build') return { ...criterion, buildIds: await resolve(criterion) };
  if (criterion.kind === 'and' || criterion.kind === 'or') {
    const items: Criterion[] = [];
    for (const item of criterion.items) items.push(await resolveBuildRelations(item, resolve));
    return { ...criterion, items };
  }
  return criterion;
}

const FILE_COMPARE: Partial<Record<Operator, RawBuilder<unknown>>> = {
  $eq: sql`=`,
  $ne: sql`is distinct from`,
  $gt: sql`>`,
  $gte: sql`>=`,
  $lt: sql`<`,
  $lte: sql`<=`,
};

/**
 * A resolved relation as SQL over the item (`n`, its blob `b`): the item's SHA-256 or SHA-1
 * is among those the relation's module files list. Each side is a set the database hashes
 * once, so the item scan does not run a subquery per row.
 */
export function buildRelationSql(
  relation: BuildRelation,
  likePattern: (value: string) => string,
): RawBuilder<SqlBool> {
  const { buildIds } = relation;
  if (buildIds === undefined) throw new Error('a build relation ran before its builds resolved');
  if (buildIds !== 'any' && buildIds.length === 0) return sql<SqlBool>`false`;
  const conditions = [
    sql`f.kind = ${relation.relation}`,
    ...(buildIds === 'any' ? [] : [sql`f.build_id = any(${buildIds}::bigint[])`]),
    ...relation.files.map(({ column, op, value }) => {
      const ref = sql.ref(`f.${column}`);
      if (column === 'scopes') return scopeSql(ref, op, value, likePattern);
      if (op === '$match') return sql`${ref} like ${likePattern(value)}`;
      if (op === '$nmatch') return sql`(${ref} is null or ${ref} not like ${likePattern(value)})`;
      return sql`${ref} ${FILE_COMPARE[op]!} ${value}`;
    }),
  ];
  const where = sql.join(conditions, sql` and `);
  return sql<SqlBool>`(n.sha256 in (select f.sha256 from build_files f where ${where} and f.sha256 is not null)
    or b.sha1 in (select f.sha1 from build_files f where ${where} and f.sha1 is not null))`;
}
