/**
 * The bodies of the projects REST calls (JFrog Access's shape), and a project as the
 * configuration document carries it (docs/config-as-code.md): the same fields, checked
 * by the same schemas, wherever a project is written.
 */
const privileges = {
  type: 'object',
  additionalProperties: false,
  properties: {
    manage_members: { type: 'boolean' },
    manage_resources: { type: 'boolean' },
    index_resources: { type: 'boolean' },
  },
};

const projectFields = {
  display_name: { type: 'string', maxLength: 256 },
  description: { type: 'string', maxLength: 2048 },
  admin_privileges: privileges,
  storage_quota_bytes: { type: ['integer', 'null'], minimum: -1 },
};

export const projectBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    project_key: { type: 'string', minLength: 1, maxLength: 32 },
    ...projectFields,
  },
};

const roleFields = {
  name: { type: 'string', maxLength: 256 },
  description: { type: 'string', maxLength: 1024 },
  type: { enum: ['CUSTOM'] },
  environments: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 32 } },
  actions: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 64 } },
};

export const roleBody = { type: 'object', additionalProperties: false, properties: roleFields };

/**
 * A project in the configuration document, under its key: its fields and its custom roles
 * (the predefined ones are Depot's). Members are not in it: they name users and groups,
 * which are not configuration, as permissions are not.
 */
export const projectConfigurationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['display_name'],
  properties: {
    ...projectFields,
    roles: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: roleFields.name,
          description: roleFields.description,
          environments: roleFields.environments,
          actions: roleFields.actions,
        },
      },
    },
  },
};
