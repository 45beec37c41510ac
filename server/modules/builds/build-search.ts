import type { BuildRow } from './queries.ts';

/** The columns the console's builds search sorts by, as its answers name them. */
export const BUILD_ORDER_FIELDS = ['build_name', 'build_number', 'build_time'] as const;
export type BuildOrderField = (typeof BUILD_ORDER_FIELDS)[number];

/**
 * The narrowing fields of `POST /global-search/builds` (spec 02 §7; docs/builds.md,
 * "Console"), as Artifactory's builds search reads them: `buildRepo` keeps the builds of one
 * build-info repository, `before` and `after` (milliseconds) the builds started strictly
 * before and after those times, `order_by` and `direction` sort the answer.
 */
export interface BuildSearchFilter {
  buildRepo?: string;
  before?: number;
  after?: number;
  orderBy?: BuildOrderField;
  direction?: 'asc' | 'desc';
}

/** Whether a build is in the filter's repository and time window. */
export function matchesFilter(filter: BuildSearchFilter) {
  return (row: BuildRow) => {
    const time = row.started_at.getTime();
    return (
      (!filter.buildRepo || row.repository_key === filter.buildRepo) &&
      (filter.before === undefined || time < filter.before) &&
      (filter.after === undefined || time > filter.after)
    );
  };
}

// Build numbers are text ("41", "1.2.10", "nightly-7"): digits compare as numbers.
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

const COMPARE: Record<BuildOrderField, (a: BuildRow, b: BuildRow) => number> = {
  build_name: (a, b) => collator.compare(a.name, b.name),
  build_number: (a, b) => collator.compare(a.number, b.number),
  build_time: (a, b) => a.started_at.getTime() - b.started_at.getTime(),
};

/**
 * Sorts by the asked column, newest start breaking ties; with no order asked, newest first.
 * `direction` defaults to descending, as Artifactory's does.
 */
export function orderBuilds(rows: BuildRow[], filter: BuildSearchFilter): BuildRow[] {
  const sign = (filter.direction ?? 'desc') === 'asc' ? 1 : -1;
  const primary = COMPARE[filter.orderBy ?? 'build_time'];
  const newestFirst = (a: BuildRow, b: BuildRow) => -COMPARE.build_time(a, b);
  return [...rows].sort((a, b) => sign * primary(a, b) || newestFirst(a, b));
}
