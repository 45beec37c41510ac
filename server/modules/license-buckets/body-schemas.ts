import { LICENSE_BUCKET_MESSAGES as M } from './messages.ts';

/** A bucket's name: spec 01 §5 (letters, digits, dash, underscore, period). */
const name = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9._-]*$',
  errorMessage: {
    type: M.mandatory,
    minLength: M.mandatory,
    maxLength: 'Value may not exceed 64 symbols',
    pattern: M.badName,
  },
};

/** An http or https URL, the only schemes an upstream may use. */
const url = {
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  format: 'uri',
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  errorMessage: {
    type: M.badUrl,
    minLength: M.mandatory,
    maxLength: M.badUrl,
    format: M.badUrl,
    pattern: M.badUrl,
  },
};

/** A count of licenses: a whole number of at least one; too high is the service's call. */
const licenses = {
  type: 'number',
  minimum: 1,
  multipleOf: 1,
  errorMessage: { type: M.mandatory, minimum: M.tooLow, multipleOf: M.decimal },
};

const mandatory = (fields: string[]) => ({
  required: Object.fromEntries(fields.map((field) => [field, M.mandatory])),
});

/** Add from a file: the multipart form's fields (the file itself is checked as it is read). */
export const addFromFileFields = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name, key: { type: 'string', maxLength: 1024 } },
  errorMessage: mandatory(['name']),
};

/** Add from a URL (JSON): every field mandatory (spec 01 §5). */
export const addFromUrlBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'url', 'signedUrl', 'key'],
  properties: {
    name,
    url,
    signedUrl: url,
    key: {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      errorMessage: { minLength: M.mandatory },
    },
  },
  errorMessage: mandatory(['name', 'url', 'signedUrl', 'key']),
};

export const splitBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'licenses'],
  properties: { name, licenses },
  errorMessage: mandatory(['name', 'licenses']),
};

export const attachBody = {
  type: 'object',
  additionalProperties: false,
  required: ['attachments'],
  properties: {
    attachments: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['deployment', 'licenses'],
        properties: { deployment: { type: 'string', minLength: 1, maxLength: 255 }, licenses },
        errorMessage: mandatory(['deployment', 'licenses']),
      },
      errorMessage: { minItems: M.mandatory },
    },
  },
  errorMessage: mandatory(['attachments']),
};

/** Detach: the deployments whose licenses from this bucket come back, all of them. */
export const detachBody = {
  type: 'object',
  additionalProperties: false,
  required: ['deployments'],
  properties: {
    deployments: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      items: { type: 'string', minLength: 1, maxLength: 255 },
      errorMessage: { minItems: M.mandatory },
    },
  },
  errorMessage: mandatory(['deployments']),
};

export const bucketParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 255 } },
};
