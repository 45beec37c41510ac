/**
 * The Event API's shape (`event/api/v1/subscriptions`): its structure only. What the fields
 * may hold, and the spec's messages, come from the webhook entity schema the body is checked
 * against once it is turned into a stored document (routes.ts).
 */
const strings = { type: 'array', items: { type: 'string' } };

export const eventApiSubscription = {
  type: 'object',
  additionalProperties: false,
  required: ['event_filter', 'handlers'],
  properties: {
    key: { type: 'string' },
    description: { type: 'string' },
    enabled: { type: 'boolean' },
    event_filter: {
      type: 'object',
      additionalProperties: false,
      required: ['domain', 'event_types'],
      properties: {
        domain: { type: 'string' },
        event_types: strings,
        criteria: {
          type: 'object',
          additionalProperties: false,
          properties: {
            anyLocal: { type: 'boolean' },
            anyRemote: { type: 'boolean' },
            anyFederated: { const: false },
            repoKeys: strings,
            includePatterns: strings,
            excludePatterns: strings,
            anyBuild: { type: 'boolean' },
            selectedBuilds: strings,
            anyReleaseBundle: { type: 'boolean' },
            registeredReleaseBundlesNames: strings,
          },
          errorMessage: { properties: { anyFederated: 'Depot has no federated repositories' } },
        },
      },
    },
    handlers: {
      type: 'array',
      minItems: 1,
      maxItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['url'],
        properties: {
          handler_type: { const: 'webhook' },
          url: { type: 'string' },
          secret: { type: 'string' },
          use_secret_for_signing: { type: 'boolean' },
          proxy: { type: 'string' },
          custom_http_headers: {
            type: 'array',
            items: {
              type: 'object',
              properties: { name: { type: 'string' }, value: { type: 'string' } },
            },
          },
        },
      },
      errorMessage: { maxItems: 'A subscription has one webhook handler' },
    },
  },
};

export const keyParams = {
  type: 'object',
  required: ['key'],
  properties: { key: { type: 'string', minLength: 1, maxLength: 255 } },
};

export const deliveryParams = {
  type: 'object',
  required: ['key', 'deliveryId'],
  properties: {
    key: { type: 'string', minLength: 1, maxLength: 255 },
    deliveryId: { type: 'string', minLength: 1, maxLength: 64 },
  },
};
