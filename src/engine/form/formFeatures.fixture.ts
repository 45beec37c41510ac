import type { FormDescriptor, JsonSchema } from '../../api/descriptor';

/**
 * A webhook-like entity (spec 03 "Webhook") that uses every form feature the next screens
 * need: enum arrays, enum titles, secrets, if/then, dependentRequired, key-value headers,
 * Ant patterns, a cron, sections and a Test action. Tests only: the real webhook screen
 * comes with its server.
 */
export const hookSchema: JsonSchema = {
  $id: 'hook',
  title: 'Webhook',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'url'],
  properties: {
    name: {
      type: 'string',
      title: 'Name',
      minLength: 1,
      pattern: '^$|^[A-Za-z][A-Za-z0-9_-]+$',
      errorMessage: {
        minLength: 'You must fill in this field',
        pattern: 'Name cannot contain special characters',
      },
    },
    url: {
      type: 'string',
      title: 'URL',
      format: 'uri',
      errorMessage: { format: 'Enter a valid URL' },
    },
    events: {
      type: 'array',
      title: 'Event Types',
      uniqueItems: true,
      items: { enum: ['artifact', 'build', 'docker'] },
    },
    domains: {
      type: 'array',
      title: 'Domains',
      items: {
        oneOf: [
          { const: 'artifact', title: 'Artifacts' },
          { const: 'release_bundle', title: 'Release Bundles' },
        ],
      },
    },
    authType: {
      type: 'string',
      title: 'Authentication',
      oneOf: [
        { const: 'NONE', title: 'None' },
        { const: 'TOKEN', title: 'Secret Token' },
        { const: 'PASSWORD', title: 'Password' },
      ],
    },
    secret: { type: 'string', title: 'Secret', writeOnly: true },
    proxyHost: { type: 'string', title: 'Proxy Host' },
    proxyPort: { type: 'integer', title: 'Proxy Port' },
    headers: {
      type: 'array',
      title: 'Custom Headers',
      items: {
        type: 'object',
        title: 'Header',
        required: ['name', 'value'],
        errorMessage: { required: 'Header must contain name and value' },
        properties: {
          name: { type: 'string', title: 'Name' },
          value: { type: 'string', title: 'Value' },
        },
      },
    },
    includePatterns: {
      type: 'array',
      title: 'Include Patterns',
      items: {
        type: 'string',
        pattern: '^[^/]',
        errorMessage: { pattern: 'A pattern cannot start with a slash' },
      },
    },
    cleanupCron: { type: 'string', title: 'Cleanup Cron' },
    kind: { type: 'string', title: 'Kind', enum: ['push', 'pull'] },
  },
  if: { properties: { authType: { const: 'PASSWORD' } }, required: ['authType'] },
  then: { required: ['secret'] },
  dependentRequired: { proxyHost: ['proxyPort'] },
};

export const hookForm: FormDescriptor = {
  fields: [
    'name',
    'url',
    'events',
    'domains',
    'authType',
    'secret',
    'proxyHost',
    'proxyPort',
    'headers',
    'includePatterns',
    'cleanupCron',
    'kind',
  ],
  uiSchema: {
    headers: { 'ui:field': 'keyValue' },
    includePatterns: { 'ui:widget': 'antPatterns' },
    cleanupCron: { 'ui:widget': 'cron' },
    kind: { 'ui:widget': 'radio' },
  },
  sections: [
    { title: 'General Settings', fields: ['name', 'url', 'authType', 'secret'] },
    { title: 'Events', fields: ['events', 'domains'] },
    { title: 'Repositories', fields: ['includePatterns'] },
  ],
  actions: [
    {
      id: 'test',
      label: 'Test',
      method: 'POST',
      path: '/hooks/test',
      successMessage: 'A dummy hook was executed and sent to the configured URL',
      failureMessage: 'Sending a dummy Webhook failed',
    },
  ],
};
