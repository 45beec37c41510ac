import type { SecretBox } from '../../crypto/secret-box.ts';
import type { JsonSchema } from '../../schemas/registry.ts';
import type { EntityDocument } from './documents.ts';

/** What an audit entry shows instead of a secret. */
export const MASK = '********';

/**
 * An entity's write-only secrets: top-level string properties marked `writeOnly`. They are
 * sealed with the master key when stored and never answered; a document answers
 * `<name>Set` instead, when its schema declares that property.
 */
export const secretFields = (entity: JsonSchema): string[] =>
  Object.entries(entity.properties ?? {})
    .filter(([, property]) => property.writeOnly === true)
    .map(([name]) => name);

/**
 * `document` as it is stored: without any secret or `<name>Set` field of its own, and with
 * each secret from `inputs` (the request's body) sealed. A secret left out or empty keeps
 * what `stored` holds; `<name>Set: false` with no new value removes it.
 */
export function sealSecrets(
  fields: string[],
  document: EntityDocument,
  inputs: EntityDocument,
  stored: EntityDocument | undefined,
  box: SecretBox,
): EntityDocument {
  const sealed: EntityDocument = { ...document };
  for (const field of fields) {
    const given = inputs[field];
    const kept = stored?.[field];
    delete sealed[field];
    delete sealed[`${field}Set`];
    if (typeof given === 'string' && given !== '')
      sealed[field] = sameSecret(box, kept, given) ? kept : box.encrypt(given);
    else if (inputs[`${field}Set`] !== false && kept !== undefined) sealed[field] = kept;
  }
  return sealed;
}

/** Whether a stored sealed secret holds `given`: saving the same secret again changes nothing. */
function sameSecret(box: SecretBox, stored: unknown, given: string): boolean {
  if (typeof stored !== 'string') return false;
  try {
    return box.decrypt(stored) === given;
  } catch {
    return false; // sealed with another key or damaged: the new one replaces it
  }
}

/** A stored document with its secrets opened, for the feature that uses them (sending mail). */
export function openSecrets(fields: string[], stored: EntityDocument, box: SecretBox) {
  const opened: EntityDocument = { ...stored };
  for (const field of fields)
    if (typeof stored[field] === 'string') opened[field] = box.decrypt(stored[field]);
  return opened;
}

/**
 * A document as a caller sees it: the schema's readable top-level properties only (a field
 * the schema does not declare cannot leak), secrets as `<name>Set`.
 */
export function answerOf(entity: JsonSchema, fields: string[], stored: EntityDocument) {
  const properties = entity.properties ?? {};
  const answer: EntityDocument = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.writeOnly === true) continue;
    if (stored[name] !== undefined) answer[name] = stored[name];
  }
  for (const field of fields)
    if (`${field}Set` in properties) answer[`${field}Set`] = stored[field] !== undefined;
  return answer;
}

/** A document for the audit trail: every secret masked, whether set or not. */
export function masked(fields: string[], document: EntityDocument): EntityDocument {
  const copy: EntityDocument = { ...document };
  for (const field of fields) if (copy[field] !== undefined) copy[field] = MASK;
  return copy;
}
