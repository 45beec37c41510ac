// What the in-process benchmarks that race Depot against a plain SQL query share
// (bench/search.ts, bench/builds.ts): percentiles, the report line, a reader's principal.
import type { Database } from '../server/db/database.ts';
import type { Principal } from '../server/http/permissions.ts';

export type Timed = { p50: number; p95: number; rows: number };

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** One line: Depot's p50/p95 against its goal, the plain query's, their p95 ratio, the rows. */
export function reportAgainstSql(name: string, goal: number, depot: Timed, plain: Timed) {
  const verdict = depot.p95 <= goal ? 'goal met' : 'GOAL MISSED';
  console.log(
    `${name.padEnd(40)} Depot p50 ${depot.p50.toFixed(2)} ms, p95 ${depot.p95.toFixed(2)} ms (goal <= ${goal}: ${verdict}); ` +
      `plain SQL p50 ${plain.p50.toFixed(2)} ms, p95 ${plain.p95.toFixed(2)} ms; ratio p95 ${(depot.p95 / plain.p95).toFixed(2)}; ` +
      `rows ${depot.rows.toFixed(0)} vs ${plain.rows.toFixed(0)}`,
  );
}

/** The principal a signed-in non-admin user has, by name (the user must exist). */
export async function basicPrincipalOf(db: Database, name: string): Promise<Principal> {
  const { id } = await db
    .selectFrom('users')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return { name, admin: false, anonymous: false, via: 'basic', userId: id };
}
