import type { JsonSchema } from './registry.ts';

/**
 * Writes the TypeScript type of a screen descriptor from the meta-schema, so that the server
 * and the console read one definition (`npm run schemas:types`; schemas:check says when the
 * file is stale). It covers what the meta-schema uses: objects, arrays, maps, enums, consts,
 * `$ref` to `$defs`, `oneOf` (a union), and `allOf` of `if`/`then`/`else`, whose branches become the variants of
 * a union.
 */
export const DESCRIPTOR_TYPE_FILE = 'schemas/meta/screen-descriptor.generated.ts';

/** Names for the parts other code refers to, by JSON pointer into the meta-schema. */
const TYPE_NAMES: Record<string, string> = {
  '': 'ScreenDescriptorFields',
  '/$defs/call': 'ApiCall',
  '/$defs/call/properties/method': 'HttpMethod',
  '/$defs/choiceSource': 'ChoiceSource',
  '/properties/permission': 'Permission',
  '/properties/menu': 'MenuEntry',
  '/properties/api': 'ResourceApi',
  '/$defs/list': 'ListDescriptor',
  '/$defs/listColumn': 'ListColumn',
  '/$defs/listColumn/properties/format': 'ListColumnFormat',
  '/properties/form': 'FormDescriptor',
  '/properties/rowActions/items': 'RowAction',
  '/properties/store': 'StoreDescriptor',
  '/properties/pages/items': 'ScreenPage',
  '/properties/pages/items/properties/view': 'ScreenViewName',
  '/properties/projectMenu': 'ProjectMenuEntry',
  '/properties/userMenu': 'UserMenuEntry',
  '/properties/form/properties/sections/items': 'FormSection',
  '/properties/form/properties/actions/items': 'FormAction',
};

/**
 * The variants `allOf[i].then` / `allOf[i].else` become, by the index of the `allOf`: a
 * descriptor is one settings document, a list of documents, or a bespoke screen.
 */
const VARIANT_NAMES: Record<number, { then: string; else?: string }> = {
  0: { then: 'SingleDocumentDescriptor' },
  1: { then: 'CollectionDescriptor' },
  2: { then: 'BespokeDescriptor' },
};

/** The declarations written so far, by type name, and the meta-schema `$ref`s resolve in. */
type Declarations = Map<string, string> & { root?: JsonSchema };

const literal = (value: unknown) =>
  typeof value === 'string' ? `'${value.replace(/'/g, "\\'")}'` : JSON.stringify(value);

const docComment = (schema: JsonSchema, indent: string) =>
  typeof schema.description === 'string'
    ? `${indent}/** ${schema.description.replace(/\*\//g, '* /')} */\n`
    : '';

function typeOf(schema: JsonSchema, pointer: string, out: Declarations, indent: string): string {
  const name = TYPE_NAMES[pointer];
  if (name && pointer !== '' && !out.has(name)) {
    out.set(name, ''); // reserved first, so that a cycle refers to the name
    out.set(name, declaration(name, schema, pointer, out));
  }
  if (name && pointer !== '') return name;
  return inlineType(schema, pointer, out, indent);
}

function declaration(name: string, schema: JsonSchema, pointer: string, out: Declarations) {
  const body = inlineType(schema, pointer, out, '');
  const doc = docComment(schema, '');
  return body.startsWith('{')
    ? `${doc}export interface ${name} ${body}\n`
    : `${doc}export type ${name} = ${body};\n`;
}

function inlineType(schema: JsonSchema, pointer: string, out: Declarations, indent: string) {
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref.replace(/^#/, '');
    if (!TYPE_NAMES[target]) throw new Error(`${pointer}: $ref ${schema.$ref} has no type name`);
    const referenced = target
      .split('/')
      .filter(Boolean)
      .reduce<JsonSchema>((node, step) => node[step] as JsonSchema, out.root ?? {});
    return typeOf(referenced, target, out, indent);
  }
  if (Array.isArray(schema.oneOf))
    return (schema.oneOf as JsonSchema[])
      .map((variant, index) => typeOf(variant, `${pointer}/oneOf/${index}`, out, indent))
      .join(' | ');
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
  if ('const' in schema) return literal(schema.const);
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const items = typeOf(schema.items as JsonSchema, `${pointer}/items`, out, indent);
      return items.includes(' ') ? `(${items})[]` : `${items}[]`;
    }
    case 'object':
      return objectType(schema, pointer, out, indent);
    default:
      return 'unknown';
  }
}

