import { FORBIDDEN_IN_PROPERTY, PROPERTY_LIMITS } from '../artifacts/properties.ts';

const quoted = (chars: readonly string[]) => chars.map((c) => `'${c}'`).join(', ');

/** What the Properties tab's calls answer; the spec quotes none of these, so they are Depot's. */
export const PROPERTY_MESSAGES = {
  set: (name: string) => `Successfully set property '${name}'`,
  deleted: 'Successfully deleted properties',
  virtual: (repoKey: string) =>
    `'${repoKey}' is a virtual repository: set properties in the repository that stores the item`,
  inTrash: 'Items in the Trash Can cannot be changed: restore them first',
  nameRequired: 'The property needs a name',
  nameTooLong: `A property name is at most ${PROPERTY_LIMITS.maxNameLength} characters`,
  nameCharacters: `A property name cannot contain ${quoted(FORBIDDEN_IN_PROPERTY.name)}, nor start or end with a space`,
  valueRequired: 'Give the property at least one value',
  tooManyValues: `A property has at most ${PROPERTY_LIMITS.maxValues} values`,
  valueTooLong: `A property value is at most ${PROPERTY_LIMITS.maxValueLength} characters`,
  valueCharacters: `A property value cannot contain ${quoted(FORBIDDEN_IN_PROPERTY.value)}`,
  patchBody: 'Send the properties as {"props": {"name": "value", "name to remove": null}}',
  patchValue: (name: string) =>
    `The value of '${name}' must be a string, a list of strings, or null to remove it`,
  namesRequired: 'Give the names of the properties to delete',
  tooManyValuesInRequest: `One request sets at most ${PROPERTY_LIMITS.maxValuesPerRequest} property values in all`,
  requestTooLarge: `One request's property names and values hold at most ${PROPERTY_LIMITS.maxCharactersPerRequest.toLocaleString('en')} characters in all`,
  tooManyNamesToDelete: `One request deletes at most ${PROPERTY_LIMITS.maxNamesPerDelete} properties`,
} as const;
