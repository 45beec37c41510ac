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
}

/**
 * The form's schema: the entity schema restricted to `form.fields`, read-only properties
 * dropped, `requiredOnCreate` required only when creating, `readOnlyOnEdit` disabled when
 * editing, a retype field after the `confirm` field, and `options` fields as multi-selects
 * over `choices`. No `$id`: the validator caches compiled schemas by `$id`, and the create
 * and edit variants of one entity differ.
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
  for (const field of Object.keys(form.options ?? {})) {
    if (!fields.includes(field)) continue;
    uiSchema[field] = {
      ...uiSchema[field],
      'ui:widget': 'MultiSelectWidget',
      'ui:options': { ...uiSchema[field]?.['ui:options'], choices: choices[field] ?? [] },
    };
  }
  uiSchema['ui:order'] = order;

  const schema: RJSFSchema = { type: 'object', properties: properties as RJSFSchema['properties'] };
  if (required.size > 0) schema.required = [...required];
  return { schema, uiSchema };
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
