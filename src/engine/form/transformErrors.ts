import type { RJSFValidationError, UiSchema } from '@rjsf/utils';
import { keywordMessage } from '../../../server/schemas/validation-wording.ts';

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

/** Where each keyword's value sits in an error's params (Ajv's names; our validator's too). */
function expectedOf(error: RJSFValidationError): unknown {
  const params = (error.params ?? {}) as Record<string, unknown>;
  return params.limit ?? params.format ?? params.type ?? params.multipleOf ?? params.pattern;
}

/**
 * The spec's words for an error no schema worded (`errorMessage` passes unchanged): every
 * keyword has some, so a validator's own text never reaches a person.
 */
function specMessage(error: RJSFValidationError): string | undefined {
  if (error.name === undefined || error.name === 'errorMessage') return undefined;
  const path = (error.property ?? '').split('.').filter(Boolean);
  return keywordMessage({
    keyword: error.name,
    property: path.filter((part) => !/^\d+$/.test(part)).at(-1),
    expected: expectedOf(error),
  });
}
