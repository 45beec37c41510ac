import { describe, expect, it } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { describeValidation } from '../../../server/http/error-handler.ts';
import { createBodyAjv } from '../../../server/schemas/ajv.ts';
import { KEYWORD_MESSAGE_PATTERNS } from '../../../server/schemas/validation-wording.ts';
import type { Row } from '../../api/resource';
import { formValidator } from './validator';
import { transformErrors } from './transformErrors';

/**
 * One property per keyword, none worded by the schema: what the console's form and the
 * server's answer say of a bad value must be the spec's words (01 §5) or plain ones, the
 * same on both sides, and never the validator's own text.
 */
const schema = {
  type: 'object',
  properties: {
    required: { type: 'string' },
    repoKey: { type: 'string', pattern: '^[a-z]+$' },
    includes: { type: 'string', pattern: '^[a-z]+$' },
    count: { type: 'integer' },
    ratio: { type: 'number' },
    label: { type: 'string' },
    enabled: { type: 'boolean' },
    aliases: { type: 'array', items: { type: 'string' } },
    short: { type: 'string', maxLength: 3 },
    long: { type: 'string', minLength: 4 },
    filled: { type: 'string', minLength: 1 },
    days: { type: 'integer', minimum: 0 },
    port: { type: 'integer', minimum: 1, maximum: 65535 },
    above: { type: 'number', exclusiveMinimum: 5 },
    below: { type: 'number', exclusiveMaximum: 5 },
    step: { type: 'number', multipleOf: 5 },
    whole: { type: 'number', multipleOf: 1 },
    email: { type: 'string', format: 'email' },
    url: { type: 'string', format: 'uri' },
    when: { type: 'string', format: 'date-time' },
    kind: { type: 'string', enum: ['a', 'b'] },
    fixed: { const: 'x' },
    tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 3, uniqueItems: true },
    members: { type: 'array', items: { type: 'string' }, minItems: 1 },
  },
  required: ['required'],
} as const;

/** Field, bad value, the words a person must read. */
const CASES: [string, unknown, string][] = [
  ['required', undefined, 'You must fill in this field'],
  ['repoKey', 'Bad Key!', 'Name contains illegal characters'],
  ['includes', 'Not/This', 'The value is not in the expected format'],
  ['count', 1.5, 'Please enter a whole number'],
  ['ratio', 'many', 'Please enter a number'],
  ['label', 7, 'Please enter text'],
  ['enabled', 'yes', 'Please choose true or false'],
  ['aliases', 'one', 'Please enter a list of values'],
  ['short', 'abcd', 'Value may not exceed 3 symbols'],
  ['long', 'abc', 'Value must be greater then 4 symbols'],
  ['filled', '', 'You must fill in this field'],
  ['days', -1, 'Please enter a non-negative number'],
  ['port', 0, 'The value may not be less than 1'],
  ['port', 70000, 'The value may not be more than 65535'],
  ['above', 5, 'The value must be more than 5'],
  ['below', 5, 'The value must be less than 5'],
  ['step', 7, 'The value must be a multiple of 5'],
  ['whole', 2.5, 'Please enter a whole number'],
  ['email', 'not-an-email', 'Please enter a valid email'],
  ['url', 'not a url', 'Please enter a valid url'],
  ['when', 'yesterday', 'The value is not in the expected format'],
  ['kind', 'c', 'Please choose one of the offered values'],
  ['fixed', 'y', 'Please choose one of the offered values'],
  ['tags', ['a'], 'Choose at least 2 values'],
  ['tags', ['a', 'b', 'c', 'd'], 'Choose at most 3 values'],
  ['tags', ['a', 'a'], 'Each value may appear only once'],
  ['members', [], 'You must fill in this field'],
];

const valid: Row = { required: 'yes' };
const withBad = (field: string, value: unknown): Row =>
  value === undefined ? {} : { ...valid, [field]: value };

function consoleMessages(data: Row): string[] {
  const { errors } = formValidator.validateFormData(
    data,
    schema as unknown as RJSFSchema,
    undefined,
    transformErrors,
  );
  return errors.map((error) => error.message ?? '');
}

function serverMessage(data: Row): string {
  const validate = createBodyAjv().compile(schema);
  expect(validate(data)).toBe(false);
  return describeValidation(validate.errors as never).message;
}

describe('validation wording', () => {
  it.each(CASES)('%s = %j reads "%s" in the console', (_field, value, words) => {
    expect(consoleMessages(withBad(_field, value))).toEqual([words]);
  });

  it.each(CASES)('%s = %j reads "%s" in the server answer', (field, value, words) => {
    expect(serverMessage(withBad(field, value))).toBe(words);
  });

  it('lists every wording in its known patterns, and no validator text matches them', () => {
    for (const [, , words] of CASES)
      expect(
        KEYWORD_MESSAGE_PATTERNS.some((known) => known.test(words)),
        words,
      ).toBe(true);
    for (const raw of [
      'Instance type "number" is invalid. Expected "integer".',
      'must match pattern "^[A-Za-z0-9._@-]+$"',
      'String does not match pattern.',
      'must NOT have more than 2048 characters',
    ])
      expect(
        KEYWORD_MESSAGE_PATTERNS.some((known) => known.test(raw)),
        raw,
      ).toBe(false);
  });

  it('names the field a body refusal is about', () => {
    const validate = createBodyAjv().compile(schema);
    validate({ required: 1 });
    expect(describeValidation(validate.errors as never)).toEqual({
      message: 'Please enter text',
      field: 'required',
    });
  });
});
