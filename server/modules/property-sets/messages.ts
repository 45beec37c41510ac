/** Property set messages; the quoted ones are spec 03 §5 verbatim. */
export const PROPERTY_SET_MESSAGES = {
  required: 'You must fill in this field',
  unique: 'This value must be unique',
  keyUsed: 'Key is already used',
  setName:
    'Property set name must start with a letter and contain only letters, digits, dashes or underscores',
  propertyName: 'Name must start with a letter and cannot contain spaces or special characters',
  valuesRequired: 'Predefined values for the selected type cannot be empty',
  oneDefault: 'Cannot select multiple default values for the selected type',
  notFound: (name: string) => `Property set '${name}' could not be found.`,
  rename: 'A property set name cannot be changed',
  deleted: (count: number) => `${count} property set(s) deleted`,
} as const;
