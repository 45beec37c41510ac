/** The keywords of JSON Schema draft 2020-12, by vocabulary. */
const DRAFT_2020_12 = [
  // core
  '$schema',
  '$id',
  '$ref',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$vocabulary',
  '$comment',
  '$defs',
  // applicator
  'prefixItems',
  'items',
  'contains',
  'additionalProperties',
  'properties',
  'patternProperties',
  'dependentSchemas',
  'propertyNames',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  // unevaluated
  'unevaluatedItems',
  'unevaluatedProperties',
  // validation
  'type',
  'const',
  'enum',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  // meta-data, format, content
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
];

/**
 * Keywords Depot's schemas may use beyond the standard: `errorMessage` (ajv-errors: the
 * spec's wording of a failed keyword). A keyword the console or the server learns to read
 * is added here, so that schemas:check still refuses a misspelt one.
 */
export const EXTENSION_KEYWORDS = ['errorMessage'];

export const KNOWN_KEYWORDS = new Set([...DRAFT_2020_12, ...EXTENSION_KEYWORDS]);

export const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/** Keywords whose value is a map of subschemas, one subschema, or a list of them. */
export const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
export const SCHEMA_VALUES = [
  'items',
  'contains',
  'additionalProperties',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
export const SCHEMA_LISTS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];

/** Subschemas that describe the same instance as their parent (so its properties apply). */
export const SAME_INSTANCE = [
  'if',
  'then',
  'else',
  'not',
  'allOf',
  'anyOf',
  'oneOf',
  'dependentSchemas',
];

/** ajv-errors' own keys in an `errorMessage` object, beside the keywords it words. */
export const ERROR_MESSAGE_KEYS = ['properties', 'items', 'required', 'dependencies', '_'];
