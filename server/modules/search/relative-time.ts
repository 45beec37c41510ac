/** Milliseconds per unit of AQL's relative times (`$last: "3d"`), long and short names. */
const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  seconds: 1000,
  minutes: 60_000,
  h: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  days: 86_400_000,
  w: 604_800_000,
  weeks: 604_800_000,
  mo: 2_592_000_000,
  months: 2_592_000_000,
  y: 31_536_000_000,
  years: 31_536_000_000,
};

/** The longest span a JavaScript date can reach back from now (about 275,000 years). */
export const MAX_TIME_MS = 8.64e15;

/**
 * A period such as `3d` or `12hours` in milliseconds, or undefined when unreadable or longer
 * than dates reach (it would make no date at all).
 */
export function parseRelativeTime(period: string): number | undefined {
  const match = /^(\d+)\s*([a-z]+)$/i.exec(period.trim());
  const unit = match && UNIT_MS[match[2].toLowerCase()];
  const span = unit ? Number(match[1]) * unit : undefined;
  return span !== undefined && span <= MAX_TIME_MS ? span : undefined;
}
