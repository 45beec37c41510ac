import type { RJSFValidationError } from '@rjsf/utils';
import {
  INVALID_EMAIL_MESSAGE,
  INVALID_URL_MESSAGE,
  REQUIRED_MESSAGE,
  maxLengthMessage,
  minLengthMessage,
} from '../messages';

/**
 * Spec wording for errors a schema did not word itself: an empty required field reads
 * "You must fill in this field", and so on. Messages from `errorMessage` pass unchanged.
 */
export function transformErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  return errors.map((error) => {
    const message = specMessage(error);
    return message === undefined
      ? error
      : { ...error, message, stack: `${error.property ?? ''} ${message}`.trim() };
  });
}

function specMessage(error: RJSFValidationError): string | undefined {
  const params = (error.params ?? {}) as { limit?: number; format?: string };
  switch (error.name) {
    case 'required':
      return REQUIRED_MESSAGE;
    case 'format':
      if (params.format === 'email') return INVALID_EMAIL_MESSAGE;
      if (params.format === 'uri' || params.format === 'url') return INVALID_URL_MESSAGE;
      return undefined;
    case 'maxLength':
      return maxLengthMessage(params.limit ?? 0);
    case 'minLength':
      return params.limit === 1 ? REQUIRED_MESSAGE : minLengthMessage(params.limit ?? 0);
    default:
      return undefined;
  }
}
