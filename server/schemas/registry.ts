import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type {
  BespokeDescriptor,
  CollectionDescriptor,
  ScreenDescriptor,
  SingleDocumentDescriptor,
} from '../../schemas/meta/screen-descriptor.generated.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { formatProblem, type SchemaProblem } from './problems.ts';

export type { BespokeDescriptor, CollectionDescriptor, ScreenDescriptor, SingleDocumentDescriptor };

/** A screen the engine renders from an entity: one settings document or a list of them. */
export type EntityDescriptor = SingleDocumentDescriptor | CollectionDescriptor;

/** Whether the engine renders the screen from an entity (a bespoke one may have none). */
export const isEntityScreen = (screen: ScreenDescriptor): screen is EntityDescriptor =>
  screen.entity !== undefined;

export type JsonSchema = Record<string, unknown> & {
  $id?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

export interface SchemaRegistry {
  /** The folder read: entities/, screens/ and meta/ are in it. */
  dir: string;
  entities: Map<string, JsonSchema>;
  screens: Map<string, ScreenDescriptor>;
  screenMetaSchema: JsonSchema;
  /** Where each came from, for messages: `entity:<id>` and `screen:<id>` → a file path. */
  files: Map<string, string>;
}

export const SCHEMAS_DIR = join(PROJECT_ROOT, 'schemas');

/** The meta-schema of descriptors, in the project (not in a schemas copy a test made). */
export const SCREEN_META_SCHEMA_FILE = 'meta/screen.meta.schema.json';

/** A file's name as messages give it: `schemas/screens/users.screen.json`. */
export const displayPath = (dir: string, file: string) => relative(dirname(dir), file);

/** "line 3, column 7" for an offset into text, for JSON.parse's position. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/** Parses a JSON file, or says where and why it is not JSON. */
export function parseJsonFile(
  dir: string,
  file: string,
): { value?: unknown; problem?: SchemaProblem } {
  const text = readFileSync(file, 'utf8');
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const reason = (error as Error).message;
    const at = /position (\d+)/.exec(reason);
    const where = at ? ` at ${lineAndColumn(text, Number(at[1]))}` : '';
    return {
      problem: {
        file: displayPath(dir, file),
        pointer: '',
        message: `is not valid JSON${where} (${reason}); expected a JSON document`,
      },
    };
  }
}

const filesIn = (dir: string, suffix: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith(suffix))
        .sort()
        .map((name) => join(dir, name))
    : [];

/**
 * Reads every entity schema and screen descriptor of `dir`, collecting what keeps one from
 * being read (invalid JSON, a missing or repeated id) instead of stopping at the first.
 */
export function readSchemaSources(dir = SCHEMAS_DIR): {
  registry: SchemaRegistry;
  problems: SchemaProblem[];
} {
  const problems: SchemaProblem[] = [];
  const files = new Map<string, string>();
  const read = <T extends Record<string, unknown>>(
    folder: string,
    suffix: string,
    idField: string,
    kind: 'entity' | 'screen',
  ) => {
    const found = new Map<string, T>();
    for (const file of filesIn(join(dir, folder), suffix)) {
      const { value, problem } = parseJsonFile(dir, file);
      if (problem) problems.push(problem);
      if (value === undefined) continue;
      const id = (value as T)[idField];
      const where = { file: displayPath(dir, file), pointer: `/${idField}` };
      if (typeof id !== 'string' || id === '') {
        problems.push({ ...where, message: `is missing; expected the ${kind}'s id, a string` });
      } else if (found.has(id)) {
        problems.push({
          ...where,
          message: `'${id}' is also the id of ${files.get(`${kind}:${id}`)}`,
        });
      } else {
        found.set(id, value as T);
        files.set(`${kind}:${id}`, displayPath(dir, file));
      }
    }
    return found;
  };
  const entities = read<JsonSchema>('entities', '.schema.json', '$id', 'entity');
  const screens = read<ScreenDescriptor & Record<string, unknown>>(
    'screens',
    '.screen.json',
    'id',
    'screen',
  );
  const metaFile = join(SCHEMAS_DIR, SCREEN_META_SCHEMA_FILE);
  const screenMetaSchema = JSON.parse(readFileSync(metaFile, 'utf8')) as JsonSchema;
  return { registry: { dir, entities, screens, screenMetaSchema, files }, problems };
}

/** Reads every entity schema and screen descriptor once, at start; a broken file stops it. */
export function loadSchemaRegistry(dir = SCHEMAS_DIR): SchemaRegistry {
  const { registry, problems } = readSchemaSources(dir);
  if (problems.length > 0)
    throw new Error(`The schemas cannot be read:\n${problems.map(formatProblem).join('\n')}`);
  return registry;
}

/** Whether a descriptor is one settings document rather than a list of documents. */
export const isSingleDocument = (screen: ScreenDescriptor): screen is SingleDocumentDescriptor =>
  screen.store?.kind === 'single';

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
export function withoutId(schema: JsonSchema): JsonSchema {
  const { $id: _id, $schema: _dialect, examples: _examples, ...rest } = schema;
  return rest;
}

function writableProperties(entity: JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(entity.properties ?? {}).filter(([, property]) => property.readOnly !== true),
  );
}
