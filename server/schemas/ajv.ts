import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import { withDepotEmailFormat } from './email-format.ts';

/**
 * Ajv for request bodies, set up deliberately rather than with Fastify's defaults:
 * no type coercion (a JSON body says what it means), defaults filled in on create,
 * unknown properties refused (not silently removed), and allErrors so that ajv-errors can
 * replace keyword messages with the spec's wording from each schema's `errorMessage`.
 * The console's rjsf validator is configured the same way (src/engine), and a contract test
 * runs the same fixtures through both.
 */
export function createBodyAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    coerceTypes: false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  withDepotEmailFormat(addFormats.default(ajv));
  addErrors.default(ajv);
  return ajv;
}

/**
 * A body validator compiled at its first use, not when its route is registered: an Ajv and
 * its compile cost tens of milliseconds each, paid at every start and by `schemas:check`
 * (which registers every route) for bodies a request may never send.
 */
export function bodyValidatorOnFirstUse(schema: () => object): () => ValidateFunction {
  let compiled: ValidateFunction | undefined;
  return () => (compiled ??= createBodyAjv().compile(schema()));
}

/**
 * A route's validator in Fastify's shape, compiled by `ajv` at the route's first request.
 * Compiling every route's schemas when the server starts was about a third of a start's CPU;
 * most routes of a given process are never called. Fastify reads a refusal's details from the
 * function's `errors`, so the compiled function's are passed on after each call.
 */
export function routeValidatorOnFirstUse(ajv: Ajv2020, schema: object) {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown) => {
    compiled ??= ajv.compile(schema);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = null as ValidateFunction['errors'];
  return validate;
}

/** Ajv for params and query strings, which arrive as text and must be coerced. */
export function createQueryAjv(): Ajv2020 {
  const ajv = new Ajv2020({ coerceTypes: 'array', useDefaults: true, strict: false });
  withDepotEmailFormat(addFormats.default(ajv));
  return ajv;
}
