import { Validator, format, type OutputUnit, type Schema } from '@cfworker/json-schema';
import {
  createErrorHandler,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';
import type { Row } from '../../api/resource';
import { isEmail } from '../../../server/schemas/email-format.ts';
import { atPointer, schemaErrorMessage } from './schemaErrorMessages';

/**
 * Email as the server checks it (server/schemas/email-format.ts: HTML's rule, which takes a
 * single-label host such as `admin@localhost`), so that the console never accepts an address
 * the server refuses or the other way round; the contract test guards this.
 */
format.email = isEmail;

/** Keywords that only report that something below them failed; the leaf error says what. */
const AGGREGATE_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'items',
  'prefixItems',
  'contains',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  '$ref',
  '$dynamicRef',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
]);
const LIMIT_KEYWORDS = new Set([
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
]);

/** Where Ajv's error params keep the keyword's value (`{format: 'email'}`, `{type: 'integer'}`). */
const AJV_PARAM_OF: Record<string, string> = {
  format: 'format',
  type: 'type',
  pattern: 'pattern',
  multipleOf: 'multipleOf',
  exclusiveMinimum: 'limit',
  exclusiveMaximum: 'limit',
};

/** A `oneOf`/`anyOf` whose branches are all `const` (enum values with titles). */
function isConstChoice(node: unknown): boolean {
  return (
    Array.isArray(node) &&
    node.length > 0 &&
    node.every((branch) => branch !== null && typeof branch === 'object' && 'const' in branch)
  );
}

/**
 * A value outside an enum written with titles (`oneOf` of `const`) is one error, as for a
 * plain `enum`: not one "does not match" per title it is not.
 */
function collapseConstChoices(units: OutputUnit[], root: RJSFSchema): OutputUnit[] {
  const choices = units.filter(
    (unit) =>
      (unit.keyword === 'oneOf' || unit.keyword === 'anyOf') &&
      isConstChoice(atPointer(root, unit.keywordLocation)),
  );
  if (choices.length === 0) return units;
  const inside = (unit: OutputUnit) =>
    choices.some((choice) => unit.keywordLocation.startsWith(`${choice.keywordLocation}/`));
  return units
    .filter((unit) => !inside(unit))
    .map((unit) =>
      choices.includes(unit)
        ? { ...unit, keyword: 'enum', error: 'Instance does not match any of the allowed values.' }
        : unit,
    );
}

