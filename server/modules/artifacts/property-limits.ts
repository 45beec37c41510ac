import { BadRequest } from '../../errors.ts';
import { PROPERTY_MESSAGES } from '../artifact-properties/messages.ts';
import { PROPERTY_LIMITS, type Properties } from './properties.ts';

/**
 * Refuses a set of properties larger than one request may write (PROPERTY_LIMITS), before
 * anything is looked up or written: each value's length and each key's number of values,
 * then the values and the characters of the whole request.
 */
export function checkPropertyBatch(properties: Properties): void {
  let values = 0;
  let characters = 0;
  for (const [name, list] of Object.entries(properties)) {
    if (list.length > PROPERTY_LIMITS.maxValues)
      throw new BadRequest(PROPERTY_MESSAGES.tooManyValues);
    if (list.some((value) => value.length > PROPERTY_LIMITS.maxValueLength))
      throw new BadRequest(PROPERTY_MESSAGES.valueTooLong);
    values += list.length;
    characters += name.length + list.reduce((sum, value) => sum + value.length, 0);
  }
  if (values > PROPERTY_LIMITS.maxValuesPerRequest)
    throw new BadRequest(PROPERTY_MESSAGES.tooManyValuesInRequest);
  if (characters > PROPERTY_LIMITS.maxCharactersPerRequest)
    throw new BadRequest(PROPERTY_MESSAGES.requestTooLarge);
}

/** Refuses a delete of more names than one request may delete. */
export function checkPropertyNamesToDelete(names: string[]): void {
  if (names.length > PROPERTY_LIMITS.maxNamesPerDelete)
    throw new BadRequest(PROPERTY_MESSAGES.tooManyNamesToDelete);
}
