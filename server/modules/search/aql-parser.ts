import { AqlSyntaxError, describe, tokenize, type Token } from './aql-lexer.ts';
import { criteriaOf, type JsonNode } from './aql-criteria.ts';
import { checkAqlLimits, type AqlLimits } from './aql-limits.ts';
import { firstBuildRelation } from './aql-build-relations.ts';
import { SEARCH_MESSAGES as M } from './messages.ts';
import { ITEM_FIELDS, type Criterion, type ItemField, type SortOrder } from './criteria.ts';

/** The largest offset or limit: PostgreSQL's integer; a bigger one is a mistake, not a wish. */
export const AQL_MAX_COUNT = 2_147_483_647;

/** What an include may name besides the item fields: the properties of each item. */
const PROPERTY_INCLUDES = ['property', 'property.*', 'property.key', 'property.value'];

export interface AqlQuery {
  where: Criterion;
  /** The fields to answer, or undefined for the default set; `properties` adds them. */
  include?: ItemField[];
  properties: boolean;
  sort: SortOrder[];
  offset: number;
  limit?: number;
}

/**
 * Reads an AQL query of the items domain, e.g.
 * `items.find({"repo":"libs","@build":{"$match":"1*"}}).include("name").sort({"$desc":["created"]}).limit(10)`.
 * Every mistake is an `AqlSyntaxError` naming the position and what was expected there; a
 * query past the limits (size, nesting, criteria) is refused before it costs more than reading.
 */
export function parseAql(source: string, limits: AqlLimits): AqlQuery {
  const parsed = parseAqlOfDomain(source, limits);
  if (parsed.domain !== 'items')
    throw new AqlSyntaxError('unknown domain builds, expected items', 0);
  // Retention and the archive search read items alone; build relations need the caller's builds.
  const relation = firstBuildRelation(parsed.query.where);
  if (relation) throw new AqlSyntaxError(M.aqlBuildRelationsHere, relation.position);
  return parsed.query;
}

/** A query of the builds domain, as read: its criteria are checked by aql-builds.ts. */
export interface BuildsAqlQuery {
  filter: JsonNode | undefined;
  include: { name: string; position: number }[];
  sort: { field: string; position: number; direction: 'asc' | 'desc' }[];
  offset: number;
  limit?: number;
  maxCriteria: number;
}

/** Reads an AQL query of the items or the builds domain. */
export function parseAqlOfDomain(
  source: string,
  limits: AqlLimits,
): { domain: 'items'; query: AqlQuery } | { domain: 'builds'; query: BuildsAqlQuery } {
  checkAqlLimits(source, limits);
  const parser = new Parser(tokenize(source), limits.maxCriteria);
  return parser.query();
}

