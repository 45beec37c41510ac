import { createHash } from 'node:crypto';
import type { JsonSchema } from '../../schemas/registry.ts';

/** A document of an engine-stored entity: the JSON object its schema describes. */
export type EntityDocument = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The defaults a schema gives an object: each property's `default`, and for an object
 * property without one, the defaults of its own properties. A settings document nobody
 * saved yet reads as exactly this.
 */
export function documentDefaults(schema: JsonSchema): EntityDocument {
  const defaults: EntityDocument = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if ('default' in property) defaults[name] = structuredClone(property.default);
    else if (property.type === 'object' && property.properties) {
      const nested = documentDefaults(property);
      if (Object.keys(nested).length > 0) defaults[name] = nested;
    }
  }
  return defaults;
}

/**
 * `change` laid over `base`: objects merge field by field at every depth, anything else
 * (arrays included) replaces. An update names only what it changes.
 */
export function deepMerge(base: EntityDocument, change: EntityDocument): EntityDocument {
  const merged: EntityDocument = { ...base };
  for (const [name, value] of Object.entries(change)) {
    if (value === undefined) continue;
    const current = merged[name];
    merged[name] =
      isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return merged;
}

/** JSON with object keys sorted at every depth: the same document always reads the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    const entries = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The entity tag of a stored document (secrets sealed): a digest of its canonical JSON, so
 * that every node computes the same tag for the same document, with no counter to keep.
 */
export const etagOf = (document: EntityDocument) =>
  `"${createHash('sha256').update(canonicalJson(document)).digest('base64url').slice(0, 27)}"`;

/** Top-level fields whose values differ between two documents. */
export function changedFields(before: EntityDocument, after: EntityDocument): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => canonicalJson(before[name]) !== canonicalJson(after[name]));
}

/** Fills `{field}` placeholders of a message from `values`; unknown ones stay as written. */
export const fillMessage = (template: string, values: Record<string, unknown>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]),
  );
