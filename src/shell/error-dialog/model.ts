import { createEvent, createStore } from 'effector';
import type { ApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';

/** What "See more details" reveals. */
export interface ErrorDetails {
  summary: string;
  status?: number;
  request?: string;
  time: string;
}

export const serverErrorOccurred = createEvent<ErrorDetails>();
export const errorDialogClosed = createEvent();

/** The first failure is kept while the dialog is open: a burst of failed calls shows one dialog. */
export const $errorDialog = createStore<ErrorDetails | null>(null)
  .on(serverErrorOccurred, (shown, details) => shown ?? details)
  .reset(errorDialogClosed);

export function describeFailure(error: ApiError, now: Date = new Date()): ErrorDetails {
  return {
    summary: errorMessage(error),
    status: error.status,
    request: `${error.method} ${error.url}`,
    time: now.toISOString(),
  };
}
