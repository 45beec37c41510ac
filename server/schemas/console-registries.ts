import { getWidgetRegistry, widgetName } from '../../src/engine/form/widgetRegistry.ts';
import { screenRegistry } from '../../src/screens/registry.ts';

/**
 * The console's own registries, for schemas:check to resolve descriptors' widget names and
 * components exactly as the console will (never a list kept apart from them).
 */
export function consoleRegistries() {
  const widgets = getWidgetRegistry();
  return {
    widgetExists: (name: string) => widgets.has(widgetName(name)),
    componentExists: (name: string) => screenRegistry.has(name),
  };
}
