import { DepotError } from '../../errors.ts';
import { deeperThan } from '../../http/json-nesting.ts';
import { AqlSyntaxError } from './aql-lexer.ts';

/**
 * Bounds on one AQL query. A query is parsed and turned into SQL on the main thread, and its
 * statement runs in the one database session everybody shares (embedded mode): without
 * bounds one caller's query could hold both for seconds (docs/search.md, docs/security.md).
 */
export interface AqlLimits {
  /** The query's size in bytes (DEPOT_AQL_MAX_KB). */
  maxBytes: number;
  /** Comparisons (`"name": ...`, `"@key": ...`, each operator of `{"$gt": .., "$lt": ..}`). */
  maxCriteria: number;
}

/**
 * How deep brackets may nest. Fixed: the parser and everything after it walk the criteria
 * recursively, and this keeps them far from the end of the stack; real queries nest a
 * handful of levels.
 */
export const AQL_MAX_DEPTH = 32;

/** A query larger than the limit: 413, as for any body too large. */
export class AqlTooLarge extends DepotError {
  constructor(maxBytes: number) {
    super(
      413,
      `AQL: the query is larger than ${maxBytes.toLocaleString('en')} bytes, the most a query may be`,
    );
  }
}

/**
 * Refuses a query past its limits before anything else is done with it: brackets nested too
 * deep first (400, at the bracket: a query nested 20,000 levels deep is told about its
 * nesting even when it is also too large), then too many bytes (413).
 */
export function checkAqlLimits(source: string, limits: AqlLimits): void {
  const tooDeep = deeperThan(source, AQL_MAX_DEPTH);
  if (tooDeep !== undefined)
    throw new AqlSyntaxError(`nesting deeper than ${AQL_MAX_DEPTH} levels (the limit)`, tooDeep);
  if (Buffer.byteLength(source) > limits.maxBytes) throw new AqlTooLarge(limits.maxBytes);
}
