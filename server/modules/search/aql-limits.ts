import { DepotError } from '../../errors.ts';
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

/** Bytes a UTF-16 code unit takes in UTF-8 (a surrogate pair's two halves make its 4). */
const utf8Bytes = (unit: number) =>
  unit < 0x80 ? 1 : unit < 0x800 ? 2 : unit >= 0xd800 && unit < 0xe000 ? 2 : 3;

/**
 * Reads a query once, character by character, before anything else is done with it, and
 * refuses it at the first limit it passes: brackets nested too deep (400, at the bracket) or
 * too many bytes (413). A query nested 20,000 levels deep is told about its nesting even when
 * it is also too large, since that is what is wrong with it first.
 */
export function checkAqlLimits(source: string, limits: AqlLimits): void {
  let bytes = 0;
  let depth = 0;
  let inString = false;
  for (let at = 0; at < source.length; at++) {
    const unit = source.charCodeAt(at);
    bytes += utf8Bytes(unit);
    if (bytes > limits.maxBytes) throw new AqlTooLarge(limits.maxBytes);
    if (inString) {
      if (unit === 0x5c /* \ */) {
        at++;
        if (at < source.length) bytes += utf8Bytes(source.charCodeAt(at));
      } else if (unit === 0x22 /* " */) inString = false;
    } else if (unit === 0x22) inString = true;
    else if (unit === 0x7b /* { */ || unit === 0x5b /* [ */) {
      depth++;
      if (depth > AQL_MAX_DEPTH)
        throw new AqlSyntaxError(`nesting deeper than ${AQL_MAX_DEPTH} levels (the limit)`, at + 1);
    } else if (unit === 0x7d /* } */ || unit === 0x5d /* ] */) depth--;
  }
}
