/**
 * How deep JSON a client sends may nest: a request's body, a package's manifest. Parsing
 * itself would not overflow, but much of what reads the value afterwards recurses
 * (validation, `String()` of an array, `JSON.stringify`, copying, logging), and a body nested
 * 100,000 levels deep made some of it a 500. Real documents nest a few levels; a package's
 * manifest a dozen at most.
 */
export const JSON_MAX_DEPTH = 64;

/**
 * Where JSON-like text first nests deeper than `max` brackets (objects and arrays), as a
 * position counted from 1; undefined when it never does. Brackets inside strings do not
 * count. One pass, no recursion: it is what runs before anything recursive reads the text.
 */
export function deeperThan(text: string, max: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (inString) {
      if (unit === 0x5c /* \ */) at++;
      else if (unit === 0x22 /* " */) inString = false;
    } else if (unit === 0x22) inString = true;
    else if (unit === 0x7b /* { */ || unit === 0x5b /* [ */) {
      depth++;
      if (depth > max) return at + 1;
    } else if (unit === 0x7d /* } */ || unit === 0x5d /* ] */) depth--;
  }
  return undefined;
}
