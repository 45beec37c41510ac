import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../../server/schemas/registry.ts';

/** A body that breaks one constraint of an entity schema, and what the schema says then. */
export interface Violation {
  /** `size maximum`, `userLockPolicy.loginAttempts minimum`: for the test's name. */
  name: string;
  /** The top-level field the server names in its answer. */
  field: string;
  body: Record<string, unknown>;
  /** The schema's own message for the broken keyword, when it words one. */
  message?: string;
}

/** Strings tried against a pattern, until one breaks it and nothing else. */
const PATTERN_BREAKERS = ['a b', '!', '1abc', ' ', '-', '.x', 'ä', '[x]', 'A', 'a', 'x:y', '#1'];

/** Values that break `keyword` of `node`, in the order tried. */
function breakers(node: JsonSchema, keyword: string): unknown[] {
  const value = node[keyword];
  switch (keyword) {
    case 'minLength':
      return (value as number) > 0
        ? ['a', 'A', '1'].map((c) => c.repeat((value as number) - 1))
        : [];
    case 'maxLength':
      return ['a', 'A', '1', 'x-'].map((c) =>
        c.repeat((value as number) + 1).slice(0, (value as number) + 1),
      );
    case 'pattern':
      return PATTERN_BREAKERS;
    case 'enum':
      return ['not-one-of-them'];
    case 'minimum':
      return [(value as number) - 1];
    case 'maximum':
      return [(value as number) + 1];
    case 'type':
      return node.type === 'string' ? [12345] : node.type === 'array' ? ['text'] : ['text', 12345];
    case 'maxItems':
      return [Array.from({ length: (value as number) + 1 }, () => firstItemOf(node))];
    default:
      return [];
  }
}

const firstItemOf = (node: JsonSchema) =>
  structuredClone(
    ((node.examples as unknown[]) ?? [])[0] ?? (node.items as JsonSchema)?.default ?? {},
  );

const KEYWORDS = [
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'minimum',
  'maximum',
  'type',
  'maxItems',
];

/** The schema's message for `keyword` at `node`: errorMessage as a string or by keyword. */
function ownMessage(node: JsonSchema, keyword: string): string | undefined {
  const messages = node.errorMessage;
  if (typeof messages === 'string') return messages;
  if (messages && typeof messages === 'object')
    return (messages as Record<string, string>)[keyword];
  return undefined;
}

/** The validation errors ajv-errors wrapped, unwrapped to the keywords that failed. */
function failedKeywords(errors: ErrorObject[]): ErrorObject[] {
  return errors.flatMap((error) =>
    error.keyword === 'errorMessage'
      ? ((error.params as { errors: ErrorObject[] }).errors ?? [])
      : [error],
  );
}

const setAt = (body: Record<string, unknown>, path: string[], value: unknown) => {
  const copy = structuredClone(body);
  let at = copy;
  for (const step of path.slice(0, -1)) {
    at[step] = { ...((at[step] as object) ?? {}) };
    at = at[step] as Record<string, unknown>;
  }
  at[path.at(-1)!] = value;
  return copy;
};

/**
 * One body per constraint of the entity's writable properties (nested objects included) that
 * breaks that constraint and nothing else, checked with the same validator the server uses
 * for bodies. `validate` is the body schema of the call the bodies are for.
 */
export function violationsOf(
  entity: JsonSchema,
  base: Record<string, unknown>,
  validate: ValidateFunction,
): Violation[] {
  const found: Violation[] = [];
  const visit = (properties: Record<string, JsonSchema>, path: string[]) => {
    for (const [name, property] of Object.entries(properties)) {
      if (property.readOnly === true) continue;
      const at = [...path, name];
      // The property's own keywords, and those of its allOf branches (each its own message).
      const nodes: [JsonSchema, string][] = [
        [property, `/${name}`],
        ...((property.allOf as JsonSchema[]) ?? []).map((branch, index): [JsonSchema, string] => [
          branch,
          `/allOf/${index}`,
        ]),
      ];
      for (const [node, schemaAt] of nodes)
        for (const keyword of KEYWORDS) {
          if (!(keyword in node)) continue;
          const body = breakers(node, keyword)
            .map((value) => setAt(base, at, value))
            .find((candidate) => {
              if (validate(candidate)) return false;
              const failed = failedKeywords(validate.errors ?? []);
              return (
                failed.length > 0 &&
                failed.every(
                  (e) =>
                    e.instancePath === `/${at.join('/')}` &&
                    e.schemaPath.endsWith(`${schemaAt}/${keyword}`),
                )
              );
            });
          if (body)
            found.push({
              name: `${at.join('.')} ${keyword}${schemaAt.startsWith('/allOf') ? ` (${schemaAt.slice(1)})` : ''}`,
              field: at[0]!,
              body,
              message: ownMessage(node, keyword),
            });
        }
      if (property.type === 'object' && property.properties) visit(property.properties, at);
    }
  };
  visit(entity.properties ?? {}, []);
  return found;
}
