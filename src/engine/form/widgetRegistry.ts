import { getDefaultRegistry as getRjsfDefaultRegistry } from '@rjsf/core';
import type { RegistryWidgetsType } from '@rjsf/utils';
import { depotWidgets } from '../../design/rjsf';
import { createRegistry, type Registry } from '../registry';

export type WidgetRegistry = Registry<RegistryWidgetsType[string]>;

/** rjsf's short `ui:widget` names, as its getWidget maps them, plus ours. */
const WIDGET_ALIASES: Record<string, string> = {
  text: 'TextWidget',
  password: 'PasswordWidget',
  email: 'EmailWidget',
  uri: 'URLWidget',
  textarea: 'TextareaWidget',
  select: 'SelectWidget',
  checkbox: 'CheckboxWidget',
  hidden: 'HiddenWidget',
  updown: 'UpDownWidget',
  multiSelect: 'MultiSelectWidget',
};

/** The form widgets, in the style of rjsf's getDefaultRegistry: rjsf's core set with ours on top. */
export function getWidgetRegistry(): WidgetRegistry {
  return createRegistry('widget', { ...getRjsfDefaultRegistry().widgets, ...depotWidgets() });
}

/** The registry name behind a `ui:widget` value (alias or full name). */
export function widgetName(uiWidget: string): string {
  return WIDGET_ALIASES[uiWidget] ?? uiWidget;
}

/** Throws, naming the widget, when a uiSchema asks for a widget nobody registered. */
export function assertWidgetsRegistered(
  uiSchema: Record<string, unknown>,
  widgets: WidgetRegistry,
): void {
  for (const fieldUi of Object.values(uiSchema)) {
    const widget = (fieldUi as Record<string, unknown> | undefined)?.['ui:widget'];
    if (typeof widget === 'string') widgets.get(widgetName(widget));
  }
}
