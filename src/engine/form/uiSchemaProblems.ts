import type { RJSFSchema } from '@rjsf/utils';
import type { FormDescriptor, JsonSchema } from '../../api/descriptor';
import { getFieldRegistry, getWidgetRegistry, resolveWidget } from './widgetRegistry';

/** One thing a descriptor's form asks for that the console cannot give, and where. */
export interface UiSchemaProblem {
  /** JSON pointer into the descriptor file. */
  pointer: string;
  message: string;
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The widgets (`ui:widget`) and fields (`ui:field`) a descriptor's `form.uiSchema` names
 * that the console's real registries do not resolve for that property's type, and an
 * `emptyText` on a property that is not an array: what `schemas:check` reports. Loads no CSS and renders nothing, so Node can run it.
 */
export function uiSchemaProblems(
  form: FormDescriptor,
  entitySchema: JsonSchema,
): UiSchemaProblem[] {
  const widgets = getWidgetRegistry();
  const fields = getFieldRegistry();
  const properties = entitySchema.properties ?? {};
  const problems: UiSchemaProblem[] = [];
  const check = (ui: unknown, schema: JsonSchema | undefined, pointer: string) => {
    if (!ui || typeof ui !== 'object') return;
    const { 'ui:widget': widget, 'ui:field': field, items } = ui as Record<string, unknown>;
    if (typeof widget === 'string') {
      try {
        resolveWidget(widget, widgets, schema as RJSFSchema | undefined);
      } catch (error) {
        problems.push({ pointer: `${pointer}/ui:widget`, message: (error as Error).message });
      }
    }
    if (typeof field === 'string' && !fields.has(field))
      problems.push({
        pointer: `${pointer}/ui:field`,
        message: `No field named "${field}" is registered`,
      });
    const emptyText = (ui as { 'ui:options'?: Record<string, unknown> })['ui:options']?.emptyText;
    if (emptyText !== undefined && (typeof emptyText !== 'string' || schema?.type !== 'array'))
      problems.push({
        pointer: `${pointer}/ui:options/emptyText`,
        message: 'emptyText is the text of an empty array field: a string, on an array property',
      });
    if (items) check(items, schema?.items as JsonSchema | undefined, `${pointer}/items`);
  };
  for (const [name, ui] of Object.entries(form.uiSchema ?? {})) {
    if (name.startsWith('ui:')) continue;
    check(ui, properties[name], `/form/uiSchema/${escape(name)}`);
  }
  return problems;
}
