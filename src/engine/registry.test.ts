import { describe, expect, it } from 'vitest';
import { createRegistry, createScreenRegistry } from './registry';
import { assertWidgetsRegistered, getWidgetRegistry, widgetName } from './form/widgetRegistry';

describe('registries', () => {
  it('returns a registered entry and throws for an unknown name, naming it', () => {
    const registry = createRegistry('thing', { one: 1 });
    expect(registry.get('one')).toBe(1);
    expect(registry.has('two')).toBe(false);
    expect(() => registry.get('two')).toThrow('No thing named "two" is registered');
  });

  it('does not take inherited object keys for entries', () => {
    expect(() => createRegistry('thing', {}).get('toString')).toThrow(
      'No thing named "toString" is registered',
    );
  });

  it('has our widgets on top of rjsf core ones, reachable by their short names', () => {
    const widgets = getWidgetRegistry();
    for (const short of ['text', 'password', 'textarea', 'checkbox', 'select', 'multiSelect']) {
      expect(widgets.has(widgetName(short))).toBe(true);
    }
    expect(widgets.get('CheckboxWidget').name).toBe('CheckboxWidget');
  });

  it('checks a uiSchema against the widget registry', () => {
    const widgets = getWidgetRegistry();
    expect(() =>
      assertWidgetsRegistered({ password: { 'ui:widget': 'password' } }, widgets),
    ).not.toThrow();
    expect(() =>
      assertWidgetsRegistered({ when: { 'ui:widget': 'calendarPopup' } }, widgets),
    ).toThrow('No widget named "calendarPopup" is registered');
  });

  it('throws for a custom screen component nobody registered', () => {
    expect(() => createScreenRegistry({}).get('tree-browser')).toThrow(
      'No screen component named "tree-browser" is registered',
    );
  });
});
