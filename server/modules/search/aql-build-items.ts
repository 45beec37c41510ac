import { sql, type Expression, type SqlBool } from 'kysely';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import { criteriaOf, type JsonNode } from './aql-criteria.ts';
import { whereSql } from './item-sql.ts';
import type { Criterion } from './criteria.ts';

type Relation = 'artifact' | 'dependency';
type ObjectNode = Extract<JsonNode, { type: 'object' }>;

/** One object's `module.<relation>.item.*` criteria: they hold for one stored item. */
export interface ItemRelation {
  relation: Relation;
  where: Criterion;
  /** The items the caller may read that satisfy `where`; undefined when the caller reads all. */
  nodeIds?: readonly number[];
}

const PREFIXES: Record<Relation, string> = {
  artifact: 'module.artifact.item.',
  dependency: 'module.dependency.item.',
};

/** `artifact` for `module.artifact.item.repo`, undefined for any other key. */
export function itemRelationOf(key: string): Relation | undefined {
  return (Object.keys(PREFIXES) as Relation[]).find((r) => key.startsWith(PREFIXES[r]));
}

/**
 * The item relations of every object of a builds query's criteria, by object: the items
 * domain reads each (`module.artifact.item.repo` is the item's `repo`), with its messages.
 */
export function itemRelationsOf(
  filter: JsonNode | undefined,
  maxCriteria: number,
): Map<JsonNode, ItemRelation[]> {
  const found = new Map<JsonNode, ItemRelation[]>();
  const visit = (node: JsonNode) => {
    if (node.type === 'array') node.items.forEach(visit);
    if (node.type !== 'object') return;
    const byRelation = new Map<Relation, ObjectNode['entries']>();
    for (const entry of node.entries) {
      const relation = itemRelationOf(entry.key);
      if (relation) {
        const key = entry.key.slice(PREFIXES[relation].length);
        byRelation.set(relation, [...(byRelation.get(relation) ?? []), { ...entry, key }]);
      } else if (entry.key === '$and' || entry.key === '$or') visit(entry.value);
    }
    const relations = [...byRelation].map(([relation, entries]) => ({
      relation,
      where: criteriaOf({ type: 'object', entries, position: node.position }, maxCriteria),
    }));
    if (relations.length > 0) found.set(node, relations);
  };
  if (filter) visit(filter);
  return found;
}

/** Fills each relation's readable items, unless the caller reads every item (`readable` undefined). */
export async function resolveItemRelations(
  relations: Map<JsonNode, ItemRelation[]>,
  readable: ((relation: ItemRelation) => Promise<number[]>) | undefined,
): Promise<void> {
  if (!readable) return;
  for (const list of relations.values())
    for (const relation of list) relation.nodeIds = await readable(relation);
}

/**
 * The build (`builds`) lists, as an artifact or a dependency of a module, by SHA-256 or
 * SHA-1, a stored item of the relation: one the caller may read when `nodeIds` is given.
 */
export function itemRelationSql(relation: ItemRelation): Expression<SqlBool> {
  const items =
    relation.nodeIds === undefined
      ? sql`r.key <> ${TRASH_REPO_KEY} and ${whereSql(relation.where)}`
      : relation.nodeIds.length === 0
        ? sql`false`
        : sql`n.id = any(${relation.nodeIds}::bigint[])`;
  return sql<SqlBool>`exists (select 1 from build_files f
    join nodes n on n.sha256 = f.sha256 or n.sha256 in (select sha256 from blobs where sha1 = f.sha1)
    join repositories r on r.id = n.repository_id
    left join blobs b on b.sha256 = n.sha256
    where f.build_id = builds.id and f.kind = ${relation.relation} and ${items})`;
}
