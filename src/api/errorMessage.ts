import { ApiError } from './ApiError';
import { NO_RESPONSE_MESSAGE } from './messages';

type ErrorEntry = { detail?: unknown; message?: unknown };

/** A JSON-encoded message (`"{\"message\":\"x\"}"`) is unpacked with the same rules. */
function unpack(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[') && !trimmed.startsWith('"')) return text;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return messageFromBody(parsed) ?? text;
  } catch {
    return text;
  }
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function fromErrorsArray(errors: unknown): string | undefined {
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const texts = errors
    .map((entry: ErrorEntry | string) => {
      if (typeof entry === 'string') return unpack(entry);
      const text = nonEmptyString(entry?.detail) ?? nonEmptyString(entry?.message);
      return text === undefined ? undefined : unpack(text);
    })
    .filter((text): text is string => text !== undefined);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** Steps 1 to 5 of the spec's order: what the body itself says. */
function messageFromBody(body: unknown): string | undefined {
  if (typeof body === 'string')
    return nonEmptyString(body) === undefined ? undefined : unpack(body);
  if (Array.isArray(body)) return fromErrorsArray(body);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const feedback = (b.feedbackMsg ?? b.feedback) as Record<string, unknown> | undefined;
  const error = b.error as unknown;
  return (
    fromErrorsArray(b.errors) ??
    nonEmptyString(feedback?.error) ??
    nonEmptyString(error) ??
    nonEmptyString((error as { message?: unknown } | undefined)?.message) ??
    nonEmptyString(b.message)
  );
}

/**
 * The one error-text parser of the console, in the order of spec 01 §5: errors array
 * (`detail` or `message`, JSON-encoded messages unpacked), feedback error, `error`,
 * `message`, plain string body, the supplied default, "No response received from server"
 * when there was no response, else the error's own message.
 */
export function errorMessage(error: unknown, defaultMessage?: string): string {
  // A caller may also hand over a bare body (object or string) instead of an error.
  const body = error instanceof ApiError ? error.body : error instanceof Error ? undefined : error;
  const fromBody = messageFromBody(body);
  if (fromBody !== undefined) return fromBody;
  if (defaultMessage) return defaultMessage;
  if (error instanceof ApiError && !error.hasResponse) return NO_RESPONSE_MESSAGE;
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
