import {
  getFieldRegistry,
  getWidgetRegistry,
  widgetName,
} from '../../src/engine/form/widgetRegistry.ts';
import { screenRegistry } from '../../src/screens/registry.ts';

/**
 * The console's own registries, for schemas:check to resolve descriptors' widget and field names and
 * components exactly as the console will (never a list kept apart from them).
 */
export function consoleRegistries() {
  const widgets = getWidgetRegistry();
  const fields = getFieldRegistry();
  return {
    widgetExists: (name: string) => widgets.has(widgetName(name)),
    fieldExists: (name: string) => fields.has(name),
    componentExists: (name: string) => screenRegistry.has(name),
  };
}
