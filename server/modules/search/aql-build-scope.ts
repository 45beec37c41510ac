import { sql, type RawBuilder, type SqlBool } from 'kysely';

const SCOPE_COMPARE = {
  $eq: sql`=`,
  $ne: sql`=`,
  $gt: sql`>`,
  $gte: sql`>=`,
  $lt: sql`<`,
  $lte: sql`<=`,
};

/**
 * A dependency's scopes (`build_files.scopes`, comma-joined) compared with a value, AQL's
 * `dependency.scope`. A dependency may have several scopes, so each is compared on its own:
 * `$ne` and `$nmatch` hold when no scope equals (matches) the value, the others when one
 * scope does. `{"$ne": "test"}` is then the dependencies outside the test scope; a
 * dependency listed for compile and test is in it. A dependency without scopes has none.
 */
export function scopeSql(
  scopes: RawBuilder<unknown>,
  op: string,
  value: string,
  likePattern: (value: string) => string,
): RawBuilder<SqlBool> {
  const matching = op === '$match' || op === '$nmatch';
  const test = matching
    ? sql`s like ${likePattern(value)}`
    : sql`s ${SCOPE_COMPARE[op as keyof typeof SCOPE_COMPARE]} ${value}`;
  const some = sql`exists (select 1 from unnest(string_to_array(${scopes}, ',')) as s where ${test})`;
  return op === '$ne' || op === '$nmatch' ? sql<SqlBool>`not ${some}` : sql<SqlBool>`${some}`;
}
