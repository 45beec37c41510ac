import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { BadRequest } from '../../errors.ts';
import type { JsonSchema, SchemaRegistry } from '../../schemas/registry.ts';
import { maintenanceSettingsSchema } from '../maintenance/settings-schema.ts';
import { CONFIG_MESSAGES as M } from './messages.ts';
import type { ConfigurationDocument } from './read-configuration.ts';
import { projectConfigurationSchema } from '../projects/body-schemas.ts';
import {
  engineSections,
  MAINTENANCE_SECTION,
  PROJECTS_SECTION,
  REPOSITORY_SECTIONS,
} from './sections.ts';

/** An array's elements are `<item>`s; an item's fields are elements named after them. */
const ITEM = 'item';
const ROOT = 'config';

type Layout = { schema: JsonSchema; item?: string; keyField?: string };

/** How each section is laid out in XML, and the schema that types its text back. */
function layoutOf(registry: SchemaRegistry): Map<string, Layout> {
  const layouts = new Map<string, Layout>();
  const repository = registry.entities.get('repository')!;
  for (const section of REPOSITORY_SECTIONS)
    layouts.set(section.name, { schema: repository, item: section.item, keyField: 'key' });
  for (const section of engineSections(registry)) {
    const schema = registry.entities.get(section.entity)!;
    layouts.set(
      section.name,
      section.kind === 'single'
        ? { schema }
        : { schema, item: section.item, keyField: section.keyField },
    );
  }
  layouts.set(MAINTENANCE_SECTION, { schema: maintenanceSettingsSchema({ allRequired: false }) });
  layouts.set(PROJECTS_SECTION, {
    schema: projectConfigurationSchema as JsonSchema,
    item: 'project',
    keyField: 'project_key',
  });
  return layouts;
}

/** A JSON value as the builder's tree: arrays as `<item>`s, scalars as text. */
function toNode(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? '' : { [ITEM]: value.map(toNode) };
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, toNode(v)]));
  return value === undefined || value === null ? '' : String(value);
}

/** The configuration as XML text: `<config version="1">`, one element per section. */
export function configurationToXml(document: ConfigurationDocument, registry: SchemaRegistry) {
  const layouts = layoutOf(registry);
  const sections: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(document)) {
    const layout = layouts.get(name);
    if (layout?.item) {
      const items = Object.entries(value as Record<string, Record<string, unknown>>).map(
        ([key, item]) => toNode({ [layout.keyField!]: key, ...item }),
      );
      sections[name] = items.length === 0 ? '' : { [layout.item]: items };
    } else sections[name] = toNode(value);
  }
  return elementToXml(ROOT, { '@_version': '1', ...sections });
}

/** One element and its children as indented XML, with the declaration. */
export function elementToXml(name: string, content: unknown): string {
  const builder = new XMLBuilder({ format: true, indentBy: '  ', ignoreAttributes: false });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [name]: content })}`;
}

const typeOf = (schema: JsonSchema | undefined): string | undefined => {
  const type = schema?.type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined;
  return type as string | undefined;
};

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * Text read back as the schema types it: `true` a boolean, `8080` a number, `<item>`s an
 * array. A value the schema does not take stays text, so the schema's own check refuses it
 * with its own message rather than this guessing.
 */
function fromNode(value: unknown, schema: JsonSchema | undefined): unknown {
  const type = typeOf(schema);
  const isMap = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (type === 'array' || (isMap && Object.keys(value).length === 1 && ITEM in value)) {
    if (value === '') return [];
    const items = isMap ? (value as Record<string, unknown>)[ITEM] : value;
    return (Array.isArray(items) ? items : [items]).map((item) =>
      fromNode(item, schema?.items as JsonSchema | undefined),
    );
  }
  if (type === 'object' || isMap) {
    if (!isMap) return value === '' ? {} : value;
    return Object.fromEntries(
      Object.entries(value).map(([name, v]) => [name, fromNode(v, schema?.properties?.[name])]),
    );
  }
  if (typeof value !== 'string') return value;
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if ((type === 'integer' || type === 'number') && NUMBER.test(value)) return Number(value);
  return value;
}

/** Parses a configuration in XML into the document `configurationToXml` wrote. */
export function configurationFromXml(xml: string, registry: SchemaRegistry): ConfigurationDocument {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new BadRequest(M.notXml(`${valid.err.msg} (line ${valid.err.line})`));
  const layouts = layoutOf(registry);
  const parser = new XMLParser({
    ignoreAttributes: true,
    parseTagValue: false,
    processEntities: true,
    htmlEntities: false,
    // Sections' items and arrays' items are lists even when there is one.
    isArray: (name, jpath) => {
      const depth = String(jpath).split('.').length;
      return (
        name === ITEM || (depth === 3 && layouts.get(String(jpath).split('.')[1]!)?.item === name)
      );
    },
  });
  const parsed = parser.parse(xml) as Record<string, unknown>;
  const root = parsed[ROOT];
  if (root === undefined) throw new BadRequest(M.xmlRoot);
  const document: ConfigurationDocument = {};
  for (const [name, value] of Object.entries(root === '' ? {} : (root as object))) {
    const layout = layouts.get(name);
    if (!layout) {
      document[name] = value; // refused by name where sections are checked
      continue;
    }
    if (!layout.item) {
      document[name] = fromNode(value === '' ? {} : value, layout.schema);
      continue;
    }
    const items = value === '' ? [] : ((value as Record<string, unknown[]>)[layout.item] ?? []);
    document[name] = Object.fromEntries(
      items.map((item) => {
        const fields = fromNode(item === '' ? {} : item, layout.schema) as Record<string, unknown>;
        const { [layout.keyField!]: key, ...rest } = fields;
        return [String(key ?? ''), rest];
      }),
    );
  }
  return document;
}
