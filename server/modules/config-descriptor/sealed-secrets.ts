import { BadRequest } from '../../errors.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { EntityDocument } from '../entities/documents.ts';

export const OTHER_KEY_MESSAGE =
  "This secret was sealed with another Depot's master key; enter it in plain text, or apply the document on a Depot that shares the key";

/**
 * A document's secrets in plain text, for the checks a console's or script's plain value
 * goes through. A secret the document carries sealed (`enc:v1:...`, as exported) must open
 * with this Depot's master key; `sealedAsGiven` keeps that form, so a document applied to a
 * Depot sharing the key reads back exactly as it was exported.
 */
export function openedSecrets(
  box: SecretBox,
  fields: string[],
  entry: EntityDocument,
): { plain: EntityDocument; sealedAsGiven: Record<string, string> } {
  const plain: EntityDocument = { ...entry };
  const sealedAsGiven: Record<string, string> = {};
  for (const field of fields) {
    const value = entry[field];
    if (typeof value !== 'string' || !SecretBox.isEncrypted(value)) continue;
    try {
      plain[field] = box.decrypt(value);
    } catch {
      throw new BadRequest(OTHER_KEY_MESSAGE, field);
    }
    sealedAsGiven[field] = value;
  }
  return { plain, sealedAsGiven };
}
