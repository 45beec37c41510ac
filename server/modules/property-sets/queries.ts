import type { Database } from '../../db/database.ts';
import type { PropertySetProperty } from '../../db/tables.ts';

/** A property set as every call answers it. */
export interface PropertySet {
  name: string;
  properties: PropertySetProperty[];
}

export function listPropertySets(db: Database): Promise<PropertySet[]> {
  return db.selectFrom('property_sets').select(['name', 'properties']).orderBy('name').execute();
}

export function findPropertySet(db: Database, name: string): Promise<PropertySet | undefined> {
  return db
    .selectFrom('property_sets')
    .select(['name', 'properties'])
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function insertPropertySet(db: Database, set: PropertySet): Promise<void> {
  await db
    .insertInto('property_sets')
    .values({ name: set.name, properties: JSON.stringify(set.properties) })
    .execute();
}

export async function updatePropertySet(db: Database, set: PropertySet): Promise<void> {
  await db
    .updateTable('property_sets')
    .set({ properties: JSON.stringify(set.properties), updated_at: new Date() })
    .where('name', '=', set.name)
    .execute();
}

/** Names among `names` that no set has. */
export async function missingPropertySets(db: Database, names: string[]): Promise<string[]> {
  const found = await db
    .selectFrom('property_sets')
    .select('name')
    .where('name', 'in', names)
    .execute();
  const known = new Set(found.map((row) => row.name));
  return names.filter((name) => !known.has(name));
}

export async function deletePropertySets(db: Database, names: string[]): Promise<void> {
  await db.deleteFrom('property_sets').where('name', 'in', names).execute();
}