class Parser {
  private at = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly maxCriteria: number,
  ) {}

  query(): { domain: 'items'; query: AqlQuery } | { domain: 'builds'; query: BuildsAqlQuery } {
    const domain = this.expectWord('the domain items or builds');
    if (domain.text === 'builds') return { domain: 'builds', query: this.buildsQuery() };
    if (domain.text !== 'items')
      throw new AqlSyntaxError(
        `unknown domain ${describe(domain)}, expected items or builds`,
        domain.position,
      );
    return { domain: 'items', query: this.itemsQuery() };
  }

  /** `.find(...)` after a domain's name: the filter object, undefined for `find()`. */
  private findFilter() {
    this.expectPunct('.');
    const find = this.expectWord('find');
    if (find.text !== 'find') throw this.expected('find', find);
    this.expectPunct('(');
    const filter = this.peekPunct(')') ? undefined : this.value();
    this.expectPunct(')');
    return filter;
  }

  /** `builds.find({...})` with include, sort, offset and limit; field names checked later. */
  private buildsQuery(): BuildsAqlQuery {
    const filter = this.findFilter();
    const query: BuildsAqlQuery = {
      filter,
      include: [],
      sort: [],
      offset: 0,
      maxCriteria: this.maxCriteria,
    };
    while (this.acceptPunct('.')) {
      const name = this.expectWord('include, sort, offset or limit');
      this.expectPunct('(');
      if (name.text === 'include')
        do {
          const token = this.expectString('a field name');
          query.include.push({ name: token.text, position: token.position });
        } while (this.acceptPunct(','));
      else if (name.text === 'sort') {
        this.expectPunct('{');
        const direction = this.expectString('"$asc" or "$desc"');
        if (direction.text !== '$asc' && direction.text !== '$desc')
          throw this.expected('"$asc" or "$desc"', direction);
        this.expectPunct(':');
        this.expectPunct('[');
        do {
          const field = this.expectString('a field name');
          query.sort.push({
            field: field.text,
            position: field.position,
            direction: direction.text === '$asc' ? 'asc' : 'desc',
          });
        } while (this.acceptPunct(','));
        this.expectPunct(']');
        this.expectPunct('}');
      } else if (name.text === 'offset') query.offset = this.count('offset');
      else if (name.text === 'limit') query.limit = this.count('limit');
      else throw this.expected('include, sort, offset or limit', name);
      this.expectPunct(')');
    }
    const last = this.next();
    if (last.kind !== 'end') throw this.expected("'.' or the end of the query", last);
    return query;
  }

  private itemsQuery(): AqlQuery {
    const filter = this.findFilter();
    const query: AqlQuery = {
      where: criteriaOf(filter, this.maxCriteria),
      properties: false,
      sort: [],
      offset: 0,
    };
    while (this.peekPunct('.')) {
      this.next();
      this.modifier(query);
    }
    const last = this.next();
    if (last.kind !== 'end') throw this.expected("'.' or the end of the query", last);
    return query;
  }

  private modifier(query: AqlQuery) {
    const name = this.expectWord('include, sort, offset or limit');
    this.expectPunct('(');
    switch (name.text) {
      case 'include':
        this.include(query);
        break;
      case 'sort':
        query.sort = this.sort();
        break;
      case 'offset':
        query.offset = this.count('offset');
        break;
      case 'limit':
        query.limit = this.count('limit');
        break;
      default:
        throw this.expected('include, sort, offset or limit', name);
    }
    this.expectPunct(')');
  }

  private include(query: AqlQuery) {
    const fields: ItemField[] = [];
    do {
      const token = this.expectString('a field name');
      if (PROPERTY_INCLUDES.includes(token.text)) query.properties = true;
      else fields.push(this.itemField(token));
    } while (this.acceptPunct(','));
    if (fields.length > 0) query.include = fields;
  }

  private sort(): SortOrder[] {
    this.expectPunct('{');
    const direction = this.expectString('"$asc" or "$desc"');
    if (direction.text !== '$asc' && direction.text !== '$desc')
      throw this.expected('"$asc" or "$desc"', direction);
    this.expectPunct(':');
    this.expectPunct('[');
    const orders: SortOrder[] = [];
    do {
      const field = this.itemField(this.expectString('a field name'));
      orders.push({ field, direction: direction.text === '$asc' ? 'asc' : 'desc' });
    } while (this.acceptPunct(','));
    this.expectPunct(']');
    this.expectPunct('}');
    return orders;
  }

  private count(what: string): number {
    const token = this.next();
    if (token.kind !== 'number') throw this.expected(`a whole number for ${what}`, token);
    const value = Number(token.text);
    if (!Number.isInteger(value) || value < 0 || value > AQL_MAX_COUNT)
      throw new AqlSyntaxError(
        `${what} must be a whole number from 0 to ${AQL_MAX_COUNT}, not ${token.text}`,
        token.position,
      );
    return value;
  }

  private itemField(token: Token): ItemField {
    if ((ITEM_FIELDS as readonly string[]).includes(token.text)) return token.text as ItemField;
    throw new AqlSyntaxError(
      `unknown field ${describe(token)}, expected one of ${ITEM_FIELDS.join(', ')}`,
      token.position,
    );
  }

  /** A JSON value: object, array, string or number, each remembering where it began. */
  private value(): JsonNode {
    const token = this.next();
    if (token.kind === 'string')
      return { type: 'string', value: token.text, position: token.position };
    if (token.kind === 'number')
      return { type: 'number', value: Number(token.text), position: token.position };
    // Recursion is bounded: checkAqlLimits refused anything nested deeper than AQL_MAX_DEPTH.
    if (token.kind === 'punct' && token.text === '{') return this.object(token);
    if (token.kind === 'punct' && token.text === '[') return this.array(token);
    throw this.expected('an object, an array, a string or a number', token);
  }

  private object(open: Token): JsonNode {
    const entries: Extract<JsonNode, { type: 'object' }>['entries'] = [];
    if (!this.acceptPunct('}')) {
      do {
        const key = this.expectString('a quoted field name');
        this.expectPunct(':');
        entries.push({ key: key.text, position: key.position, value: this.value() });
      } while (this.acceptPunct(','));
      this.expectPunct('}');
    }
    return { type: 'object', entries, position: open.position };
  }

  private array(open: Token): JsonNode {
    const items: JsonNode[] = [];
    if (!this.acceptPunct(']')) {
      do items.push(this.value());
      while (this.acceptPunct(','));
      this.expectPunct(']');
    }
    return { type: 'array', items, position: open.position };
  }

  private next(): Token {
    const token = this.tokens[this.at];
    if (token.kind !== 'end') this.at++;
    return token;
  }

  private peekPunct(text: string): boolean {
    const token = this.tokens[this.at];
    return token.kind === 'punct' && token.text === text;
  }

  private acceptPunct(text: string): boolean {
    if (!this.peekPunct(text)) return false;
    this.next();
    return true;
  }

  private expectPunct(text: string): Token {
    const token = this.next();
    if (token.kind !== 'punct' || token.text !== text) throw this.expected(`'${text}'`, token);
    return token;
  }

  private expectWord(what: string): Token {
    const token = this.next();
    if (token.kind !== 'word') throw this.expected(what, token);
    return token;
  }

  private expectString(what: string): Token {
    const token = this.next();
    if (token.kind !== 'string') throw this.expected(what, token);
    return token;
  }

  private expected(what: string, found: Token): AqlSyntaxError {
    return new AqlSyntaxError(`expected ${what} but found ${describe(found)}`, found.position);
  }
}
