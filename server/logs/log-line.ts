/** A value as one field of a `|`-separated log line: a `|` or control character is escaped. */
export function lineField(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[|\u0000-\u001f\u007f]/g, (c) => encodeURIComponent(c));
}
