import type Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import { ERROR_MESSAGE_KEYS, JSON_TYPES, KNOWN_KEYWORDS } from './keywords.ts';
import { below, type SchemaProblem } from './problems.ts';
import type { JsonSchema } from './registry.ts';
import { walkSchema, type SchemaNode } from './schema-walk.ts';

type Report = (pointer: string, message: string) => void;

const list = (names: Iterable<string>) => [...names].map((n) => `'${n}'`).join(', ');
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What an Ajv error says, with what it expected where Ajv names it. */
export function describeAjvError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperty' || error.keyword === 'additionalProperties')
    return `'${String(params.additionalProperty)}' is not allowed here`;
  if (error.keyword === 'enum')
    return `${error.message}: expected one of ${list((params.allowedValues as string[]).map(String))}`;
  return error.message ?? error.keyword;
}

function checkKeywords({ schema, pointer }: SchemaNode, report: Report) {
  for (const keyword of Object.keys(schema)) {
    if (!KNOWN_KEYWORDS.has(keyword))
      report(
        below(pointer, keyword),
        `'${keyword}' is not a keyword of JSON Schema 2020-12 nor one Depot reads; expected a known keyword (a misspelling?)`,
      );
  }
  const types = [schema.type].flat().filter((t) => t !== undefined);
  for (const type of types)
    if (typeof type !== 'string' || !JSON_TYPES.includes(type))
      report(
        `${pointer}/type`,
        `'${String(type)}' is not a JSON type; expected one of ${list(JSON_TYPES)}`,
      );
}

function checkRequired({ schema, pointer, knownProperties, open }: SchemaNode, report: Report) {
  const missing = (name: string) =>
    !knownProperties.has(name) && (knownProperties.size > 0 || !open);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  required.forEach((name, index) => {
    if (missing(name))
      report(
        `${pointer}/required/${index}`,
        `names '${name}', which is not a property here; expected one of ${list(knownProperties)}`,
      );
  });
  const dependent = isObject(schema.dependentRequired) ? schema.dependentRequired : {};
  for (const [name, names] of Object.entries(dependent)) {
    for (const other of [name, ...(Array.isArray(names) ? names : [])])
      if (missing(String(other)))
        report(
          below(pointer, 'dependentRequired', name),
          `names '${String(other)}', which is not a property here; expected one of ${list(knownProperties)}`,
        );
  }
}

function checkErrorMessages({ schema, pointer }: SchemaNode, report: Report) {
  const messages = schema.errorMessage;
  if (!isObject(messages)) return;
  for (const key of Object.keys(messages)) {
    const at = below(pointer, 'errorMessage', key);
    if (key === 'properties' || key === 'required') {
      const named = isObject(messages[key]) ? Object.keys(messages[key] as object) : [];
      const known =
        key === 'properties'
          ? Object.keys(isObject(schema.properties) ? schema.properties : {})
          : ((schema.required as string[] | undefined) ?? []);
      for (const name of named)
        if (!known.includes(name))
          report(
            below(at, name),
            `words a message for '${name}', which this schema's ${key} does not name`,
          );
    } else if (!ERROR_MESSAGE_KEYS.includes(key) && !(key in schema)) {
      report(
        at,
        `words a message for '${key}', a keyword this schema does not use; expected one of ${list(
          Object.keys(schema).filter((k) => k !== 'errorMessage' && KNOWN_KEYWORDS.has(k)),
        )}`,
      );
    }
  }
}

function checkOwnValues(node: SchemaNode, root: JsonSchema, ajv: Ajv2020, report: Report) {
  const { schema, pointer } = node;
  const values: [string, unknown][] = [];
  if ('default' in schema) values.push([`${pointer}/default`, schema.default]);
  if (Array.isArray(schema.examples))
    schema.examples.forEach((example, index) =>
      values.push([`${pointer}/examples/${index}`, example]),
    );
  if (values.length === 0) return;
  let validate;
  try {
    const { $id: _id, $schema: _dialect, ...rest } = schema;
    validate = ajv.compile({ ...rest, $defs: root.$defs });
  } catch {
    return; // the schema itself is broken: reported by the other checks
  }
  for (const [at, value] of values) {
    if (validate(value)) continue;
    const first = validate.errors?.[0];
    const where = first?.instancePath ? ` at ${first.instancePath}` : '';
    report(
      at,
      `fails its own schema${where}: ${first ? describeAjvError(first) : 'invalid'}; expected a value the schema accepts`,
    );
  }
}

/**
 * Mistakes in one entity schema: not a JSON Schema (checked against the 2020-12
 * meta-schema), unknown keywords, `required` naming a missing property, a `default` or
 * `examples` value its own schema refuses, and `errorMessage` keys for unused keywords.
 */
export function checkEntitySchema(
  file: string,
  schema: JsonSchema,
  ajv: { strict: Ajv2020; values: Ajv2020 },
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const report: Report = (pointer, message) => problems.push({ file, pointer, message });
  if (!ajv.strict.validateSchema(schema)) {
    for (const error of ajv.strict.errors ?? [])
      if (!['if', 'anyOf'].includes(error.keyword))
        report(error.instancePath, `is not valid JSON Schema: ${describeAjvError(error)}`);
  }
  for (const node of walkSchema(schema)) {
    checkKeywords(node, report);
    checkRequired(node, report);
    checkErrorMessages(node, report);
    checkOwnValues(node, schema, ajv.values, report);
  }
  if (problems.length === 0) {
    try {
      ajv.strict.compile({ ...schema, $id: `check:${file}` });
    } catch (error) {
      report('', `does not compile: ${(error as Error).message}`);
    }
  }
  return problems;
}
