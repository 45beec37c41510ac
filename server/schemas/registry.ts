import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../paths.ts';

export type JsonSchema = Record<string, unknown> & {
  $id?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

export interface ScreenDescriptor {
  id: string;
  title: string;
  entity: string;
  key: string;
  route: string;
  permission: 'admin' | 'user' | 'anonymous';
  menu?: { section: string; group: string; label: string; order?: number };
  api: Record<string, { method: string; path: string; bodyKey?: string }>;
  list: { columns: { field: string; header: string }[] } & Record<string, unknown>;
  form: { fields: string[]; requiredOnCreate?: string[]; readOnlyOnEdit?: string[] } & Record<
    string,
    unknown
  >;
  rowActions?: { id: string; method: string; path: string }[];
}

export interface SchemaRegistry {
  entities: Map<string, JsonSchema>;
  screens: Map<string, ScreenDescriptor>;
  screenMetaSchema: JsonSchema;
}

export const SCHEMAS_DIR = join(PROJECT_ROOT, 'schemas');

function readJsonFiles<T>(dir: string, suffix: string): { file: string; value: T }[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(suffix))
    .sort()
    .map((name) => {
      const file = join(dir, name);
      return { file, value: JSON.parse(readFileSync(file, 'utf8')) as T };
    });
}

/** Reads every entity schema and screen descriptor once, at start. */
export function loadSchemaRegistry(dir = SCHEMAS_DIR): SchemaRegistry {
  const entities = new Map<string, JsonSchema>();
  for (const { file, value } of readJsonFiles<JsonSchema>(join(dir, 'entities'), '.schema.json')) {
    if (!value.$id) throw new Error(`${file} has no $id`);
    entities.set(value.$id, value);
  }
  const screens = new Map<string, ScreenDescriptor>();
  for (const { value } of readJsonFiles<ScreenDescriptor>(join(dir, 'screens'), '.screen.json')) {
    screens.set(value.id, value);
  }
  const screenMetaSchema = JSON.parse(
    readFileSync(join(dir, 'meta', 'screen.meta.schema.json'), 'utf8'),
  ) as JsonSchema;
  return { entities, screens, screenMetaSchema };
}

/**
 * The schema a create body is checked against: the entity without its read-only
 * properties (the server owns those), plus any fields the caller requires on create.
 */
export function createBodySchema(entity: JsonSchema, alsoRequired: string[] = []): JsonSchema {
  const properties = writableProperties(entity);
  const required = [...new Set([...(entity.required ?? []), ...alsoRequired])];
  return withoutId({ ...entity, properties, required });
}

/**
 * The schema an update body is checked against: writable properties, none required and no
 * defaults, so that a field left out keeps its stored value.
 */
export function updateBodySchema(entity: JsonSchema): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(writableProperties(entity)).map(([name, property]) => {
      const { default: _ignored, ...rest } = property;
      return [name, rest];
    }),
  );
  return withoutId({ ...entity, properties, required: [] });
}

/**
 * The schema an entity is answered with: its readable properties only. Fastify serializes
 * exactly these, so a field the view did not mean to expose (a hash, say) cannot leak.
 */
export function responseSchema(entity: JsonSchema): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(entity.properties ?? {})
      .filter(([, property]) => property.writeOnly !== true)
      .map(([name, property]) => [name, withoutMessages(property)]),
  );
  return { type: 'object', properties };
}

function withoutMessages(property: JsonSchema): JsonSchema {
  const { errorMessage: _messages, default: _default, ...rest } = property;
  return rest;
}

// Body schemas are compiled per route; a shared $id would clash in Ajv's registry.
function withoutId(schema: JsonSchema): JsonSchema {
  const { $id: _id, $schema: _dialect, ...rest } = schema;
  return rest;
}

function writableProperties(entity: JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(entity.properties ?? {}).filter(([, property]) => property.readOnly !== true),
  );
}
