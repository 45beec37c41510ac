import { describe, expect, it } from 'vitest';
import { uiSchemaProblems } from '../src/engine/form/uiSchemaProblems.ts';
import { loadSchemaRegistry } from '../server/schemas/registry.ts';
import type { FormDescriptor, JsonSchema } from '../src/api/descriptor.ts';

/**
 * The console's widget and field registries, loaded in Node as `schemas:check` loads them:
 * every name a descriptor's uiSchema uses resolves for its property's type, or is reported
 * with its JSON pointer.
 */
describe("the console's form registries, seen from Node", () => {
  const registry = loadSchemaRegistry();

  it('resolve every widget and field the shipped descriptors name', () => {
    for (const screen of registry.screens.values()) {
      if (!screen.entity || !screen.form) continue;
      const entity = registry.entities.get(screen.entity) as JsonSchema;
      expect(uiSchemaProblems(screen.form as FormDescriptor, entity), screen.id).toEqual([]);
    }
  });

  it("report an unknown widget, a widget the property's type cannot take, and an unknown field", () => {
    const entity: JsonSchema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        'a/b': { type: 'string' },
      },
    };
    const form: FormDescriptor = {
      fields: ['name', 'tags', 'a/b'],
      uiSchema: {
        name: { 'ui:widget': 'checkboxes' },
        tags: { 'ui:widget': 'antPatterns', items: { 'ui:widget': 'calendarPopup' } },
        'a/b': { 'ui:field': 'keyValues' },
      },
    };
    expect(uiSchemaProblems(form, entity)).toEqual([
      {
        pointer: '/form/uiSchema/name/ui:widget',
        message: 'No widget named "checkboxes" is registered for a field of type string',
      },
      {
        pointer: '/form/uiSchema/tags/items/ui:widget',
        message: 'No widget named "calendarPopup" is registered',
      },
      {
        pointer: '/form/uiSchema/a~1b/ui:field',
        message: 'No field named "keyValues" is registered',
      },
    ]);
  });

  it('report an empty-state text on a property that is not an array', () => {
    const entity: JsonSchema = {
      type: 'object',
      properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    };
    const form: FormDescriptor = {
      fields: ['name', 'tags'],
      uiSchema: {
        name: { 'ui:options': { emptyText: 'No name' } },
        tags: { 'ui:options': { emptyText: 'No tags yet' } },
      },
    };
    expect(uiSchemaProblems(form, entity)).toEqual([
      {
        pointer: '/form/uiSchema/name/ui:options/emptyText',
        message: 'emptyText is the text of an empty array field: a string, on an array property',
      },
    ]);
  });
});
