/** Reads the value at a JSON pointer fragment (`#/properties/email/format`) of a schema. */
export function atPointer(schema: unknown, pointer: string): unknown {
  const parts = pointer.replace(/^#\/?/, '').split('/').filter(Boolean);
  let node: unknown = schema;
  for (const raw of parts) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * The schema's own wording for a failed keyword, as ajv-errors reads it: the `errorMessage`
 * of the schema that holds the keyword, either one text for every keyword or one per
 * keyword (`{"format": "Please enter a valid email"}`).
 */
export function schemaErrorMessage(
  rootSchema: object,
  keywordLocation: string,
  keyword: string,
): string | undefined {
  const holder = atPointer(rootSchema, keywordLocation.replace(/\/[^/]*$/, '')) as
    { errorMessage?: unknown } | undefined;
  const errorMessage = holder?.errorMessage;
  if (typeof errorMessage === 'string') return errorMessage;
  if (errorMessage && typeof errorMessage === 'object') {
    const text = (errorMessage as Record<string, unknown>)[keyword];
    if (typeof text === 'string') return text;
  }
  return undefined;
}
