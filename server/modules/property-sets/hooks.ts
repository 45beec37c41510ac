import { BadRequest } from '../../errors.ts';
import type { EntityHooks } from '../entities/hooks.ts';
import { PROPERTY_SET_MESSAGES as M } from './messages.ts';

export interface PropertySetValue {
  value: string;
  defaultValue: boolean;
}

export interface PropertySetProperty {
  name: string;
  propertyType: 'ANY_VALUE' | 'SINGLE_SELECT' | 'MULTI_SELECT';
  predefinedValues: PropertySetValue[];
}

/** A property set as every call answers it. */
export interface PropertySet {
  name: string;
  properties: PropertySetProperty[];
}

/** The body schema checks each field; these are the rules across fields and items. */
function checkProperties(properties: PropertySetProperty[]): void {
  const names = new Set<string>();
  for (const property of properties) {
    if (names.has(property.name)) throw new BadRequest(M.keyUsed, 'properties');
    names.add(property.name);
    const values = new Set<string>();
    for (const { value } of property.predefinedValues) {
      if (values.has(value)) throw new BadRequest(M.unique, 'properties');
      values.add(value);
    }
    const defaults = property.predefinedValues.filter((v) => v.defaultValue).length;
    if (property.propertyType === 'SINGLE_SELECT' && defaults > 1)
      throw new BadRequest(M.oneDefault, 'properties');
  }
}

/** A free-text property offers no choices, so whatever values it was given are dropped. */
const normalized = (properties: PropertySetProperty[]): PropertySetProperty[] =>
  properties.map((p) => ({
    name: p.name,
    propertyType: p.propertyType,
    predefinedValues: p.propertyType === 'ANY_VALUE' ? [] : p.predefinedValues,
  }));

/**
 * Property sets on the schema engine (schemas/screens/property-sets.screen.json): names and
 * values unique within a set, one default for a single select, free text without values.
 */
export function propertySetHooks(): EntityHooks {
  return {
    beforeWrite({ document }) {
      const properties = (document.properties ?? []) as PropertySetProperty[];
      checkProperties(properties);
      return { ...document, properties: normalized(properties) };
    },
  };
}
