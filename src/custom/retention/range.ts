/**
 * The executions' date range (spec 02 §5, §9): days as the date inputs hold them
 * (`yyyy-mm-dd`); 'from' starts at 00:00:00 and 'to' is inclusive to 23:59:59.999; by default a
 * month back from the start of that day through the end of today.
 */
export interface DateRange {
  from: string;
  to: string;
}

const day = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

export function defaultRange(now = new Date()): DateRange {
  const monthBack = new Date(now);
  monthBack.setMonth(now.getMonth() - 1);
  return { from: day(monthBack), to: day(now) };
}

/** The range as epoch milliseconds, or undefined when a date is not one (no request then). */
export function rangeMillis(range: DateRange): { from: number; to: number } | undefined {
  const pattern = /^\d{4}-\d{2}-\d{2}$/;
  if (!pattern.test(range.from) || !pattern.test(range.to)) return undefined;
  const from = new Date(`${range.from}T00:00:00`).getTime();
  const to = new Date(`${range.to}T23:59:59.999`).getTime();
  if (Number.isNaN(from) || Number.isNaN(to) || from > to) return undefined;
  return { from, to };
}

/** The toolbar's text as an archive query: AQL as it is, else a name with wildcards around. */
export function archiveQueryOf(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('items.find(')) return trimmed;
  const name = /[*?]/.test(trimmed) ? trimmed : `*${trimmed}*`;
  return `items.find(${JSON.stringify({ name: { $match: name } })})`;
}
