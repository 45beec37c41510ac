import { withoutId, type JsonSchema } from '../../schemas/registry.ts';

/** A property a body may carry but the server owns: accepted as sent back, then dropped. */
const ANYTHING: JsonSchema = {};

function withReadOnlyAccepted(entity: JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(entity.properties ?? {}).map(([name, property]) => [
      name,
      property.readOnly === true ? ANYTHING : property,
    ]),
  );
}

/**
 * The create body: the entity schema itself (the file the console validates with), its
 * read-only fields accepted and ignored, `requiredOnCreate` required too. Ajv fills in the
 * defaults.
 */
export function createBody(entity: JsonSchema, requiredOnCreate: string[] = []): JsonSchema {
  const readOnly = (name: string) => entity.properties?.[name]?.readOnly === true;
  const required = [...new Set([...(entity.required ?? []), ...requiredOnCreate])].filter(
    (name) => !readOnly(name),
  );
  return withoutId({ ...entity, properties: withReadOnlyAccepted(entity), required });
}

/**
 * Defaults of the properties an update merges into the stored document, at every depth of
 * objects: an update that leaves a field out keeps it. Items of an array keep theirs, since
 * an array is replaced whole.
 */
function withoutMergedDefaults(schema: JsonSchema): JsonSchema {
  if (!schema.properties) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, property]) => {
      const { default: _dropped, ...rest } = property;
      return [name, withoutMergedDefaults(rest)];
    }),
  );
  return { ...schema, properties };
}

/** The update body: every field optional and without defaults, read-only ones ignored. */
export function updateBody(entity: JsonSchema): JsonSchema {
  const schema = withoutMergedDefaults({ ...entity, properties: withReadOnlyAccepted(entity) });
  return withoutId({ ...schema, required: [] });
}

/** The body of deleteMany: `{[bodyKey]: keys}`, or the keys alone. */
export function deleteManyBody(bodyKey: string | undefined): JsonSchema {
  const keys = {
    type: 'array',
    minItems: 1,
    maxItems: 100,
    items: { type: 'string', minLength: 1, maxLength: 255 },
  };
  return bodyKey
    ? {
        type: 'object',
        required: [bodyKey],
        additionalProperties: false,
        properties: { [bodyKey]: keys },
      }
    : keys;
}

/** Names a list query takes for itself; other top-level fields filter by equality. */
const LIST_PARAMETERS = ['offset', 'limit', 'sort', 'order', 'q'];

const isScalar = (property: JsonSchema) =>
  ['string', 'boolean', 'integer', 'number'].includes(String(property.type)) &&
  property.writeOnly !== true;

/** The scalar top-level fields a list may be sorted and filtered by. */
export const listFields = (entity: JsonSchema) =>
  Object.entries(entity.properties ?? {})
    .filter(([name, property]) => isScalar(property) && !LIST_PARAMETERS.includes(name))
    .map(([name]) => name);

/** The list query: paging (`offset`, `limit`), `sort` and `order`, `q` on the key, `field=value`. */
export function listQuery(entity: JsonSchema): JsonSchema {
  const fields = listFields(entity);
  return {
    type: 'object',
    properties: {
      offset: { type: 'integer', minimum: 0, default: 0 },
      limit: { type: 'integer', minimum: 1, maximum: 1000 },
      sort: { type: 'string', enum: fields },
      order: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
      q: { type: 'string', maxLength: 200 },
      ...Object.fromEntries(fields.map((name) => [name, { type: 'string', maxLength: 1000 }])),
    },
  };
}
