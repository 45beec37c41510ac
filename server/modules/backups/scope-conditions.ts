import { sql, type RawBuilder } from 'kysely';
import type { BackedUpTable } from './backup-tables.ts';
import type { DumpSelection } from './metadata-dump.ts';

/** The repositories' ids written into the statement: `COPY (query)` takes no parameters. */
export const repositoryList = (selection: DumpSelection) =>
  selection.repositoryIds.length > 0
    ? sql.join(selection.repositoryIds.map((id) => sql.lit(integer(id))))
    : sql`null`;

export function integer(value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error(`${value} is not an id`);
  return value;
}

/** The condition that keeps a table's rows to the repositories covered. */
export function scopeCondition(spec: BackedUpTable, selection: DumpSelection): RawBuilder<unknown> {
  const repos = repositoryList(selection);
  const nodesOfRepos = sql`select n.id from nodes n where n.repository_id in (${repos})`;
  switch (spec.scope) {
    case 'all':
      return sql`true`;
    case 'repository-row':
      return sql`t.id in (${repos})`;
    case 'repository':
      return sql`t.repository_id in (${repos})`;
    case 'node':
      return sql`t.node_id in (${nodesOfRepos})`;
    case 'build':
      return sql`t.build_id in (select b.id from builds b where b.node_id in (${nodesOfRepos}))`;
    case 'blob':
      return sql`t.sha256 in (select n.sha256 from nodes n where n.repository_id in (${repos}))`;
  }
}
