import ky, { HTTPError, type KyInstance, type Options } from 'ky';
import { ApiError } from './ApiError';
import { CSRF_COOKIE, CSRF_HEADER, needsCsrfToken, readCookie } from './csrf';

/** Every console call lives under this prefix; relative, so it follows the page's origin. */
export const API_PREFIX = '/ui/api/v1';

/** The console's ky instance: same-origin cookies, CSRF header on every mutating call. */
export const http: KyInstance = ky.create({
  prefixUrl: API_PREFIX,
  credentials: 'same-origin',
  // A retried POST could act twice, and a retried GET only delays the error dialog.
  retry: 0,
  timeout: 30_000,
  hooks: {
    beforeRequest: [
      (request) => {
        if (!needsCsrfToken(request.method)) return;
        const token = readCookie(CSRF_COOKIE);
        if (token) request.headers.set(CSRF_HEADER, token);
      },
    ],
  },
});

type FailureListener = (error: ApiError) => void;
const failureListeners = new Set<FailureListener>();

/**
 * Subscribes to every failed call that had no answer or a 5xx answer: the shell shows the
 * generic error dialog for those. Returns the unsubscribe function.
 */
export function onServerFailure(listener: FailureListener): () => void {
  failureListeners.add(listener);
  return () => failureListeners.delete(listener);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function toApiError(error: unknown, method: string, url: string): Promise<ApiError> {
  if (error instanceof HTTPError) {
    const body = await readBody(error.response);
    return new ApiError({
      message: error.message,
      status: error.response.status,
      body,
      method,
      url,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError({ message, method, url });
}

/** Drops the leading slash: descriptors and docs write `/ui/users`, ky's prefixUrl wants `ui/users`. */
export function relativePath(path: string): string {
  return path.replace(/^\/+/, '');
}

export interface CallOptions extends Options {
  /** Failures the caller tells the user about itself: no error dialog for them. */
  handledByCaller?: (error: ApiError) => boolean;
}

/**
 * Performs one call and returns the parsed JSON answer (undefined for an empty body).
 * Failures become `ApiError`s with the body already read.
 */
export async function call<T>(
  method: string,
  path: string,
  options: CallOptions = {},
  client: KyInstance = http,
): Promise<T> {
  const url = relativePath(path);
  const { handledByCaller, ...kyOptions } = options;
  let response: Response;
  try {
    response = await client(url, { ...kyOptions, method });
  } catch (error) {
    const apiError = await toApiError(error, method, `${API_PREFIX}/${url}`);
    const serverFailure = apiError.status === undefined || apiError.status >= 500;
    if (serverFailure && !handledByCaller?.(apiError)) {
      failureListeners.forEach((listener) => listener(apiError));
    }
    throw apiError;
  }
  return (await readBody(response)) as T;
}
