import { parse, stringify } from 'yaml';
import { BadRequest } from '../../errors.ts';
import { CONFIG_MESSAGES as M } from './messages.ts';
import type { ConfigurationDocument } from './read-configuration.ts';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The configuration as YAML, the form a patch is written in. */
export const configurationToYaml = (document: ConfigurationDocument) =>
  stringify(document, { lineWidth: 0 });

/** A YAML patch's text as a map; anything else is refused, never guessed at. */
export function parseYamlPatch(text: string): ConfigurationDocument {
  let value: unknown;
  try {
    value = parse(text, { prettyErrors: false, maxAliasCount: 100 });
  } catch (error) {
    throw new BadRequest(M.notYaml((error as Error).message.split('\n')[0]!));
  }
  if (value === null || value === undefined) return {};
  if (!isObject(value)) throw new BadRequest(M.notADocument);
  return value;
}

/**
 * Artifactory's YAML configuration patch: maps merge key by key at every depth, a key set
 * to null removes that entry (a repository, a field), and anything else (a list, a text)
 * replaces what was there.
 */
export function mergePatch(base: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const merged: Record<string, unknown> = isObject(base) ? { ...base } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name];
    else merged[name] = mergePatch(merged[name], value);
  }
  return merged;
}
