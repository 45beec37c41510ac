import type { ValidateFunction } from 'ajv';
import { BadRequest, DepotError } from '../../errors.ts';
import { describeValidation } from '../../http/error-handler.ts';
import { createBodyAjv } from '../../schemas/ajv.ts';
import type { JsonSchema } from '../../schemas/registry.ts';

/** `section.key.field`: where in the configuration document a value sits. */
export const pathOf = (...parts: (string | undefined)[]) =>
  parts.filter((part) => part !== undefined && part !== '').join('.');

/**
 * A refusal of one item, re-said at its place in the document: the same status and the
 * feature's own message, prefixed and fielded with the path (`proxies.corp.port`). Anything
 * that is not a typed refusal is a bug and goes on as it is.
 */
export function atPath(error: unknown, path: string): unknown {
  if (!(error instanceof DepotError) || error.statusCode >= 500) return error;
  const field = pathOf(path, error.field);
  return new DepotError(error.statusCode, `${field}: ${error.message}`, field, error.code);
}

export async function refusedAt<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw atPath(error, path);
  }
}

const ajv = createBodyAjv();
const compiled = new Map<string, ValidateFunction>();

/**
 * Checks `body` against a body schema (compiled once under `name`) (the one the console's and REST's calls use), filling
 * in its defaults as they do; a violation is refused with the schema's own message, its
 * field named within the item (`refusedAt` adds where the item is).
 */
export function validateAgainst(name: string, schema: () => JsonSchema, body: unknown): void {
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.compile(schema());
    compiled.set(name, validate);
  }
  if (validate(body)) return;
  const { message, field } = describeValidation(validate.errors as never);
  throw new BadRequest(message.replace(/^The request body: /, ''), field);
}
