import { getDefaultRegistry as getRjsfDefaultRegistry } from '@rjsf/core';
import {
  getWidget,
  type RegistryFieldsType,
  type RegistryWidgetsType,
  type RJSFSchema,
} from '@rjsf/utils';
import { depotFields, depotWidgets } from '../../design/rjsf';
import { createRegistry, type Registry } from '../registry';

export type WidgetRegistry = Registry<RegistryWidgetsType[string]>;
export type FieldRegistry = Registry<RegistryFieldsType[string]>;

/**
 * rjsf's short `ui:widget` names, as its getWidget maps them (whichever type they suit),
 * plus Depot's. rjsf's own ones need the field's type to resolve (`checkboxes` suits only
 * an array); `resolveWidget` asks rjsf itself.
 */
const WIDGET_ALIASES: Record<string, string> = {
  text: 'TextWidget',
  password: 'PasswordWidget',
  email: 'EmailWidget',
  hostname: 'TextWidget',
  ipv4: 'TextWidget',
  ipv6: 'TextWidget',
  uri: 'URLWidget',
  'data-url': 'FileWidget',
  textarea: 'TextareaWidget',
  select: 'SelectWidget',
  radio: 'RadioWidget',
  checkbox: 'CheckboxWidget',
  checkboxes: 'CheckboxesWidget',
  hidden: 'HiddenWidget',
  updown: 'UpDownWidget',
  range: 'RangeWidget',
  date: 'DateWidget',
  datetime: 'DateTimeWidget',
  'date-time': 'DateTimeWidget',
  'alt-date': 'AltDateWidget',
  'alt-datetime': 'AltDateTimeWidget',
  time: 'TimeWidget',
  color: 'ColorWidget',
  file: 'FileWidget',
  files: 'FileWidget',
  // Depot's own
  multiSelect: 'MultiSelectWidget',
  secret: 'SecretWidget',
  cron: 'CronWidget',
  antPatterns: 'AntPatternsWidget',
  serverPath: 'ServerPathWidget',
};

/** Depot's short names, which rjsf does not know: the form's widgets carry them as keys. */
const DEPOT_ALIASES = ['multiSelect', 'secret', 'cron', 'antPatterns', 'serverPath'];

/** The form widgets, in the style of rjsf's getDefaultRegistry: rjsf's core set with ours on top. */
export function getWidgetRegistry(): WidgetRegistry {
  const widgets: RegistryWidgetsType = { ...getRjsfDefaultRegistry().widgets, ...depotWidgets() };
  for (const alias of DEPOT_ALIASES) widgets[alias] = widgets[WIDGET_ALIASES[alias]];
  return createRegistry('widget', widgets);
}

/** The form fields a uiSchema's `ui:field` may name: rjsf's with ours on top (`keyValue`). */
export function getFieldRegistry(): FieldRegistry {
  return createRegistry('field', { ...getRjsfDefaultRegistry().fields, ...depotFields() });
}

/** The registry name behind a `ui:widget` value (alias or full name). */
export function widgetName(uiWidget: string): string {
  return WIDGET_ALIASES[uiWidget] ?? uiWidget;
}

/**
 * The widget a `ui:widget` names for a field of this schema, resolved the way the form
 * resolves it (rjsf's getWidget over the registry); throws, naming it, when there is none.
 */
export function resolveWidget(
  uiWidget: string,
  widgets: WidgetRegistry,
  schema?: RJSFSchema,
): RegistryWidgetsType[string] {
  if (!widgets.has(widgetName(uiWidget)))
    throw new Error(`No widget named "${uiWidget}" is registered`);
  if (!schema || widgets.has(uiWidget)) return widgets.get(widgetName(uiWidget));
  try {
    return getWidget(schema, uiWidget, widgets.entries) as RegistryWidgetsType[string];
  } catch {
    const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'untyped');
    throw new Error(`No widget named "${uiWidget}" is registered for a field of type ${type}`);
  }
}

/** Throws, naming the widget, when a uiSchema asks for a widget nobody registered. */
export function assertWidgetsRegistered(
  uiSchema: Record<string, unknown>,
  widgets: WidgetRegistry,
  properties: Record<string, RJSFSchema> = {},
): void {
  for (const [field, fieldUi] of Object.entries(uiSchema)) {
    const widget = (fieldUi as Record<string, unknown> | undefined)?.['ui:widget'];
    if (typeof widget === 'string') resolveWidget(widget, widgets, properties[field]);
  }
}