/** `#/groups/0` → `.groups.0`, rjsf's property path. */
function toProperty(instanceLocation: string): string {
  return instanceLocation
    .replace(/^#/, '')
    .split('/')
    .filter(Boolean)
    .map((part) => `.${decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')}`)
    .join('');
}

/** One raw error as rjsf's error list wants it, in the schema's own words where it has them. */
function toRjsfError(unit: OutputUnit, rootSchema: RJSFSchema): RJSFValidationError {
  let property = toProperty(unit.instanceLocation);
  const params: Record<string, unknown> = {};
  if (unit.keyword === 'required') {
    const missing = /required property "(.*)"/.exec(unit.error)?.[1] ?? '';
    params.missingProperty = missing;
    // Worded by the object (ajv-errors' `errorMessage.required`): said of the object.
    const worded = requiredMessage(rootSchema, unit.keywordLocation, missing);
    if (worded !== undefined)
      return {
        name: 'errorMessage',
        property,
        message: worded,
        params,
        stack: `${property} ${worded}`.trim(),
        schemaPath: unit.keywordLocation,
      };
    // At the root rjsf (like Ajv) names the bare property: `name`, not `.name`.
    property = property ? `${property}.${missing}` : missing;
  } else if (unit.keyword === 'dependentRequired') {
    // As rjsf reads Ajv's error: about the property that is missing, not the object.
    const missing = /does not have "(.*)"\.$/.exec(unit.error)?.[1] ?? '';
    params.missingProperty = missing;
    property = property ? `${property}.${missing}` : missing;
  } else if (LIMIT_KEYWORDS.has(unit.keyword)) {
    params.limit = atPointer(rootSchema, unit.keywordLocation);
  } else if (unit.keyword in AJV_PARAM_OF) {
    // Ajv's name for the keyword's value, so that one wording reads both validators' errors.
    params[AJV_PARAM_OF[unit.keyword]] = atPointer(rootSchema, unit.keywordLocation);
  }
  const own =
    unit.keyword === 'required'
      ? undefined
      : schemaErrorMessage(rootSchema, unit.keywordLocation, unit.keyword);
  const message = own ?? unit.error;
  return {
    // As with ajv-errors, an error worded by the schema is named errorMessage.
    name: own === undefined ? unit.keyword : 'errorMessage',
    property,
    message,
    params,
    stack: `${property} ${message}`.trim(),
    schemaPath: unit.keywordLocation,
  };
}

/**
 * The object's own wording for a missing property, as ajv-errors reads `errorMessage`: one
 * text for every keyword, one for `required`, or one per property (`required: {name: ...}`).
 */
function requiredMessage(root: RJSFSchema, keywordLocation: string, missing: string) {
  const holder = atPointer(root, keywordLocation.replace(/\/required$/, '')) as
    { errorMessage?: unknown } | undefined;
  const errorMessage = holder?.errorMessage;
  if (typeof errorMessage === 'string') return errorMessage;
  const forRequired = (errorMessage as { required?: unknown } | undefined)?.required;
  if (typeof forRequired === 'string') return forRequired;
  const forProperty = (forRequired as Record<string, unknown> | undefined)?.[missing];
  return typeof forProperty === 'string' ? forProperty : undefined;
}

/** ajv-errors reports a worded keyword once per object, however many properties it concerns. */
function withoutRepeats(errors: RJSFValidationError[]): RJSFValidationError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    if (error.name !== 'errorMessage') return true;
    const key = `${error.property} ${error.schemaPath} ${error.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * rjsf's validator contract, on a JSON Schema 2020-12 validator that does not compile to
 * code: the console's Content-Security-Policy (`script-src 'self'`) forbids eval, which
 * Ajv needs. Messages come from the schemas' `errorMessage` like ajv-errors; the contract
 * test runs the same fixtures through Ajv 2020 + ajv-errors and through this.
 */
export class FormValidator implements ValidatorType<Row, RJSFSchema> {
  private compiled = new WeakMap<object, Validator>();

  private validatorFor(schema: RJSFSchema): Validator {
    let validator = this.compiled.get(schema);
    if (!validator) {
      // Without a $schema the validator's draft applies; $id would be registered globally.
      const { $id: _id, ...rest } = schema;
      validator = new Validator(rest as Schema, '2020-12', false);
      this.compiled.set(schema, validator);
    }
    return validator;
  }

  rawValidation<Result = OutputUnit>(
    schema: RJSFSchema,
    formData?: Row,
  ): { errors?: Result[]; validationError?: Error } {
    try {
      const errors = collapseConstChoices(
        this.validatorFor(schema).validate(formData ?? {}).errors,
        schema,
      );
      return { errors: errors.filter((unit) => !AGGREGATE_KEYWORDS.has(unit.keyword)) as Result[] };
    } catch (error) {
      return { validationError: error as Error };
    }
  }

  validateFormData(
    formData: Row | undefined,
    schema: RJSFSchema,
    customValidate?: CustomValidator<Row, RJSFSchema>,
    transformErrors?: ErrorTransformer<Row, RJSFSchema>,
    uiSchema?: UiSchema<Row, RJSFSchema>,
  ): ValidationData<Row> {
    const { errors: raw = [], validationError } = this.rawValidation<OutputUnit>(schema, formData);
    let errors = withoutRepeats(raw.map((unit) => toRjsfError(unit, schema)));
    if (validationError) errors.push({ stack: validationError.message });
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const errorSchema = toErrorSchema<Row>(errors);
    if (!customValidate) return { errors, errorSchema };
    const handler = customValidate(
      formData,
      createErrorHandler<Row>(formData ?? {}),
      uiSchema,
      errorSchema,
    );
    return validationDataMerge({ errors, errorSchema }, unwrapErrorHandler(handler));
  }

  isValid(schema: RJSFSchema, formData: Row | undefined, rootSchema: RJSFSchema): boolean {
    // Sub-schemas may point into the root's $defs (rjsf asks this for anyOf/oneOf options).
    const withDefs = { ...schema, $defs: { ...(rootSchema.$defs ?? {}), ...(schema.$defs ?? {}) } };
    return new Validator(withDefs as Schema, '2020-12', true).validate(formData ?? {}).valid;
  }

  reset(): void {
    this.compiled = new WeakMap();
  }
}

export const formValidator = new FormValidator();
