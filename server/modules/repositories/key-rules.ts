import type { ValidateFunction } from 'ajv';
import { BadRequest } from '../../errors.ts';
import { describeValidation } from '../../http/error-handler.ts';
import { createBodyAjv } from '../../schemas/ajv.ts';
import type { JsonSchema } from '../../schemas/registry.ts';
import { fillMessage } from '../entities/documents.ts';
import { keyRulesSchema } from './key-rules-schema.ts';

/** What the key rules look at: the key, and the kind and package type they depend on. */
export type KeyRulesInput = { key: string; rclass: string; packageType: string };
export type KeyRulesCheck = (config: KeyRulesInput) => void;

/**
 * Checks a key against the repository entity's key rules (keyRulesSchema), refusing it with
 * the schema's message on the `key` field. Compiled at the first check (listing the routes
 * for schemas:check never needs it), and again when the schemas were reloaded.
 */
export function createKeyRulesCheck(entity: () => JsonSchema): KeyRulesCheck {
  let compiled: { from: JsonSchema; validate: ValidateFunction } | undefined;
  return ({ key, rclass, packageType }) => {
    const current = entity();
    if (compiled?.from !== current) {
      const schema = keyRulesSchema(current, { reserved: true });
      compiled = { from: current, validate: createBodyAjv().compile(schema) };
    }
    const { validate } = compiled;
    if (validate({ key, rclass, packageType })) return;
    const { message } = describeValidation(validate.errors as never);
    throw new BadRequest(fillMessage(message, { key }), 'key');
  };
}
