import type { JsonSchema } from '../../schemas/registry.ts';

/**
 * The repository key rules as one schema over `{key, rclass, packageType}`, built from the
 * repository entity (schemas/entities/repository.schema.json), their one home: the key's
 * own rules (`properties.key`: length, first character, characters), then the reserved
 * names, then the rules by package type and kind (`$defs`). Listed in `allOf`, they report
 * in that order, so server and console give the same first message. The console leaves the
 * reserved names to the server's key check, as it does a key already in use. Pure, so that
 * the console imports it too.
 */
export function keyRulesSchema(entity: JsonSchema, options: { reserved: boolean }): JsonSchema {
  const defs = entity.$defs as Record<string, JsonSchema>;
  return {
    type: 'object',
    required: ['key'],
    allOf: [
      { properties: { key: entity.properties!.key! } },
      ...(options.reserved ? [defs.reservedKey!] : []),
      defs.keyByKind!,
    ],
  };
}
