/**
 * A failed console call, with the response body already read, so that error text can be
 * computed synchronously (in effector samples, render code) by `errorMessage`.
 */
export class ApiError extends Error {
  /** HTTP status, or undefined when no response arrived (network failure, timeout). */
  readonly status: number | undefined;
  /** Parsed JSON body, or the plain text body, or undefined. */
  readonly body: unknown;
  readonly method: string;
  readonly url: string;

  constructor(init: {
    message: string;
    status?: number;
    body?: unknown;
    method: string;
    url: string;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.body = init.body;
    this.method = init.method;
    this.url = init.url;
  }

  get hasResponse(): boolean {
    return this.status !== undefined;
  }

  /** The machine-readable code the server puts in the body or its first error (e.g. CREDENTIALS_EXPIRED). */
  get code(): string | undefined {
    const body = this.body as { code?: unknown; errors?: Array<{ code?: unknown }> } | undefined;
    if (!body || typeof body !== 'object') return undefined;
    const code = body.code ?? body.errors?.[0]?.code;
    return typeof code === 'string' ? code : undefined;
  }

  /** Errors that name one form field: `{"errors":[{"field":"email","message":"..."}]}`. */
  get fieldErrors(): Array<{ field: string; message: string }> {
    const errors = (this.body as { errors?: unknown } | undefined)?.errors;
    if (!Array.isArray(errors)) return [];
    return errors.flatMap((e: { field?: unknown; message?: unknown; detail?: unknown }) =>
      typeof e?.field === 'string'
        ? [{ field: e.field, message: String(e.detail ?? e.message ?? '') }]
        : [],
    );
  }
}

/** A 5xx answer or no answer at all: the generic error dialog's business, not a form's. */
export function isServerFailure(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === undefined || error.status >= 500;
}

/** No answer from the server itself: none at all, or a gateway's 502 or 504 in front of it. */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === undefined || error.status === 502 || error.status === 504;
}
