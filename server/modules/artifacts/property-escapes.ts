/**
 * Artifactory's escaping in property lists (`?properties=` of the storage API and `;key=value`
 * matrix parameters): a backslash makes the next separator (`,` `;` `|` `=`) or backslash a
 * plain character, so `a=1\,2` is the one value "1,2". Lists are split at the separators that
 * are not escaped, and each name and value is unescaped only then, before it is stored.
 */
const ESCAPABLE = new Set([',', ';', '|', '=', '\\']);

/** Where `char` first occurs unescaped in `text`, or -1. */
export function indexOfUnescaped(text: string, chars: string): number {
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\\' && ESCAPABLE.has(text[index + 1] ?? '')) index++;
    else if (chars.includes(char)) return index;
  }
  return -1;
}

/** `text` cut at every unescaped character of `separators`; the pieces keep their escapes. */
export function splitUnescaped(text: string, separators: string): string[] {
  const pieces: string[] = [];
  let rest = text;
  for (
    let at = indexOfUnescaped(rest, separators);
    at >= 0;
    at = indexOfUnescaped(rest, separators)
  ) {
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  pieces.push(rest);
  return pieces;
}

/** A name or value as stored: `\,` → `,`, `\\` → `\`; a backslash before anything else stays. */
export function unescapeProperty(text: string): string {
  return text.replace(/\\([,;|=\\])/g, '$1');
}

/** `key=v1,v2` (escapes allowed) → the unescaped key and values; no `=` is one empty value. */
export function splitProperty(pair: string): { key: string; values: string[] } {
  const equals = indexOfUnescaped(pair, '=');
  const key = unescapeProperty(equals < 0 ? pair : pair.slice(0, equals)).trim();
  const values = equals < 0 ? [''] : splitUnescaped(pair.slice(equals + 1), ',');
  return { key, values: values.map(unescapeProperty) };
}
