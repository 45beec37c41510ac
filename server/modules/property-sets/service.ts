import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import type { PropertySetProperty } from '../../db/tables.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import { PROPERTY_SET_MESSAGES as M } from './messages.ts';
import {
  deletePropertySets,
  findPropertySet,
  insertPropertySet,
  listPropertySets,
  missingPropertySets,
  updatePropertySet,
  type PropertySet,
} from './queries.ts';

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
 * Property sets, managed by admins and offered by the tree's Properties tab. Every set
 * applies to every repository (docs/property-sets.md): there is no per-repository choice.
 */
export function createPropertySetsService(db: Database, repositories: RepositoriesService) {
  async function get(name: string): Promise<PropertySet> {
    const found = await findPropertySet(db, name);
    if (!found) throw new NotFound(M.notFound(name));
    return found;
  }

  return {
    list: () => listPropertySets(db),
    get,

    async create(set: PropertySet): Promise<PropertySet> {
      checkProperties(set.properties);
      try {
        await insertPropertySet(db, { name: set.name, properties: normalized(set.properties) });
      } catch (error) {
        throw isUniqueViolation(error) ? new Conflict(M.unique, 'name') : error;
      }
      return get(set.name);
    },

    /** Replaces a set's properties; its name never changes. */
    async update(name: string, properties: PropertySetProperty[]): Promise<PropertySet> {
      const current = await get(name);
      checkProperties(properties);
      await updatePropertySet(db, { name: current.name, properties: normalized(properties) });
      return get(current.name);
    },

    /** Deletes sets, all or none: an unknown name stops the lot. */
    async deleteMany(names: string[]): Promise<void> {
      const [missing] = await missingPropertySets(db, names);
      if (missing !== undefined) throw new NotFound(M.notFound(missing));
      await deletePropertySets(db, names);
    },

    /** The sets a repository offers: all of them, once the repository is known to exist. */
    async forRepository(repoKey: string): Promise<PropertySet[]> {
      await repositories.get(repoKey);
      return listPropertySets(db);
    },
  };
}

export type PropertySetsService = ReturnType<typeof createPropertySetsService>;
