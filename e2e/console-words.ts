/**
 * The console's and the server's own catalogue of words: every text exported by a
 * `messages.ts` module (src/ and server/), templates included. A bespoke form's message about
 * a bad value must be one of these (or a validation wording of e2e/bad-values.ts): what
 * reaches a person was written for a person, never passed through from a validator.
 */
const MODULES = import.meta.glob(['../src/**/messages.ts', '../server/**/messages.ts'], {
  eager: true,
}) as Record<string, Record<string, unknown>>;

const SENTINEL = '\u0001';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A template's shape: each argument where the text shows it becomes "anything". */
function templateOf(template: (...args: unknown[]) => unknown): RegExp | undefined {
  for (const argument of [SENTINEL, 7, [SENTINEL]]) {
    let text: unknown;
    try {
      text = template(argument, argument, argument);
    } catch {
      continue;
    }
    if (typeof text !== 'string') continue;
    const shown = typeof argument === 'number' ? '7' : SENTINEL;
    if (!text.includes(shown)) return new RegExp(`^${escapeRegExp(text)}$`);
    // a template that is mostly its argument (`(error) => error`) would let anything pass
    if (text.split(shown).join('').trim().length < 4) return undefined;
    const pattern = text
      .split(shown)
      .map(escapeRegExp)
      .join(typeof argument === 'number' ? '[\\d.,]+' : '.+');
    return new RegExp(`^${pattern}$`, 's');
  }
  return undefined;
}

function collect(value: unknown, texts: Set<string>, templates: RegExp[], depth = 0): void {
  if (depth > 6) return;
  if (typeof value === 'string') texts.add(value.trim());
  else if (typeof value === 'function') {
    const template = templateOf(value as (...args: unknown[]) => unknown);
    if (template) templates.push(template);
  } else if (value && typeof value === 'object')
    for (const item of Object.values(value)) collect(item, texts, templates, depth + 1);
}

/** Whether `text` is one of the catalogue's words (a whole message, or a template filled in). */
export function consoleCatalogue(): (text: string) => boolean {
  const texts = new Set<string>();
  const templates: RegExp[] = [];
  for (const module of Object.values(MODULES)) collect(module, texts, templates);
  return (text) => texts.has(text) || templates.some((template) => template.test(text));
}
