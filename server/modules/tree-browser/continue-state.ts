import { BadRequest } from '../../errors.ts';

/**
 * The tree's `continueState`: where the next page starts, opaque to the console (base64url
 * JSON). A state the server did not write is a 400, never a 500.
 */
export function encodeContinueState(state: object): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

export function decodeContinueState<T>(value: string, isValid: (state: unknown) => boolean): T {
  let state: unknown;
  try {
    state = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    state = undefined;
  }
  if (!isValid(state)) throw new BadRequest('The continueState is not one the server sent');
  return state as T;
}