function objectType(schema: JsonSchema, pointer: string, out: Declarations, indent: string) {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) {
    const values =
      typeof schema.additionalProperties === 'object'
        ? typeOf(
            schema.additionalProperties as JsonSchema,
            `${pointer}/additionalProperties`,
            out,
            indent,
          )
        : 'unknown';
    return `Record<string, ${values}>`;
  }
  const required = new Set(schema.required ?? []);
  const inner = `${indent}  `;
  const lines = properties.map(([key, property]) => {
    const type = typeOf(property, `${pointer}/properties/${key}`, out, inner);
    return `${docComment(property, inner)}${inner}${key}${required.has(key) ? '' : '?'}: ${type};`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/**
 * What a branch of an `if` adds to `base`: its `required` names become required, its
 * `properties` narrow those properties (a `const` to its value, a nested `required` too).
 */
function refinement(fragment: JsonSchema | undefined, base: string): string[] {
  if (!fragment) return [];
  const parts: string[] = [];
  const required = fragment.required ?? [];
  if (required.length > 0)
    parts.push(`Required<Pick<${base}, ${required.map((r) => literal(r)).join(' | ')}>>`);
  for (const [key, property] of Object.entries(fragment.properties ?? {})) {
    const propertyBase = `NonNullable<${base}[${literal(key)}]>`;
    if ('const' in property) parts.push(`{ ${key}: ${literal(property.const)} }`);
    const nested = refinement(property, propertyBase);
    if (nested.length > 0) parts.push(`{ ${key}: ${nested.join(' & ')} }`);
  }
  return parts;
}

const uniqueParts = (parts: string[]) => [...new Set(parts)];

/** The TypeScript source of the descriptor type, as `npm run schemas:types` writes it. */
export function descriptorTypeSource(metaSchema: JsonSchema): string {
  const out: Declarations = Object.assign(new Map<string, string>(), { root: metaSchema });
  const root = TYPE_NAMES[''];
  const rootDeclaration = declaration(root, metaSchema, '', out);
  const variants: string[] = [];
  ((metaSchema.allOf as JsonSchema[] | undefined) ?? []).forEach((rule, index) => {
    const names = VARIANT_NAMES[index];
    if (!names || !rule.if) throw new Error(`/allOf/${index}: only if/then/else is supported`);
    if (rule.else && !names.else) throw new Error(`/allOf/${index}: its else has no type name`);
    // What `if` asks beside its `not` (a negation narrows no type) holds in `then`.
    const thenParts = [root, ...refinement(rule.if as JsonSchema, root)];
    thenParts.push(...refinement(rule.then as JsonSchema, root));
    variants.push(`export type ${names.then} = ${uniqueParts(thenParts).join(' & ')};\n`);
    if (!names.else) return;
    const elseParts = [root, ...refinement(rule.else as JsonSchema, root)];
    variants.push(`export type ${names.else} = ${uniqueParts(elseParts).join(' & ')};\n`);
  });
  const union = Object.values(VARIANT_NAMES)
    .flatMap((n) => [n.then, n.else ?? ''])
    .filter((n) => variants.some((v) => v.startsWith(`export type ${n} `)));
  const screenDescriptor =
    union.length > 0
      ? `/** A screen descriptor, as schemas/screens/*.screen.json hold them. */\nexport type ScreenDescriptor = ${union.join(' | ')};\n`
      : `export type ScreenDescriptor = ${root};\n`;
  return [
    '// Generated from schemas/meta/screen.meta.schema.json by `npm run schemas:types`: do not edit.',
    '// The server (server/schemas/registry.ts) and the console (src/api/descriptor.ts) both use it.',
    '',
    ...[...out.values()],
    rootDeclaration,
    ...variants,
    screenDescriptor,
  ].join('\n');
}
