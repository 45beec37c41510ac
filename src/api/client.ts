import ky, { HTTPError, type KyInstance, type Options } from 'ky';
import { ApiError } from './ApiError';
import { requestFailedMessage } from './messages';
import { CSRF_COOKIE, CSRF_HEADER, needsCsrfToken, readCookie } from './csrf';
import {
  CONSOLE_USER_HEADER,
  SESSION_ENDED_STATUS,
  USER_CHANGED_STATUS,
} from '../../server/http/console-user.ts';

/** Every console call lives under this prefix; relative, so it follows the page's origin. */
export const API_PREFIX = '/ui/api/v1';

/** The signed-in user this console was started for; undefined while anonymous. */
let consoleUser: string | undefined;

/**
 * Names the user the console now shows, sent with each call so that the server can say
 * when the browser's session belongs to nobody (420) or to someone else (333).
 */
export function setConsoleUser(name: string | undefined): void {
  consoleUser = name;
}

/** Sign-in, sign-out and who-am-I calls are how the console learns its user: never refused. */
const SESSION_CALLS = /\/ui\/api\/v1\/ui\/auth\//;

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
        if (consoleUser && !SESSION_CALLS.test(new URL(request.url).pathname))
          request.headers.set(CONSOLE_USER_HEADER, consoleUser);
        if (!needsCsrfToken(request.method)) return;
        const token = readCookie(CSRF_COOKIE);
        if (token) request.headers.set(CSRF_HEADER, token);
      },
    ],
  },
});

type FailureListener = (error: ApiError) => void;
const failureListeners = new Set<FailureListener>();
const sessionListeners = new Set<(change: 'ended' | 'changed') => void>();

/**
 * Subscribes to the server's word that the console's session ended elsewhere (420) or now
 * belongs to another user (333). Returns the unsubscribe function.
 */
export function onSessionChangedElsewhere(
  listener: (change: 'ended' | 'changed') => void,
): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

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
      message: requestFailedMessage(error.response.status),
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
    if (apiError.status === SESSION_ENDED_STATUS || apiError.status === USER_CHANGED_STATUS) {
      const change = apiError.status === SESSION_ENDED_STATUS ? 'ended' : 'changed';
      sessionListeners.forEach((listener) => listener(change));
    }
    const serverFailure = apiError.status === undefined || apiError.status >= 500;
    if (serverFailure && !handledByCaller?.(apiError)) {
      failureListeners.forEach((listener) => listener(apiError));
    }
    throw apiError;
  }
  return (await readBody(response)) as T;
}
