/** How list cells show values: one place, used by the grid's formatter, filter and search. */
export function formatDate(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  // A number is milliseconds since the epoch (a build's time), a text an ISO time.
  const date = new Date(typeof value === 'number' ? value : String(value));
  if (Number.isNaN(date.getTime())) return String(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formatCount(value: unknown): number {
  return Array.isArray(value) ? value.length : typeof value === 'number' ? value : 0;
}

/** Arrays joined, booleans as words, nothing for null. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(formatValue).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** An address a `url` cell may link to: http(s) only, never `javascript:` or a data URL. */
export function webAddress(value: unknown): string | undefined {
  return typeof value === 'string' && /^https?:\/\//i.test(value) ? value : undefined;
}
