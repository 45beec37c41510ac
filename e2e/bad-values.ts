import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { JsonSchema, SchemaRegistry } from '../server/schemas/registry.ts';
import { KEYWORD_MESSAGE_PATTERNS } from '../server/schemas/validation-wording.ts';
import { CRON_INVALID_MESSAGE } from '../src/engine/messages.ts';

/**
 * Bad values for an engine form, derived from its entity schema, and the list of words a
 * person may read about them: the spec's and plain words of validation-wording.ts, and the
 * schemas' own `errorMessage` texts. Any other text under a field fails the walk.
 */
type Property = { type?: string | string[]; maxLength?: number; pattern?: string; format?: string };

/** Strings tried, in order, for one that breaks a field's pattern. */
const PATTERN_BREAKERS = ['Bad value /*?<>|', 'not a url', '9', 'x'];

export type BadValues = Map<string, string>;

const typesOf = (property: Property) =>
  Array.isArray(property.type) ? property.type : [property.type];

/** Too long, and a wrong type where the control accepts one (a fraction for an integer). */
function tooLongOrWrongType(property: Property): string | undefined {
  if (typesOf(property).includes('integer')) return '1.5';
  if (property.maxLength !== undefined) return 'x'.repeat(property.maxLength + 1);
  return undefined;
}

/** A value the field's pattern or format refuses. */
function wrongPattern(property: Property): string | undefined {
  if (property.format === 'email') return 'not-an-email';
  if (property.format === 'uri') return 'not a url';
  if (property.pattern === undefined) return undefined;
  const pattern = new RegExp(property.pattern, 'u');
  return PATTERN_BREAKERS.find(
    (value) => !pattern.test(value) && value.length <= (property.maxLength ?? Infinity),
  );
}

/** The two passes of bad values for a form's fields: too long or wrong type; wrong pattern. */
export function badValuePasses(entity: JsonSchema | undefined, fields: string[]): BadValues[] {
  const properties = (entity?.properties ?? {}) as Record<string, Property>;
  return [tooLongOrWrongType, wrongPattern]
    .map((pick) => {
      const values: BadValues = new Map();
      for (const field of fields) {
        const value = properties[field] ? pick(properties[field]) : undefined;
        if (value !== undefined) values.set(field, value);
      }
      return values;
    })
    .filter((values) => values.size > 0);
}

function errorMessagesIn(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => errorMessagesIn(item, into));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'errorMessage' && typeof value === 'string') into.add(value);
      else if (key === 'errorMessage' && value && typeof value === 'object')
        JSON.stringify(value).replace(/"((?:[^"\\]|\\.)*)"/g, (_m, text: string) => {
          into.add(JSON.parse(`"${text}"`) as string);
          return '';
        });
      else errorMessagesIn(value, into);
    }
  }
  return into;
}

/** Every text a field may show about a bad value. */
export function knownFieldMessages(registry: SchemaRegistry): (text: string) => boolean {
  const worded = errorMessagesIn([...registry.entities.values()], new Set([CRON_INVALID_MESSAGE]));
  return (text) => worded.has(text) || KEYWORD_MESSAGE_PATTERNS.some((known) => known.test(text));
}

/**
 * Fills the bad values the page has a text box for, saves, and returns what the fields say.
 * A value the form cannot take (no such input) is skipped; at least one must be filled.
 */
export async function fieldMessagesFor(page: Page, values: BadValues): Promise<string[]> {
  let filled = 0;
  for (const [field, value] of values) {
    const input = page.locator(`input#root_${field}, textarea#root_${field}`);
    if ((await input.count()) !== 1 || !(await input.isEditable())) continue;
    await input.fill(value);
    filled += 1;
  }
  if (filled === 0) return [];
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('.field-error').first().waitFor();
  const texts = await page.locator('.field-error li, p.field-error').allInnerTexts();
  expect(texts.length, 'the form says something of the bad values').toBeGreaterThan(0);
  return texts.map((text) => text.trim()).filter(Boolean);
}
