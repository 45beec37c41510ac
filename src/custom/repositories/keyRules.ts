import { Validator, type Schema } from '@cfworker/json-schema';
import repositorySchema from '../../../schemas/entities/repository.schema.json';
import type { JsonSchema } from '../../../server/schemas/registry.ts';
import { keyRulesSchema } from '../../../server/modules/repositories/key-rules-schema.ts';
import type { RepoKind } from '../../api/repositories';
import { schemaErrorMessage } from '../../engine/form/schemaErrorMessages';
import { REPO_KEY_MESSAGES } from './messages';

/**
 * The key rules the console checks as the admin types (spec 03 §5): the repository entity
 * schema's, built as the server builds them (keyRulesSchema), so both give the same first
 * message. The server's validatereponame adds what only it knows: a key in use, reserved
 * names.
 */
const KEY_RULES = keyRulesSchema(repositorySchema as JsonSchema, { reserved: false });
const validator = new Validator(KEY_RULES as Schema, '2020-12', false);

export function repoKeyError(key: string, kind: RepoKind, packageType: string): string | undefined {
  const result = validator.validate({ key, rclass: kind, packageType });
  if (result.valid) return undefined;
  // The first failed rule that has words of its own; the others only say a rule below failed.
  for (const error of result.errors) {
    const message = schemaErrorMessage(KEY_RULES, error.keywordLocation, error.keyword);
    if (message !== undefined) return message;
  }
  return REPO_KEY_MESSAGES.illegalCharacters;
}
