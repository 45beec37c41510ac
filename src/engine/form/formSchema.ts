import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { FormDescriptor, JsonSchema } from '../../api/descriptor';
import type { Row } from '../../api/resource';

export type FormMode = 'create' | 'edit';

/** The retype field's key; the leading underscore marks it internal (never sent, not compared). */
export const confirmKey = (field: string) => `_confirm_${field}`;
export const isInternalField = (key: string) => key.startsWith('_');

export interface FormBuild {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  /** Fields shown with the cron widget: the form refuses an expression that never runs. */
  cronFields: string[];
}

/** Entity-level keywords that tie fields together; the form keeps them (if/then/else, ...). */
const CONDITIONAL_KEYWORDS = [
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'dependentRequired',
  'dependentSchemas',
] as const;

const CRON_WIDGETS = new Set(['cron', 'CronWidget']);

/** An array whose items are picked from a list: `items.enum`, or `items.oneOf` of consts. */
function isEnumArray(property: JsonSchema): boolean {
  const items = property.items as JsonSchema | undefined;
  if (property.type !== 'array' || !items || typeof items !== 'object') return false;
  const options = (items.oneOf ?? items.anyOf) as JsonSchema[] | undefined;
  return (
    Array.isArray(items.enum) || (Array.isArray(options) && options.every((o) => 'const' in o))
  );
}

/**
 * The form's schema: the entity schema restricted to `form.fields`, read-only properties
 * dropped, `requiredOnCreate` required only when creating, `readOnlyOnEdit` disabled when
 * editing, a retype field after the `confirm` field, `options` fields as pickers over
 * `choices`, write-only properties as secrets (not required on edit: the server keeps
 * them), enum arrays as checkbox groups, `form.sections` as fieldsets, and the entity's
 * if/then/else, allOf and dependentRequired kept. No `$id`: the validator caches compiled
 * schemas by `$id`, and the create and edit variants of one entity differ.
 */
export function buildFormSchema(
  form: FormDescriptor,
  entitySchema: JsonSchema,
  mode: FormMode,
  choices: Record<string, string[]> = {},
): FormBuild {
  const entityProps = entitySchema.properties ?? {};
  const fields = form.fields.filter((f) => entityProps[f] && entityProps[f].readOnly !== true);
  const properties: Record<string, JsonSchema> = Object.fromEntries(
    fields.map((f) => [f, entityProps[f]]),
  );
  const required = new Set([
    ...(entitySchema.required ?? []).filter((f) => fields.includes(f)),
    ...(mode === 'create' ? (form.requiredOnCreate ?? []).filter((f) => fields.includes(f)) : []),
  ]);
  const uiSchema: UiSchema = structuredClone(form.uiSchema ?? {}) as UiSchema;
  const order = [...fields];

  if (form.confirm && fields.includes(form.confirm.field)) {
    const key = confirmKey(form.confirm.field);
    properties[key] = { type: 'string', title: form.confirm.label };
    order.splice(order.indexOf(form.confirm.field) + 1, 0, key);
    // The retype field looks like the field it repeats (a password stays masked).
    uiSchema[key] = { ...(uiSchema[form.confirm.field] ?? {}) };
  }
  if (mode === 'edit') {
    for (const field of form.readOnlyOnEdit ?? [])
      uiSchema[field] = { ...uiSchema[field], 'ui:disabled': true };
  }
  const secrets = fields.filter((f) => entityProps[f].writeOnly === true);
  for (const field of secrets) {
    uiSchema[field] = { 'ui:widget': 'secret', ...uiSchema[field] };
    // The server never sends a secret back and keeps it when an update leaves it empty.
    if (mode === 'edit') {
      required.delete(field);
      uiSchema[field]['ui:options'] = { ...uiSchema[field]['ui:options'], secretKept: true };
    }
  }
  for (const field of fields.filter((f) => isEnumArray(entityProps[f]))) {
    uiSchema[field] = { 'ui:widget': 'checkboxes', ...uiSchema[field] };
  }
  for (const field of Object.keys(form.options ?? {})) {
    if (!fields.includes(field)) continue;
    // An array picks several of the endpoint's values, a single value one of them.
    const widget = entityProps[field].type === 'array' ? 'MultiSelectWidget' : 'select';
    uiSchema[field] = {
      ...uiSchema[field],
      'ui:widget': widget,
      'ui:options': { ...uiSchema[field]?.['ui:options'], choices: choices[field] ?? [] },
    };
  }
  if (form.sections?.length) uiSchema['ui:sections'] = form.sections;

  const schema: RJSFSchema = { type: 'object', properties: properties as RJSFSchema['properties'] };
  if (required.size > 0) schema.required = [...required];
  const conditionals = CONDITIONAL_KEYWORDS.filter(
    (keyword) => entitySchema[keyword] !== undefined,
  );
  for (const keyword of conditionals) {
    const kept = structuredClone(entitySchema[keyword]);
    (schema as Record<string, unknown>)[keyword] =
      mode === 'edit' ? withoutRequired(kept, secrets) : kept;
  }
  // A `then` may bring fields of its own; rjsf refuses an order that leaves one out.
  uiSchema['ui:order'] = conditionals.length > 0 ? [...order, '*'] : order;
  const cronFields = fields.filter((f) => CRON_WIDGETS.has(String(uiSchema[f]?.['ui:widget'])));
  return { schema, uiSchema, cronFields };
}

/** The conditionals of an edit form, where a kept secret may be left empty. */
function withoutRequired(node: unknown, names: string[]): unknown {
  if (names.length === 0 || node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((item) => withoutRequired(item, names));
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'required' && Array.isArray(value))
      copy[key] = value.filter((name) => !names.includes(name));
    else if (key === 'dependentRequired' && value && typeof value === 'object')
      copy[key] = Object.fromEntries(
        Object.entries(value)
          .filter(([name]) => !names.includes(name))
          .map(([name, deps]) => [name, (deps as string[]).filter((d) => !names.includes(d))]),
      );
    else copy[key] = withoutRequired(value, names);
  }
  return copy;
}

/** Starting data: the schema defaults of the form's fields, overlaid with the entity's values. */
export function initialFormData(schema: RJSFSchema, entity: Row = {}): Row {
  const data: Row = {};
  for (const [field, prop] of Object.entries(schema.properties ?? {})) {
    if (isInternalField(field)) continue;
    const fromEntity = entity[field];
    const fallback = typeof prop === 'object' ? prop.default : undefined;
    const value = fromEntity !== undefined && fromEntity !== null ? fromEntity : fallback;
    if (value !== undefined) data[field] = structuredClone(value);
  }
  return data;
}

/** What goes to the server: form fields only, no internal fields, no empty values. */
export function toPayload(schema: RJSFSchema, data: Row): Row {
  const payload: Row = {};
  for (const field of Object.keys(schema.properties ?? {})) {
    if (isInternalField(field)) continue;
    const value = data[field];
    if (value !== undefined && value !== null && value !== '') payload[field] = value;
  }
  return payload;
}
