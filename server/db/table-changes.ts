import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

const WRITE_KINDS = new Set([
  'InsertQueryNode',
  'UpdateQueryNode',
  'DeleteQueryNode',
  'MergeQueryNode',
]);
const RAW_WRITE =
  /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+"?([a-z_][a-z0-9_]*)/gi;

/** Every table a node names, anywhere inside it (an over-approximation is harmless here). */
function tablesIn(node: unknown, found: Set<string>): Set<string> {
  if (!node || typeof node !== 'object') return found;
  const value = node as { kind?: string; table?: { identifier?: { name?: string } } };
  if (value.kind === 'TableNode' && value.table?.identifier?.name) {
    found.add(value.table.identifier.name);
  }
  for (const child of Object.values(node)) {
    if (child && typeof child === 'object') tablesIn(child, found);
  }
  return found;
}

function writtenTables(node: RootOperationNode): string[] {
  if (WRITE_KINDS.has(node.kind)) return [...tablesIn(node, new Set())];
  if (node.kind === 'RawNode') {
    const text = (node as { sqlFragments: readonly string[] }).sqlFragments.join(' ');
    return [...text.matchAll(RAW_WRITE)].map((match) => match[1]!.toLowerCase());
  }
  return [];
}

/**
 * A Kysely plugin that tells listeners when a query writes to a table. In-process read
 * caches (credentials, repositories, settings) clear themselves through it, so a change
 * made on this node is seen by the next request. Listeners run when the write is sent and
 * again when it has run: a reader that slipped in between cannot keep the old value.
 * On PostgreSQL, the database also announces every committed write to the watched tables
 * (migration 0008), to this node and the others of a cluster: `changeListener` passes
 * those on through `changed`, which closes the gap between a write and its commit too.
 */
export class TableChanges implements KyselyPlugin {
  readonly #listeners = new Map<string, Set<() => void>>();
  readonly #pending = new WeakMap<object, string[]>();

  onChange(tables: readonly string[], listener: () => void): void {
    for (const table of tables) {
      const set = this.#listeners.get(table) ?? new Set();
      set.add(listener);
      this.#listeners.set(table, set);
    }
  }

  /** A write this plugin did not see: committed by another node, or by this one's transaction. */
  changed(tables: readonly string[]): void {
    this.#notify(tables);
  }

  /** Anything may have changed (say, while the notifications were out of reach): clear all. */
  changedAll(): void {
    this.#notify([...this.#listeners.keys()]);
  }

  #notify(tables: readonly string[]): void {
    for (const table of tables) this.#listeners.get(table)?.forEach((listener) => listener());
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const tables = writtenTables(args.node).filter((table) => this.#listeners.has(table));
    if (tables.length > 0) {
      this.#pending.set(args.queryId, tables);
      this.#notify(tables);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const tables = this.#pending.get(args.queryId);
    if (tables) this.#notify(tables);
    return args.result;
  }
}
