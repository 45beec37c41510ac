import { describe, expect, it } from 'vitest';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import Ajv2020 from 'ajv/dist/2020';
import type Ajv from 'ajv';
import addFormats from 'ajv-formats';
import ajvErrors from 'ajv-errors';
import { withDepotEmailFormat } from '../../../server/schemas/email-format.ts';
import { groupsDescriptor, usersDescriptor } from '../testing';
import type { Row } from '../../api/resource';
import { buildFormSchema } from './formSchema';
import { formValidator } from './validator';
import { transformErrors } from './transformErrors';
import { hookForm, hookSchema } from './formFeatures.fixture';

/**
 * The reference: Ajv for draft 2020-12 with ajv-formats and ajv-errors, as rjsf's
 * validator-ajv8 would run it where eval is allowed (and as the server validates). The
 * console's own validator must agree with it on every fixture.
 */
const ajvReference = customizeValidator<Row>({
  AjvClass: Ajv2020 as unknown as typeof Ajv,
  ajvOptionsOverrides: { allErrors: true, strict: false },
  ajvFormatOptions: false,
  extenderFn: (ajv) => ajvErrors(withDepotEmailFormat(addFormats(ajv)) as Ajv) as Ajv,
});

/**
 * Errors by field, order-free: the schema's wording where it has one (ajv-errors names those
 * errorMessage), else the failed keyword, since each library words its defaults its own way
 * (the console then rewords them with transformErrors, the same function for both).
 */
function messagesOf(validator: ValidatorType<Row>, schema: RJSFSchema, data: Row) {
  const { errors } = validator.validateFormData(data, schema);
  const byField: Record<string, string[]> = {};
  for (const error of errors) {
    // The console reports the leaf of a failed if/then, not the `if` itself (AGGREGATE_KEYWORDS).
    if (error.name === 'if') continue;
    const text = error.name === 'errorMessage' ? (error.message ?? '') : `<${error.name}>`;
    (byField[error.property ?? ''] ??= []).push(text);
  }
  for (const [field, list] of Object.entries(byField)) byField[field] = asEnum(list).sort();
  return byField;
}

/**
 * A value outside an enum written with titles (`oneOf` of `const`): Ajv reports the oneOf
 * and a const, the console one enum error, as for a plain `enum`.
 */
function asEnum(list: string[]): string[] {
  if (!list.includes('<oneOf>') && !list.includes('<anyOf>')) return list;
  return [...list.filter((text) => !['<oneOf>', '<anyOf>', '<const>'].includes(text)), '<enum>'];
}

const userFixtures: Row[] = [
  { name: 'jo', email: 'jo@example.com', password: 'password123' },
  {},
  { name: '', email: '' },
  { name: 'jo doe', email: 'not-an-email', password: 'short' },
  { name: 'x'.repeat(65), email: `${'x'.repeat(250)}@x.io`, password: 'p'.repeat(129) },
  { name: 'jo@corp.io', email: 'jo@@example.com', password: 'password123', groups: ['a', 'a'] },
  { name: 'jo', email: 'jo@example', password: 'password123', admin: 'yes' },
  { name: 'admin', email: 'admin@localhost' },
  { name: 'jo', email: 'jo@-bad-.host' },
  {
    name: 'Jo.Doe-1_x',
    email: 'Jo.Doe+tag@sub.example.org',
    password: 'password123',
    groups: ['readers'],
  },
];
const groupFixtures: Row[] = [
  { name: 'devs' },
  { name: '' },
  { name: 'a/b' },
  { name: 'a"b', description: 'd'.repeat(1025) },
  { name: 'ok', usersInGroup: ['jo', 'jo'] },
];

/** The form features' entity: conditionals, dependentRequired, worded required, enum arrays. */
const hookFixtures: Row[] = [
  { name: 'hook1', url: 'https://ci.example.com/hook' },
  {},
  { name: 'hook1', url: 'https://ci.example.com/hook', authType: 'PASSWORD' },
  { name: 'hook1', url: 'https://x.io', authType: 'PASSWORD', secret: 's' },
  { name: 'hook1', url: 'https://x.io', proxyHost: 'proxy' },
  { name: 'hook1', url: 'https://x.io', headers: [{ name: 'X-A' }, {}, { name: 'a', value: 'b' }] },
  { name: 'h', url: 'nope', includePatterns: ['org/**', '/abs'], events: ['artifact', 'nope'] },
  { name: 'hook1', url: 'https://x.io', domains: ['release_bundle', 'other'], authType: 'X' },
];
const hookDescriptor = { form: hookForm, entitySchema: hookSchema };

describe('the console validator agrees with Ajv 2020 + ajv-errors', () => {
  const cases = [
    ['user', usersDescriptor, userFixtures],
    ['group', groupsDescriptor, groupFixtures],
    ['hook', hookDescriptor, hookFixtures],
  ] as const;
  for (const [entity, descriptor, fixtures] of cases) {
    for (const mode of ['create', 'edit'] as const) {
      const { schema } = buildFormSchema(descriptor.form, descriptor.entitySchema, mode);
      fixtures.forEach((data, index) => {
        it(`${entity} form (${mode}), fixture ${index}`, () => {
          expect(messagesOf(formValidator, schema, data)).toEqual(
            messagesOf(ajvReference, schema, data),
          );
        });
      });
    }
  }

  it('produces the spec wording on the real schemas', () => {
    const { schema } = buildFormSchema(
      usersDescriptor.form,
      usersDescriptor.entitySchema,
      'create',
    );
    const { errors } = formValidator.validateFormData(
      userFixtures[3],
      schema,
      undefined,
      transformErrors,
    );
    expect(Object.fromEntries(errors.map((e) => [e.property, [e.message]]))).toEqual({
      '.name': ['Name contains illegal characters'],
      '.email': ['Please enter a valid email'],
      '.password': ['Password is not satisfy the policy'],
    });
    const empty = formValidator.validateFormData({}, schema, undefined, transformErrors).errors;
    expect(empty.map((e) => [e.property, e.message])).toEqual([
      ['name', 'You must fill in this field'],
      ['email', 'You must fill in this field'],
      ['password', 'You must fill in this field'],
    ]);
  });
});
