import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKeyRulesCheck } from '../server/modules/repositories/key-rules.ts';
import { PROJECT_ROOT } from '../server/paths.ts';
import type { JsonSchema } from '../server/schemas/registry.ts';
import { repoKeyError } from '../src/custom/repositories/keyRules.ts';

/**
 * The repository key rules have one home, the repository entity schema: the server's check
 * and the console's come from it, and give the same first message for the same key.
 */
const entity = JSON.parse(
  readFileSync(join(PROJECT_ROOT, 'schemas/entities/repository.schema.json'), 'utf8'),
) as JsonSchema;

function serverMessage(
  check: ReturnType<typeof createKeyRulesCheck>,
  key: string,
  rclass: string,
  packageType: string,
) {
  try {
    check({ key, rclass, packageType });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const schemaDefs = entity.$defs as Record<string, { allOf?: { then: JsonSchema }[] }>;
const dockerRule = () => schemaDefs.keyByKind!.allOf![0]!.then.properties!.key!;

describe('repository key rules', () => {
  const check = createKeyRulesCheck(() => entity);

  it.each([
    ['', 'local', 'generic'],
    ['1libs', 'local', 'generic'],
    ['libs release', 'local', 'generic'],
    ['x'.repeat(65), 'local', 'generic'],
    ['Images', 'local', 'docker'],
    ['1Images', 'local', 'docker'],
    ['Images-cache', 'local', 'docker'],
    ['libs-CACHE', 'local', 'maven'],
    ['libs-cache', 'remote', 'generic'],
    ['images', 'virtual', 'docker'],
    ['libs-release', 'local', 'maven'],
  ] as const)('server and console agree on %j (%s %s)', (key, kind, type) => {
    expect(serverMessage(check, key, kind, type)).toBe(repoKeyError(key, kind, type));
  });

  it('answers reserved names on the server only, with the key as given', () => {
    expect(serverMessage(check, 'Favicon.ICO', 'local', 'generic')).toBe(
      "'Favicon.ICO' is a reserved name and cannot be a repository key",
    );
    expect(serverMessage(check, 'api-local', 'local', 'generic')).toBeUndefined();
    expect(repoKeyError('api', 'local', 'generic')).toBeUndefined();
  });

  it('words each refusal as the schema does, and follows the schema when it changes', () => {
    expect(repoKeyError('Images', 'local', 'docker')).toBe(dockerRule().errorMessage);
    const edited = structuredClone(entity);
    const rule = (edited.$defs as typeof schemaDefs).keyByKind!.allOf![0]!.then.properties!.key!;
    rule.errorMessage = 'Docker keys are lowercase here';
    let current = entity;
    const reloading = createKeyRulesCheck(() => current);
    expect(serverMessage(reloading, 'Images', 'local', 'docker')).toBe(dockerRule().errorMessage);
    current = edited;
    expect(serverMessage(reloading, 'Images', 'local', 'docker')).toBe(
      'Docker keys are lowercase here',
    );
  });
});
