import type { RJSFValidationError, UiSchema } from '@rjsf/utils';
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
export function transformErrors(
  errors: RJSFValidationError[],
  uiSchema?: UiSchema,
): RJSFValidationError[] {
  const worded = errors.map((error) => {
    const message = specMessage(error);
    return message === undefined
      ? error
      : { ...error, message, stack: `${error.property ?? ''} ${message}`.trim() };
  });
  return liftItemErrors(worded, uiSchema);
}

/** Widgets that edit a whole list in one control: their items have no place to show errors. */
const WHOLE_LIST_WIDGETS = new Set(['antPatterns', 'AntPatternsWidget']);

/**
 * An item's message (`.includePatterns.1`) shown on its list (`.includePatterns`) when one
 * control edits the whole list; the same message once, however many items it concerns.
 */
function liftItemErrors(errors: RJSFValidationError[], uiSchema?: UiSchema) {
  const seen = new Set<string>();
  return errors.flatMap((error) => {
    const [, field, index] = /^\.([^.]+)\.(\d+)(?:\.|$)/.exec(error.property ?? '') ?? [];
    const widget = field ? uiSchema?.[field]?.['ui:widget'] : undefined;
    if (index === undefined || !WHOLE_LIST_WIDGETS.has(String(widget))) return [error];
    const property = `.${field}`;
    const key = `${property} ${error.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ ...error, property, stack: key }];
  });
}

function specMessage(error: RJSFValidationError): string | undefined {
  const params = (error.params ?? {}) as { limit?: number; format?: string };
  switch (error.name) {
    case 'required':
    case 'dependentRequired':
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
