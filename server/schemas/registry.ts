import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../paths.ts';

export type JsonSchema = Record<string, unknown> & {
  $id?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

export type ScreenPermission = 'admin' | 'user' | 'anonymous' | 'manager' | 'projectAdmin';

/** A generic screen: the engine renders its list and forms from its entity. */
export interface ScreenDescriptor extends ScreenRegistration {
  entity: string;
  key: string;
  api: Record<string, { method: string; path: string; bodyKey?: string }>;
  list: { columns: { field: string; header: string }[] } & Record<string, unknown>;
  form: { fields: string[]; requiredOnCreate?: string[]; readOnlyOnEdit?: string[] } & Record<
    string,
    unknown
  >;
  rowActions?: { id: string; method: string; path: string }[];
}

/** What every screen has, bespoke or generic: how the console routes, guards and lists it. */
export interface ScreenRegistration {
  id: string;
  title: string;
  route: string;
  permission: ScreenPermission;
  component?: string;
  pages?: { path: string; view?: string; title?: string; permission?: ScreenPermission }[];
  anonymousTo?: string;
  menu?: { section: string; group: string; label: string; order?: number };
  projectMenu?: { group: string; label: string; order?: number };
  userMenu?: { label: string };
}

/** A bespoke screen: a component of the console's screen registry, without entity or forms. */
export type BespokeScreen = ScreenRegistration & { component: string } & Partial<
    Omit<ScreenDescriptor, keyof ScreenRegistration>
  >;

export type AnyScreen = ScreenDescriptor | BespokeScreen;

/** Whether the engine renders the screen from an entity (list, forms, calls). */
export const isEntityScreen = (screen: AnyScreen): screen is ScreenDescriptor =>
  screen.entity !== undefined;

export interface SchemaRegistry {
  entities: Map<string, JsonSchema>;
  screens: Map<string, AnyScreen>;
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
  const screens = new Map<string, AnyScreen>();
  for (const { value } of readJsonFiles<AnyScreen>(join(dir, 'screens'), '.screen.json')) {
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
