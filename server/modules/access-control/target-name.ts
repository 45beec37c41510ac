import { ILLEGAL_NAME_MESSAGE } from '../../schemas/validation-wording.ts';

/**
 * What a permission target's name may not hold. Spec 01 §5 words the rule for a group's name
 * (no / \ : | ? < > * or quote) and Artifactory refuses the same characters in the names it
 * puts in a path: a target's name goes in its URL (`/api/v2/security/permissions/{name}`,
 * the console's `edit/{permissionName}`), where a slash or a question mark would cut it.
 * Shared by the server and the console's form, so both refuse with the same words.
 */
const ILLEGAL_CHARACTERS = /[/\\:|?<>*"]/;

/** The spec's message when the name holds one of those characters, else undefined. */
export function targetNameError(name: string): string | undefined {
  return ILLEGAL_CHARACTERS.test(name) ? ILLEGAL_NAME_MESSAGE : undefined;
}
